//! Users: created on their first login, with a profile they edit and a role admins change. Each user has a
//! token version that every protected request checks: logging out, a role change or a deletion raises it
//! and so ends all of that user's tokens at once. A deleted user is kept as a blocked tombstone, so they
//! cannot log back in until an admin gives them a role again.

use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::{user_key, Admin, Customer, Role};
use shared::dynamo::{get_n, get_s, get_s_or_default, is_condition_failed, n, s, Item, ItemError};
use shared::extract::{Path, Query};
use shared::json::Message;
use shared::paging::{Page, PageQuery};
use shared::validation::{
    without_controls, Address, Email, FullName, Lines, Phone, UkAddress, POSTCODE_PATTERN,
};
use shared::{ApiError, ApiResult, Json};

/// Users per page of the admin list.
pub const PAGE_SIZE: usize = 20;

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
    fn new(email: &str, role: Role) -> Self {
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

    fn to_item(&self) -> Item {
        let mut item = user_key(&self.email);
        item.extend([
            ("gsi1pk".to_owned(), s("USERS")),
            (
                "gsi1sk".to_owned(),
                s(format!("{}#{}", self.created_at, self.email)),
            ),
            ("email".to_owned(), s(&self.email)),
            ("role".to_owned(), s(self.role.as_str())),
            ("fullname".to_owned(), s(&self.fullname)),
            ("phone".to_owned(), s(&self.phone)),
            ("address".to_owned(), s(&self.address)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
            ("tokenVersion".to_owned(), n(self.token_version)),
        ]);
        if let Some(delivery) = &self.delivery {
            delivery.write_attributes(&mut item);
        }
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let role = match get_s(item, "role")?.as_str() {
            "admin" => Role::Admin,
            _ => Role::Customer,
        };
        let created_at = get_s(item, "createdAt")?;
        Ok(User {
            email: get_s(item, "email")?,
            role,
            fullname: get_s_or_default(item, "fullname"),
            phone: get_s_or_default(item, "phone"),
            address: get_s_or_default(item, "address"),
            delivery: UkAddress::from_attributes(item),
            updated_at: Some(get_s_or_default(item, "updatedAt"))
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| created_at.clone()),
            created_at,
            token_version: get_n(item, "tokenVersion").unwrap_or(0),
            blocked: item.get("blocked").and_then(|b| b.as_bool().ok()) == Some(&true),
        })
    }
}

async fn find(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    let found = state
        .db()
        .get_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .consistent_read(true)
        .send()
        .await?;
    found
        .item()
        .map(User::from_item)
        .transpose()
        .map_err(Into::into)
}

/// The mark an erasure leaves of an address: a keyed hash of it (never the address), with the token version
/// the next account of that address starts from.
fn erased_key(state: &AppState, email: &str) -> Item {
    let tag = state.codes.sign(format!("erased:{email}").as_bytes());
    Item::from([
        (
            "pk".to_owned(),
            s(format!("ERASED#{}", shared::signed::hex(tag.as_ref()))),
        ),
        ("sk".to_owned(), s("ERASED")),
    ])
}

/// Remembers that `email`'s account, at token version `last`, was erased: a token issued before the erasure
/// never works again, even after the address signs up anew.
pub(crate) async fn remember_erased(
    state: &AppState,
    email: &str,
    last: u64,
) -> Result<(), ApiError> {
    state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(erased_key(state, email)))
        .update_expression("SET tokenVersion = :next")
        .condition_expression("attribute_not_exists(tokenVersion) OR tokenVersion < :next")
        .expression_attribute_values(":next", n(last + 1))
        .send()
        .await
        .map(drop)
        .or_else(|error| {
            if is_condition_failed(&error) {
                Ok(())
            } else {
                Err(ApiError::internal(error))
            }
        })
}

/// The token version a new account of `email` starts from: past every token an erased account of the same
/// address was ever given.
async fn version_after_erasure(state: &AppState, email: &str) -> Result<u64, ApiError> {
    Ok(
        shared::personal::get(state.db(), state.table(), erased_key(state, email))
            .await?
            .and_then(|item| get_n(&item, "tokenVersion").ok())
            .unwrap_or(0),
    )
}

/// Makes `email` an admin named `fullname` unless it has an account already (which is kept as it is): the
/// local gateway's demo admin, written as the auth function writes every user.
pub async fn ensure_admin(
    db: &aws_sdk_dynamodb::Client,
    users_table: &str,
    email: &str,
    fullname: &str,
) -> Result<(), ApiError> {
    let mut admin = User::new(email, Role::Admin);
    admin.fullname = fullname.to_owned();
    let put = db
        .put_item()
        .table_name(users_table)
        .set_item(Some(admin.to_item()))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match put {
        Err(error) if !is_condition_failed(&error) => Err(error.into()),
        _ => Ok(()),
    }
}

