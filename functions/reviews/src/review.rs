//! A review: its item in the table (mapped here and nowhere else), its two JSON views (public, without the
//! reviewer's e-mail; admin, with it), and the checks a submitted review passes before it is stored.
//!
//! Keys: `pk = REVIEW#id, sk = REVIEW`; `gsi1` lists every shown review by date (`gsi1pk = REVIEW-LIST`)
//! and `gsi2` one drink's reviews by date (`gsi2pk = REVIEW-PRODUCT#drink`), both sorted by `order`, a
//! nanosecond timestamp and the id, so "newest first" is one Query read backwards. A review the admin hid
//! leaves both lists for `gsi1pk = REVIEW-HIDDEN`, where only the admin reads it.

use crate::AppState;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use shared::dynamo::{b, get_bool, get_n, get_s, get_s_or_default, n, s, Item, ItemError};
use shared::text_schema::{text, text_or_blank};
use shared::validation::{
    bounded_lines, bounded_text, check, without_controls, Email, Lines, Rating,
};
use shared::ApiError;
use std::borrow::Cow;

/// Reviews per page on the public page and in the summary's `comment`.
pub const PUBLIC_PAGE: usize = 10;
/// Reviews per page in the admin's list.
pub const ADMIN_PAGE: usize = 20;

pub const LIST: &str = "REVIEW-LIST";
/// The admin's list of hidden reviews (`gsi1pk`).
pub const HIDDEN_LIST: &str = "REVIEW-HIDDEN";
pub(crate) const KIND: &str = "REVIEW";

pub const COMMENT_MAX: usize = 2_000;
pub const FULLNAME_MAX: usize = 100;
pub const DATE_MAX: usize = 40;

pub fn key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{KIND}#{id}"))),
        ("sk".to_owned(), s(KIND)),
    ])
}

pub fn product_list(product: &str) -> String {
    format!("REVIEW-PRODUCT#{product}")
}

/// Ids are UUID v4: anything else cannot name a review, and is refused before it reaches a key.
pub fn is_review_id(id: &str) -> bool {
    uuid::Uuid::try_parse(id).is_ok()
}

#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub id: String,
    /// 1 to 5 stars.
    pub rating: u8,
    /// Free text the client may send as `Date`, kept as given (trimmed).
    pub date: String,
    pub created_at: String,
    /// The list position: creation time in nanoseconds (zero-padded) and the id.
    pub order: String,
    pub fullname: String,
    pub comment: String,
    /// An upload name, or empty (image upload is disabled for now: the images function sets it).
    pub image: String,
    /// The drink's id (`products`).
    pub product: String,
    /// The drink's name when the review was written, for the admin's list.
    pub product_name: String,
    pub email: String,
    /// Proven the buyer's: written by the signed-in buyer, through the delivered e-mail's link, or confirmed
    /// from the address's mailbox, which had a paid order containing the drink (orders::purchases).
    pub verified: bool,
    /// Taken out of the public lists and counts by an admin.
    pub hidden: bool,
}

impl Review {
    pub fn to_item(&self) -> Item {
        let mut item = key(&self.id);
        item.extend([
            ("id".to_owned(), s(&self.id)),
            ("rating".to_owned(), n(self.rating)),
            ("Date".to_owned(), s(&self.date)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("fullname".to_owned(), s(&self.fullname)),
            ("comment".to_owned(), s(&self.comment)),
            ("image".to_owned(), s(&self.image)),
            ("products".to_owned(), s(&self.product)),
            ("productName".to_owned(), s(&self.product_name)),
            ("email".to_owned(), s(&self.email)),
            ("verified".to_owned(), b(self.verified)),
            ("hidden".to_owned(), b(self.hidden)),
            ("gsi1sk".to_owned(), s(&self.order)),
        ]);
        if self.hidden {
            item.insert("gsi1pk".to_owned(), s(HIDDEN_LIST));
        } else {
            item.extend([
                ("gsi1pk".to_owned(), s(LIST)),
                ("gsi2pk".to_owned(), s(product_list(&self.product))),
                ("gsi2sk".to_owned(), s(&self.order)),
            ]);
        }
        // The author's, until an erasure takes them out (then there is no address to find it by).
        if !self.email.is_empty() {
            shared::personal::tag(&mut item, &self.email);
        }
        item
    }

    pub fn from_item(item: &Item) -> Result<Self, ItemError> {
        let rating: u8 = get_n(item, "rating")?;
        if !(1..=5).contains(&rating) {
            return Err(ItemError(format!("rating {rating} is not 1 to 5")));
        }
        Ok(Review {
            id: get_s(item, "id")?,
            rating,
            date: get_s_or_default(item, "Date"),
            created_at: get_s(item, "createdAt")?,
            order: get_s(item, "gsi1sk")?,
            fullname: get_s(item, "fullname")?,
            comment: get_s(item, "comment")?,
            image: get_s_or_default(item, "image"),
            product: get_s(item, "products")?,
            product_name: get_s_or_default(item, "productName"),
            email: get_s(item, "email")?,
            // Reviews written before purchases were checked claim nothing.
            verified: get_bool(item, "verified"),
            hidden: get_bool(item, "hidden"),
        })
    }

    /// What anyone may read: never the e-mail.
    pub fn public(&self) -> PublicReview<'_> {
        PublicReview {
            id: &self.id,
            rating: self.rating,
            date: &self.date,
            created_at: &self.created_at,
            fullname: &self.fullname,
            comment: &self.comment,
            image: &self.image,
            products: &self.product,
            verified: self.verified,
        }
    }

