//! A user as the shop knows them (`User`: who they are, their role, their profile, their token version,
//! whether their account was closed) and as the API shows them (`UserInfo`). How a user is stored is
//! `store`'s.

use serde::Serialize;
use shared::auth::Role;
use shared::validation::UkAddress;

#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub email: String,
    pub role: Role,
    pub fullname: String,
    pub phone: String,
    pub address: String,
    /// The UK address's parts (`address` holds them too, a part a line); `None` for an address kept in one
    /// box only.
    pub delivery: Option<UkAddress>,
    pub created_at: String,
    pub updated_at: String,
    pub token_version: u64,
    pub blocked: bool,
}

/// A user as the API shows them (`userInfo`, the user list).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct UserInfo {
    /// The e-mail address again: a user is known by it.
    #[serde(rename = "_id")]
    id: String,
    email: String,
    role: Role,
    /// Empty until the user fills it in.
    fullname: String,
    phone: String,
    address: String,
    /// The UK address's parts, empty until saved that way (an address saved in one box has only `address`).
    #[serde(rename = "addressLine1")]
    address_line1: String,
    #[serde(rename = "addressLine2")]
    address_line2: String,
    town: String,
    /// Upper-cased, one space before the inward code (`SW1A 1AA`).
    postcode: String,
    #[serde(rename = "createdAt")]
    created_at: String,
}

impl User {
    /// A new account of `email`, created now with an empty profile.
    pub(super) fn new(email: &str, role: Role) -> Self {
        let now = shared::time::now_iso();
        User {
            email: email.to_owned(),
            role,
            fullname: String::new(),
            phone: String::new(),
            address: String::new(),
            delivery: None,
            created_at: now.clone(),
            updated_at: now,
            token_version: 0,
            blocked: false,
        }
    }

    pub fn info(&self) -> UserInfo {
        UserInfo {
            id: self.email.clone(),
            email: self.email.clone(),
            role: self.role,
            fullname: self.fullname.clone(),
            phone: self.phone.clone(),
            address: self.address.clone(),
            address_line1: self.part(|d| &d.line1),
            address_line2: self.part(|d| &d.line2),
            town: self.part(|d| &d.town),
            postcode: self.part(|d| d.postcode.as_str()),
            created_at: self.created_at.clone(),
        }
    }

    fn part(&self, of: impl Fn(&UkAddress) -> &str) -> String {
        self.delivery
            .as_ref()
            .map(of)
            .unwrap_or_default()
            .to_owned()
    }
}