/// Blocked (deleted) users get the same answer as unknown ones when they try to log in.
const BLOCKED: &str = "This account was closed: ask the shop to open it again";

/// The user behind a verified code, created on their first login. An address in `ADMIN_EMAILS` becomes an
/// admin only when its account is created here while the shop has no admin at all: the setting seeds the
/// first admin, it never promotes anyone once an admin exists. An existing account keeps the role admins
/// gave it, so a demoted admin stays demoted, and a deleted (blocked) one stays out.
pub async fn sign_in(state: &AppState, email: &str, listed_admin: bool) -> Result<User, ApiError> {
    // Only a listed address reads more than its own record, and only until its account exists.
    let role = if !listed_admin {
        Role::Customer
    } else if let Some(user) = find(state, email).await? {
        return existing_login(user);
    } else if admin_exists(state).await? {
        Role::Customer
    } else {
        Role::Admin
    };
    let mut fresh = User::new(email, role);
    fresh.token_version = version_after_erasure(state, email).await?;
    let created = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(fresh.to_item()))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match created {
        Ok(_) => Ok(fresh),
        Err(error) if is_condition_failed(&error) => {
            let user = find(state, email)
                .await?
                .ok_or_else(|| ApiError::conflict("Try again"))?;
            existing_login(user)
        }
        Err(error) => Err(error.into()),
    }
}

/// The account of `email` for a sign-in that does not create one (a passkey's): `None` when there is none,
/// 403 when it was closed.
pub async fn account(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    find(state, email).await?.map(existing_login).transpose()
}

fn existing_login(user: User) -> Result<User, ApiError> {
    if user.blocked {
        return Err(ApiError::forbidden(BLOCKED));
    }
    Ok(user)
}

/// Whether any user (a closed account aside) is an admin.
async fn admin_exists(state: &AppState) -> Result<bool, ApiError> {
    let mut start: Option<Item> = None;
    loop {
        let found = state
            .db()
            .query()
            .table_name(state.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :users")
            .filter_expression(
                "#role = :admin AND (attribute_not_exists(blocked) OR blocked = :open)",
            )
            .expression_attribute_names("#role", "role")
            .expression_attribute_values(":users", s("USERS"))
            .expression_attribute_values(":admin", s(Role::Admin.as_str()))
            .expression_attribute_values(
                ":open",
                aws_sdk_dynamodb::types::AttributeValue::Bool(false),
            )
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        if !found.items().is_empty() {
            return Ok(true);
        }
        match found.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(false),
        }
    }
}

async fn existing(state: &AppState, email: &str) -> Result<User, ApiError> {
    find(state, email)
        .await?
        .filter(|user| !user.blocked)
        .ok_or_else(|| ApiError::unauthorized(shared::error::PERSON_GONE))
}

pub async fn show_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<UserInfo>> {
    Ok(Json(existing(&state, &me.email).await?.info()))
}

/// The profile fields to change; a field left out (or null) stays as it is, a blank one is cleared.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct ProfileInput {
    /// More than 5 characters, at most 100 (trimmed), on one line; blank clears it.
    #[schemars(with = "Option<crate::schema::BlankOr<6, 100>>")]
    fullname: Option<String>,
    /// At least 10 characters, at most 30: digits, spaces and `+ - ( )` (trimmed); blank clears it.
    #[schemars(with = "Option<crate::schema::PhoneOrBlank>")]
    phone: Option<String>,
    /// More than 6 characters, at most 300 (trimmed), on as many lines as it needs; blank clears it.
    #[schemars(with = "Option<crate::schema::BlankOrLines<7, 300>>")]
    address: Option<String>,
    /// The UK address's first line: 2 to 100 characters on one line. The four parts go together (a part
    /// left out counts as blank): all blank clears them, else `town` and `postcode` are needed too, and
    /// `address` becomes the parts a line each.
    #[serde(rename = "addressLine1")]
    #[schemars(with = "Option<crate::schema::BlankOr<2, 100>>")]
    address_line1: Option<String>,
    /// An optional second line: 2 to 100 characters on one line, or blank.
    #[serde(rename = "addressLine2")]
    #[schemars(with = "Option<crate::schema::BlankOr<2, 100>>")]
    address_line2: Option<String>,
    /// The town: 2 to 60 characters on one line.
    #[schemars(with = "Option<crate::schema::BlankOr<2, 60>>")]
    town: Option<String>,
    /// A UK postcode, any case and spacing (kept upper-cased as `SW1A 1AA`), or blank.
    #[schemars(regex(pattern = postcode_or_blank()), length(max = 12))]
    postcode: Option<String>,
}