    /// What an admin reads: the public view, the e-mail and the drink's name.
    pub fn admin(&self) -> AdminReview<'_> {
        AdminReview {
            public: self.public(),
            email: &self.email,
            product_name: &self.product_name,
            hidden: self.hidden,
        }
    }
}

/// A review answered as the public sees it.
#[derive(Debug)]
pub struct PublicView(pub Review);

impl Serialize for PublicView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.public().serialize(serializer)
    }
}

impl JsonSchema for PublicView {
    fn schema_name() -> Cow<'static, str> {
        PublicReview::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        PublicReview::json_schema(generator)
    }
}

/// A review answered as an admin sees it.
#[derive(Debug)]
pub struct AdminView(pub Review);

impl Serialize for AdminView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.admin().serialize(serializer)
    }
}

impl JsonSchema for AdminView {
    fn schema_name() -> Cow<'static, str> {
        AdminReview::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        AdminReview::json_schema(generator)
    }
}

/// A review as anyone may read it: `{_id, rating, Date, createdAt, fullname, comment, image, products,
/// verified}`
/// (API.md).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "Review")]
pub struct PublicReview<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    #[schemars(range(min = 1, max = 5))]
    rating: u8,
    #[serde(rename = "Date")]
    date: &'a str,
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    fullname: &'a str,
    comment: &'a str,
    /// An uploaded image's name, or empty.
    image: &'a str,
    /// The drink's `_id`.
    products: &'a str,
    /// Whether the reviewer is proven to have bought the drink: signed in as its buyer, writing through the
    /// delivered e-mail's link, or confirming from the mailbox of an address that paid for it. Only then
    /// does the storefront show the "Verified" badge; a review with a typed address starts unverified.
    verified: bool,
}

/// A review as an admin reads it: with the reviewer's e-mail and the drink's name.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "AdminReview")]
pub struct AdminReview<'a> {
    #[serde(flatten)]
    public: PublicReview<'a>,
    email: &'a str,
    #[serde(rename = "productName")]
    product_name: &'a str,
    /// Taken out of the public lists by an admin.
    hidden: bool,
}

/// The review form as sent: `{rating, comment, fullname, email, products, Date?, token?}`. Every field is
/// optional here so that a missing one gets the rule's message (422), not a parse error. The e-mail is
/// needed only from someone neither signed in nor writing through a delivered e-mail's link.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(description = "A review as the form sends it.")]
pub struct ReviewInput {
    /// Whole stars, 1 to 5.
    #[schemars(with = "Rating")]
    rating: Option<Value>,
    /// 8 to 2000 characters once trimmed.
    #[schemars(required, regex(pattern = text(Lines::Many, 8, None)), length(max = 2_000))]
    comment: Option<String>,
    /// 6 to 100 characters once trimmed, on one line.
    #[schemars(required, regex(pattern = text(Lines::One, 6, None)), length(max = 100))]
    fullname: Option<String>,
    /// The reviewer's address, when they are neither signed in nor holding a `token`: a link to confirm the
    /// review is mailed there, and until it is followed the review shows unverified.
    #[schemars(regex(pattern = EMAIL_PATTERN))]
    email: Option<String>,
    /// The reviewed drink's `_id`.
    #[schemars(required, regex(pattern = r"\S"), length(max = 100))]
    products: Option<String>,
    /// Free text on one line, kept as given.
    #[serde(rename = "Date")]
    #[schemars(regex(pattern = text_or_blank(Lines::One, 1, None)), length(max = 40))]
    date: Option<String>,
    /// The token of a delivered e-mail's "review what you bought" link: the review is the buyer's.
    #[schemars(length(max = 400))]
    pub token: Option<String>,
}

/// `Email::parse_normalised`: letters, digits and `._-`, one `@`, a dot in the domain but not at its ends.
const EMAIL_PATTERN: &str = r"^\s*(?=[A-Za-z0-9._@-]{5,254}\s*$)[A-Za-z0-9._-]+@[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9._-]*[A-Za-z0-9_-]\s*$";