/// `POSTCODE_PATTERN`, or white space only.
fn postcode_or_blank() -> String {
    format!(r"^\s*$|{POSTCODE_PATTERN}")
}

impl ProfileInput {
    /// The address parts to write, when any was sent: `Some(None)` clears them, `Some(Some(parts))` sets
    /// them.
    fn delivery(&self) -> Result<Option<Option<UkAddress>>, ApiError> {
        let sent = [
            &self.address_line1,
            &self.address_line2,
            &self.town,
            &self.postcode,
        ];
        if sent.iter().all(|part| part.is_none()) {
            return Ok(None);
        }
        let [line1, line2, town, postcode] = sent.map(|part| part.as_deref().unwrap_or_default());
        // As sent, before trimming: a part of blanks longer than its field is refused, not cleared.
        for (name, raw, max) in [
            ("addressLine1", line1, 100),
            ("addressLine2", line2, 100),
            ("town", town, 60),
            ("postcode", postcode, 12),
        ] {
            if raw.chars().count() > max {
                return Err(ApiError::invalid(format!(
                    "{name} must be at most {max} characters"
                )));
            }
        }
        if [line1, line2, town, postcode]
            .iter()
            .all(|part| part.trim().is_empty())
        {
            return Ok(Some(None));
        }
        UkAddress::parse(line1, line2, town, postcode).map(|parts| Some(Some(parts)))
    }
}

/// An empty field clears it; anything else must pass its rule. Free text (`lines`) refuses control
/// characters as sent, blank or not; a phone number's own form leaves them out.
pub(crate) fn optional_field<T>(
    raw: &str,
    parse: impl Fn(&str) -> Result<T, ApiError>,
    max: usize,
    name: &str,
    lines: Option<Lines>,
) -> Result<String, ApiError>
where
    T: ToString,
{
    if raw.chars().count() > max {
        return Err(ApiError::invalid(format!(
            "{name} must be at most {max} characters"
        )));
    }
    if let Some(lines) = lines {
        without_controls(name, raw, lines)?;
    }
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(String::new());
    }
    Ok(parse(raw)?.to_string())
}

/// Writes only the profile's own fields, on condition that the user still exists and is not blocked: a
/// save racing a role change or a delete can neither undo the one nor resurrect the other.
pub async fn update_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
    Json(input): Json<ProfileInput>,
) -> ApiResult<Json<UserInfo>> {
    let mut sets = vec!["updatedAt = :now".to_owned()];
    let mut values = vec![(":now".to_owned(), s(shared::time::now_iso()))];
    let fields: [ProfileField; 3] = [
        (
            "fullname",
            &input.fullname,
            |v| Ok(FullName::parse(v)?.to_string()),
            100,
            Some(Lines::One),
        ),
        (
            "phone",
            &input.phone,
            |v| Ok(Phone::parse(v)?.to_string()),
            30,
            None,
        ),
        (
            "address",
            &input.address,
            |v| Ok(Address::parse(v)?.to_string()),
            300,
            Some(Lines::Many),
        ),
    ];
    let delivery = input.delivery()?;
    for (name, raw, parse, max, lines) in fields {
        if let Some(raw) = raw {
            let value = optional_field(raw, parse, max, name, lines)?;
            // Parts sent with it make the one-box address themselves.
            if name == "address" && matches!(delivery, Some(Some(_))) {
                continue;
            }
            sets.push(format!("{name} = :{name}"));
            values.push((format!(":{name}"), s(value)));
        }
    }
    let mut removes = Vec::new();
    match &delivery {
        None => {}
        Some(None) => removes.extend(["addressLine1", "addressLine2", "town", "postcode"]),
        Some(Some(parts)) => {
            for (name, value) in [
                ("address", parts.one_box()),
                ("addressLine1", parts.line1.clone()),
                ("addressLine2", parts.line2.clone()),
                ("town", parts.town.clone()),
                ("postcode", parts.postcode.as_str().to_owned()),
            ] {
                sets.push(format!("{name} = :{name}"));
                values.push((format!(":{name}"), s(value)));
            }
        }
    }
    let mut expression = format!("SET {}", sets.join(", "));
    if !removes.is_empty() {
        expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
    }
    let updated = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(&me.email)))
        .update_expression(expression)
        .condition_expression("attribute_exists(pk) AND attribute_not_exists(blocked)")
        .set_expression_attribute_values(Some(values.into_iter().collect()))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
        .send()
        .await;
    updated_user(updated, || {
        ApiError::unauthorized(shared::error::PERSON_GONE)
    })
}