/// A review that passed every rule, its drink found in the catalogue.
#[derive(Debug)]
pub struct Checked {
    pub rating: u8,
    pub comment: String,
    pub fullname: String,
    /// The typed address, when the review needs one (`check`'s `with_email`).
    pub email: Option<Email>,
    pub date: String,
    pub product: catalog::Product,
}

impl ReviewInput {
    /// The spec's rules (section 5) in the form's order, then the drink. E-mail and comment are trimmed and
    /// lower-cased, the full name trimmed. The e-mail is read only `with_email` (from a reviewer who is
    /// neither signed in nor writing through a link).
    pub async fn check(self, state: &AppState, with_email: bool) -> Result<Checked, ApiError> {
        let rating = Rating::parse(self.rating.as_ref().unwrap_or(&Value::Null))?.get();
        // The cap first, so an over-long field is told its limit, not the minimum.
        let comment = self.comment.unwrap_or_default();
        let comment = without_controls("comment", &comment, Lines::Many)?
            .trim()
            .to_lowercase();
        let comment = bounded_lines("comment", &comment, COMMENT_MAX)?;
        if !check("review_comment", &Value::String(comment.clone())) {
            return Err(ApiError::invalid(
                "comment must be longer than 7 characters",
            ));
        }
        let fullname = bounded_text("fullname", &self.fullname.unwrap_or_default(), FULLNAME_MAX)?;
        if !check("review_fullname", &Value::String(fullname.clone())) {
            return Err(ApiError::invalid(
                "fullname must be longer than 5 characters",
            ));
        }
        let email = with_email
            .then(|| Email::parse_normalised(&self.email.unwrap_or_default()))
            .transpose()?;
        let date = bounded_text("Date", self.date.as_deref().unwrap_or_default(), DATE_MAX)?;
        let product_id = self.products.unwrap_or_default().trim().to_owned();
        if product_id.is_empty() {
            return Err(ApiError::invalid(
                "products: choose the drink you are reviewing",
            ));
        }
        let product = find_product(state, &product_id)
            .await?
            .ok_or_else(|| ApiError::invalid("products: no drink has this id"))?;
        Ok(Checked {
            rating,
            comment,
            fullname,
            email,
            date,
            product,
        })
    }
}

/// A drink of the catalogue, or `None`. Ids the catalogue could never have issued are not looked up.
async fn find_product(state: &AppState, id: &str) -> Result<Option<catalog::Product>, ApiError> {
    if id.chars().count() > 100 {
        return Ok(None);
    }
    catalog::store::product(&state.db, &state.catalog_table, id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Review {
        Review {
            id: "0b6f2a4e-1c1d-4c4e-9a57-1f3a1d0e9b11".to_owned(),
            rating: 4,
            date: String::new(),
            created_at: "2026-11-22T10:00:00Z".to_owned(),
            order: "01795341600000000000#0b6f".to_owned(),
            fullname: "Layla Haddad".to_owned(),
            comment: "lovely and fizzy".to_owned(),
            image: String::new(),
            product: "p-1".to_owned(),
            product_name: "Classic Cola".to_owned(),
            email: "layla@example.com".to_owned(),
            verified: true,
            hidden: false,
        }
    }

    #[test]
    fn a_review_reads_back_as_written() {
        let review = sample();
        assert_eq!(Review::from_item(&review.to_item()).unwrap(), review);
        let hidden = Review {
            hidden: true,
            ..sample()
        };
        let item = hidden.to_item();
        assert_eq!(Review::from_item(&item).unwrap(), hidden);
        assert_eq!(item["gsi1pk"], s(HIDDEN_LIST));
        assert!(
            !item.contains_key("gsi2pk"),
            "a hidden review leaves its drink's list"
        );
    }

    #[test]
    fn the_public_view_never_carries_the_email() {
        let public = serde_json::to_value(sample().public()).unwrap();
        let keys: Vec<&str> = public
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "Date",
                "_id",
                "comment",
                "createdAt",
                "fullname",
                "image",
                "products",
                "rating",
                "verified"
            ]
        );
        let admin = serde_json::to_value(sample().admin()).unwrap();
        assert_eq!(admin["email"], "layla@example.com");
        assert_eq!(admin["productName"], "Classic Cola");
        assert_eq!(admin["hidden"], false);
    }

    #[test]
    fn only_uuids_name_reviews() {
        assert!(is_review_id("0b6f2a4e-1c1d-4c4e-9a57-1f3a1d0e9b11"));
        assert!(!is_review_id("x1"));
        assert!(!is_review_id(&"a".repeat(3000)));
    }
}