type FieldParser = fn(&str) -> Result<String, ApiError>;

/// A profile field: its name, what was sent, its rule, its cap, and the lines it may span (none for a
/// phone number, whose form leaves control characters out).
type ProfileField<'a> = (
    &'a str,
    &'a Option<String>,
    FieldParser,
    usize,
    Option<Lines>,
);

/// Ends every token of the caller: their token version moves on, so no token issued before counts.
pub async fn log_out(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Message>> {
    let ended = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(&me.email)))
        .update_expression("ADD tokenVersion :one")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":one", n(1))
        .send()
        .await;
    match ended {
        Err(error) if is_condition_failed(&error) => {
            Err(ApiError::unauthorized(shared::error::PERSON_GONE))
        }
        Err(error) => Err(error.into()),
        Ok(_) => Ok(Message::new("You are logged out on every device")),
    }
}

/// Newest first.
pub async fn list_users(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<UserInfo>>> {
    let page = query.page()?;
    let mut all = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let found = state
            .db()
            .query()
            .table_name(state.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :users")
            .expression_attribute_values(":users", s("USERS"))
            .scan_index_forward(false)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in found.items() {
            all.push(User::from_item(item)?.info());
        }
        match found.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    Ok(Json(Page::of(all, page, PAGE_SIZE)))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct RoleInput {
    role: Role,
}

fn target(email: &str) -> Result<Email, ApiError> {
    Email::parse_normalised(email).map_err(|_| ApiError::not_found("No user has this e-mail"))
}

pub async fn change_role(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
    Json(input): Json<RoleInput>,
) -> ApiResult<Json<UserInfo>> {
    let email = target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid(
            "You cannot change your own role: ask another admin",
        ));
    }
    // The role and the token version move together (old tokens carry the old role), and a blocked user is
    // let back in: giving a role is how an admin reopens a closed account.
    let now = shared::time::now_iso();
    let updated = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email.as_str())))
        .update_expression(
            "SET #role = :role, updatedAt = :now, gsi1pk = :users, \
             gsi1sk = if_not_exists(gsi1sk, :listed) ADD tokenVersion :one REMOVE blocked",
        )
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_names("#role", "role")
        .expression_attribute_values(":role", s(input.role.as_str()))
        .expression_attribute_values(":now", s(&now))
        .expression_attribute_values(":users", s("USERS"))
        .expression_attribute_values(":listed", s(format!("{now}#{}", email.as_str())))
        .expression_attribute_values(":one", n(1))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
        .send()
        .await;
    updated_user(updated, || ApiError::not_found("No user has this e-mail"))
}

pub async fn delete_user(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> ApiResult<Json<Message>> {
    let email = target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid("You cannot delete your own account here"));
    }
    // A tombstone, not a delete: the address stays blocked (no new account at its next login), its
    // profile is wiped, it leaves the list, and its tokens end.
    let deleted = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email.as_str())))
        .update_expression(
            "SET blocked = :yes, updatedAt = :now, fullname = :empty, phone = :empty, address = :empty \
             ADD tokenVersion :one REMOVE gsi1pk, gsi1sk, addressLine1, addressLine2, town, postcode",
        )
        .condition_expression("attribute_exists(pk) AND attribute_not_exists(blocked)")
        .expression_attribute_values(":yes", aws_sdk_dynamodb::types::AttributeValue::Bool(true))
        .expression_attribute_values(":now", s(shared::time::now_iso()))
        .expression_attribute_values(":empty", s(""))
        .expression_attribute_values(":one", n(1))
        .send()
        .await;
    match deleted {
        Err(error) if is_condition_failed(&error) => {
            Err(ApiError::not_found("No user has this e-mail"))
        }
        Err(error) => Err(error.into()),
        Ok(_) => Ok(Message::new("The user was deleted")),
    }
}

/// The user an `UpdateItem` (returning all new attributes) wrote, or `missing` when its condition found no
/// such user.
fn updated_user(
    updated: Result<
        aws_sdk_dynamodb::operation::update_item::UpdateItemOutput,
        aws_sdk_dynamodb::error::SdkError<
            aws_sdk_dynamodb::operation::update_item::UpdateItemError,
            aws_sdk_dynamodb::config::http::HttpResponse,
        >,
    >,
    missing: impl FnOnce() -> ApiError,
) -> ApiResult<Json<UserInfo>> {
    match updated {
        Ok(output) => {
            let item = output
                .attributes()
                .ok_or_else(|| ApiError::internal("no item"))?;
            Ok(Json(User::from_item(item)?.info()))
        }
        Err(error) if is_condition_failed(&error) => Err(missing()),
        Err(error) => Err(error.into()),
    }
}
