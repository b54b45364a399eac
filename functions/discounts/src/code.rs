//! A discount code: its text is its id (`SUMMER10`), so codes are unique by construction and a shopper's
//! code is found with one read. Uses are counted by the orders function, inside the order's transaction,
//! through the writes `store` hands it.

use crate::AppState;
use axum::extract::State;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize, Serializer};
use shared::auth::Admin;
use shared::dynamo::{
    b, get_bool, get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item,
    ItemError,
};
use shared::extract::Path;
use shared::json::{Created, Message, NumberField};
use shared::money::{Pence, Percent};
use shared::store::{not_found, version_of, Entity};
use shared::text_schema::{text_or_blank, Lines};
use shared::validation::{bounded_lines, bounded_text, UploadName};
use shared::{ApiError, ApiResult, Json};
use time::{macros::format_description, Date, OffsetDateTime, Time};

#[derive(Debug, Clone, PartialEq)]
pub struct DiscountCode {
    pub code: String,
    /// The rate, 1 to 100 percent.
    pub discount: Percent,
    /// Uses so far (`emailCount`).
    pub uses: u32,
    /// Whether the code can be used now.
    pub open: bool,
    pub max_uses: Option<u32>,
    pub once_per_email: bool,
    /// Last day the code works (`YYYY-MM-DD`, UK shop: the day ends at midnight UTC).
    pub expires_on: Option<String>,
    pub name: String,
    pub des: String,
    pub image: Vec<String>,
    pub link: String,
    pub discount_price: Pence,
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
}

/// Upper case, letters, digits, `-` and `_`, 3 to 32 characters.
pub fn normalise_code(raw: &str) -> Result<String, ApiError> {
    let code = raw.trim().to_ascii_uppercase();
    let ok = (3..=32).contains(&code.len())
        && code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(code)
    } else {
        Err(ApiError::invalid(
            "code must be 3 to 32 letters, digits, - or _",
        ))
    }
}

fn end_of(day: &str) -> Option<i64> {
    let date = Date::parse(day, format_description!("[year]-[month]-[day]")).ok()?;
    Some(date.with_time(Time::MIDNIGHT).assume_utc().unix_timestamp() + 24 * 60 * 60)
}

impl DiscountCode {
    /// Why this code cannot be used at `now` (seconds), if it cannot.
    pub fn refusal(&self, now: i64) -> Option<&'static str> {
        if !self.open {
            Some("This code is not active")
        } else if self
            .expires_on
            .as_deref()
            .and_then(end_of)
            .is_some_and(|end| now >= end)
        {
            Some("This code has expired")
        } else if self.max_uses.is_some_and(|max| self.uses >= max) {
            Some("This code has been used up")
        } else {
            None
        }
    }
}

/// A discount code as the admin's list shows it; `_id` and `code` are the same text.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "DiscountCode")]
struct CodeJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    code: &'a str,
    discount: Percent,
    /// Uses so far.
    #[serde(rename = "emailCount")]
    uses: u32,
    open: bool,
    /// Uses allowed in all; null for no limit.
    #[serde(rename = "maxUses")]
    max_uses: Option<u32>,
    #[serde(rename = "oncePerEmail")]
    once_per_email: bool,
    /// The last day the code works (YYYY-MM-DD, the day ending at midnight UTC); null for no end.
    #[serde(rename = "expiresOn")]
    expires_on: Option<&'a str>,
    name: &'a str,
    des: &'a str,
    image: &'a [String],
    link: &'a str,
    #[serde(rename = "Discountprice")]
    discount_price: Pence,
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    #[serde(rename = "updatedAt")]
    updated_at: &'a str,
}

impl Serialize for DiscountCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CodeJson {
            id: &self.code,
            code: &self.code,
            discount: self.discount,
            uses: self.uses,
            open: self.open,
            max_uses: self.max_uses,
            once_per_email: self.once_per_email,
            expires_on: self.expires_on.as_deref(),
            name: &self.name,
            des: &self.des,
            image: &self.image,
            link: &self.link,
            discount_price: self.discount_price,
            created_at: &self.created_at,
            updated_at: &self.updated_at,
        }
        .serialize(serializer)
    }
}

impl JsonSchema for DiscountCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        CodeJson::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        CodeJson::json_schema(generator)
    }
}

impl Entity for DiscountCode {
    const KIND: &'static str = "CODE";
    const NOUN: &'static str = "discount code";

    fn id(&self) -> &str {
        &self.code
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        format!("{}#{}", self.created_at, self.code)
    }

    fn to_attributes(&self) -> Item {
        let mut item = Item::from([
            ("code".to_owned(), s(&self.code)),
            ("discount".to_owned(), n(self.discount.value())),
            ("uses".to_owned(), n(self.uses)),
            ("open".to_owned(), b(self.open)),
            ("oncePerEmail".to_owned(), b(self.once_per_email)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("image".to_owned(), string_list(&self.image)),
            ("link".to_owned(), s(&self.link)),
            (
                "discountPricePence".to_owned(),
                n(self.discount_price.pence()),
            ),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ]);
        if let Some(max) = self.max_uses {
            item.insert("maxUses".to_owned(), n(max));
        }
        if let Some(day) = &self.expires_on {
            item.insert("expiresOn".to_owned(), s(day));
            if let Some(end) = end_of(day) {
                item.insert("endsAt".to_owned(), n(end));
            }
        }
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let discount = Percent::new(get_n::<f64>(item, "discount")?)
            .map_err(|e| ItemError(format!("discount {e}")))?;
        let discount_price = Pence::new(get_n(item, "discountPricePence").unwrap_or(0))
            .map_err(|e| ItemError(format!("discountPricePence {e}")))?;
        Ok(DiscountCode {
            code: get_s(item, "code")?,
            discount,
            uses: get_n(item, "uses")?,
            open: get_bool(item, "open"),
            max_uses: get_n(item, "maxUses").ok(),
            once_per_email: get_bool(item, "oncePerEmail"),
            expires_on: Some(get_s_or_default(item, "expiresOn")).filter(|d| !d.is_empty()),
            name: get_s_or_default(item, "name"),
            des: get_s_or_default(item, "des"),
            image: get_string_list(item, "image"),
            link: get_s_or_default(item, "link"),
            discount_price,
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
        })
    }
}

/// The key of the marker that `email`'s mailbox has used `code` (for once-per-customer codes): the address
/// folded (`crate::mailbox::fold`), so `a.b+x@gmail.com` and `ab@gmail.com` share one marker.
pub fn use_marker(code: &str, email: &str) -> Item {
    marker_key(code, &crate::mailbox::fold(email))
}

/// The key a marker had before addresses were folded (the address as the order holds it), when it differs. Taking a mark
/// away takes this one too, so a use marked then is given back as well.
pub fn unfolded_marker(code: &str, email: &str) -> Option<Item> {
    (email != crate::mailbox::fold(email)).then(|| marker_key(code, email))
}

fn marker_key(code: &str, mailbox: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("CODEUSE#{code}#{mailbox}"))),
        ("sk".to_owned(), s("USE")),
    ])
}

/// The key of the marker that a card has used `code`: `fingerprint` is Stripe's for the card's number, the
/// same for every payment method made from it, so a new e-mail address with the same card is the same
/// customer. (An address always holds an `@`, a card's marker never does: the two cannot meet.)
pub fn card_marker(code: &str, fingerprint: &str) -> Item {
    marker_key(code, &format!("card#{fingerprint}"))
}

/// The marker itself, as the checkout writes it in its transaction: the key, the code and the order that
/// used it, tagged with the buyer's address so their export and erasure find it by that address whole.
pub fn use_mark(code: &str, email: &str, order_id: &str) -> Item {
    mark_at(use_marker(code, email), code, email, order_id)
}

/// The card's marker as the checkout writes it, tagged with the buyer's address like `use_mark`.
pub fn card_mark(code: &str, fingerprint: &str, email: &str, order_id: &str) -> Item {
    let mut mark = mark_at(card_marker(code, fingerprint), code, email, order_id);
    mark.insert("by".to_owned(), s("card"));
    mark
}

fn mark_at(mut mark: Item, code: &str, email: &str, order_id: &str) -> Item {
    mark.insert("code".to_owned(), s(code));
    mark.insert("orderId".to_owned(), s(order_id));
    shared::personal::tagged(mark, email)
}

/// What the admin sends to update a code: only what changes (create takes `NewCodeInput`). A field that
/// is absent or null is left as it is.
// `serde(default)` on the fields whose schema is written by hand tells the schema they are optional, as
// `Option` does for the others; it reads them no differently.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct CodeInput {
    /// The code's text; it cannot change, so on update it must be the code's own.
    #[serde(default)]
    #[schemars(schema_with = "nullable_code_text")]
    code: Option<String>,
    #[serde(default)]
    #[schemars(schema_with = "nullable_rate")]
    discount: Option<NumberField>,
    /// Whether the code can be used now.
    open: Option<bool>,
    /// Uses allowed in all, from 1 (no limit when never set).
    #[serde(
        rename = "maxUses",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(range(min = 1))]
    max_uses: Option<Option<u32>>,
    /// Whether one e-mail address may use the code only once.
    #[serde(rename = "oncePerEmail")]
    once_per_email: Option<bool>,
    /// The last day the code works (YYYY-MM-DD); empty text for no end.
    #[serde(
        rename = "expiresOn",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(schema_with = "last_day")]
    expires_on: Option<Option<String>>,
    #[schemars(regex(pattern = text_or_blank(Lines::One, 1, None)), length(max = 120))]
    name: Option<String>,
    #[schemars(regex(pattern = text_or_blank(Lines::Many, 1, None)), length(max = 2_000))]
    des: Option<String>,
    #[schemars(with = "Option<Vec<shared::validation::UploadName>>")]
    image: Option<Vec<String>>,
    #[schemars(regex(pattern = text_or_blank(Lines::One, 1, None)), length(max = 500))]
    link: Option<String>,
    #[serde(rename = "Discountprice")]
    #[serde(default)]
    #[schemars(schema_with = "nullable_pounds")]
    discount_price: Option<NumberField>,
}

/// What `normalise_code` accepts: 3 to 32 letters, digits, `-` or `_` (upper-cased), spaces around.
const CODE_PATTERN: &str = r"^\s*[A-Za-z0-9_-]{3,32}\s*$";

fn code_text(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "pattern": CODE_PATTERN,
        "description": "3 to 32 letters, digits, - or _; kept in upper case."
    })
}

fn nullable_code_text(generator: &mut SchemaGenerator) -> Schema {
    nullable(code_text(generator))
}

/// A whole percentage from 1 to 100, as a number or as its text.
fn rate(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The rate in percent: a whole number from 1 to 100, as a number or as text.",
        "anyOf": [
            { "type": "integer", "minimum": 1, "maximum": 100 },
            { "type": "string", "pattern": r"^\s*\+?0*([1-9][0-9]?|100)(\.0*)?\s*$" }
        ]
    })
}

fn nullable_rate(generator: &mut SchemaGenerator) -> Schema {
    nullable(rate(generator))
}

/// Pounds from 0 with at most two decimals (`Pence::from_pounds`), as a number or as its text.
fn nullable_pounds(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The promotion's price in pounds, at most two decimals, as a number or as text.",
        "anyOf": [
            { "type": "number", "minimum": 0, "maximum": 10_000_000, "multipleOf": 0.01 },
            { "type": "string", "pattern": r"^\s*\+?[0-9]{1,7}(\.[0-9]{0,2})?\s*$" },
            { "type": "null" }
        ]
    })
}

fn last_day(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "type": "string", "format": "date" },
            { "type": "string", "pattern": r"^\s*$" },
            { "type": "null" }
        ]
    })
}

fn nullable(schema: Schema) -> Schema {
    json_schema!({ "anyOf": [schema, { "type": "null" }] })
}

/// What the admin sends to create a code: `CodeInput`, with the code and its rate required.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct NewCodeInput(CodeInput);

impl JsonSchema for NewCodeInput {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NewCodeInput".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = CodeInput::json_schema(generator);
        schema.insert(
            "description".into(),
            "A new discount code: its text and rate are required, the rest as on update.".into(),
        );
        schema.insert("required".into(), serde_json::json!(["code", "discount"]));
        if let Some(properties) = schema
            .get_mut("properties")
            .and_then(serde_json::Value::as_object_mut)
        {
            properties.insert("code".into(), code_text(generator).to_value());
            properties.insert("discount".into(), rate(generator).to_value());
        }
        schema
    }
}

impl CodeInput {
    fn apply(self, mut code: DiscountCode) -> Result<DiscountCode, ApiError> {
        if let Some(rate) = &self.discount {
            let rate = rate.value("discount")?;
            if !(1.0..=100.0).contains(&rate) {
                return Err(ApiError::invalid("discount must be a rate from 1 to 100"));
            }
            code.discount =
                Percent::new(rate).map_err(|e| ApiError::invalid(format!("discount {e}")))?;
        }
        if let Some(open) = self.open {
            code.open = open;
        }
        if let Some(max) = self.max_uses {
            if max == Some(0) {
                return Err(ApiError::invalid(
                    "maxUses must be 1 or more (or null for no limit)",
                ));
            }
            code.max_uses = max;
        }
        if let Some(once) = self.once_per_email {
            code.once_per_email = once;
        }
        if let Some(day) = self.expires_on {
            let day = day.map(|d| d.trim().to_owned()).filter(|d| !d.is_empty());
            if let Some(day) = &day {
                if end_of(day).is_none() {
                    return Err(ApiError::invalid("expiresOn must be a date as YYYY-MM-DD"));
                }
            }
            code.expires_on = day;
        }
        if let Some(name) = &self.name {
            code.name = bounded_text("name", name, 120)?;
        }
        if let Some(des) = &self.des {
            code.des = bounded_lines("des", des, 2_000)?;
        }
        if let Some(images) = &self.image {
            code.image = UploadName::parse_all(images)?;
        }
        if let Some(link) = &self.link {
            code.link = bounded_text("link", link, 500)?;
        }
        if let Some(price) = &self.discount_price {
            code.discount_price = Pence::from_pounds(price.value("Discountprice")?)
                .map_err(|e| ApiError::invalid(format!("Discountprice {e}")))?;
        }
        Ok(code)
    }
}

/// Newest first.
pub async fn list_codes(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<DiscountCode>>> {
    let mut codes = state.store.list::<DiscountCode>().await?;
    codes.reverse();
    Ok(Json(codes))
}

pub async fn create_code(
    _: Admin,
    State(state): State<AppState>,
    Json(NewCodeInput(mut input)): Json<NewCodeInput>,
) -> ApiResult<Created<DiscountCode>> {
    let text = normalise_code(
        input
            .code
            .as_deref()
            .ok_or_else(|| ApiError::invalid("code is required"))?,
    )?;
    if input.discount.is_none() {
        return Err(ApiError::invalid("discount is required"));
    }
    input.code = None;
    let now = shared::time::now_iso();
    let blank = DiscountCode {
        code: text,
        discount: Percent::ZERO,
        uses: 0,
        open: true,
        max_uses: None,
        once_per_email: false,
        expires_on: None,
        name: String::new(),
        des: String::new(),
        image: Vec::new(),
        link: String::new(),
        discount_price: Pence::ZERO,
        created_at: now.clone(),
        updated_at: now,
        version: 1,
    };
    let code = input.apply(blank)?;
    state.store.insert(&code).await?;
    Ok(Created(code))
}

pub async fn update_code(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<CodeInput>,
) -> ApiResult<Json<DiscountCode>> {
    let id = normalise_code(&id).map_err(|_| not_found::<DiscountCode>())?;
    let stored = state
        .store
        .get::<DiscountCode>(&id)
        .await?
        .ok_or_else(not_found::<DiscountCode>)?;
    if let Some(text) = &input.code {
        if normalise_code(text)? != stored.code {
            return Err(ApiError::invalid(
                "The code text cannot change (uses are counted against it): delete it and create a new one",
            ));
        }
    }
    let mut code = input.apply(stored)?;
    code.updated_at = shared::time::now_iso();
    state.store.replace(&code).await?;
    code.version += 1;
    Ok(Json(code))
}

pub async fn delete_code(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let id = normalise_code(&id).map_err(|_| not_found::<DiscountCode>())?;
    // Into the bin for 30 days, its uses and limits kept, from which an admin can restore it.
    state
        .store
        .bin::<DiscountCode>(&id, |code| code.code.clone())
        .await?;
    Ok(Message::new("The discount code was deleted"))
}

/// GET /api/code/bin/: the codes deleted in the last 30 days, newest first.
pub async fn list_binned_codes(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<shared::recycle_bin::Entry>>> {
    Ok(Json(state.store.binned::<DiscountCode>().await?))
}

/// POST /api/code/restore/{id}: a deleted code back as it was; 409 if a new code took its text meanwhile.
pub async fn restore_code(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let not_binned = || ApiError::not_found("No discount code with this id is in the bin");
    let id = normalise_code(&id).map_err(|_| not_binned())?;
    let code = state.store.restore::<DiscountCode>(&id).await?;
    Ok(Message::new(format!("{} works again", code.code)))
}

#[derive(Deserialize, JsonSchema)]
pub struct CheckInput {
    /// The code as the shopper typed it (any text: one that is no code is answered `status: false`).
    code: String,
}

/// The answer to a code lookup: `status` true with the code and its rate, or false and why not.
#[derive(Serialize, JsonSchema)]
pub struct CodeCheck {
    status: bool,
    /// Only when `status` is true.
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<CheckedCode>,
    message: String,
}

#[derive(Serialize, JsonSchema)]
pub struct CheckedCode {
    code: String,
    discount: Percent,
}

/// The spec's customer code lookup: 200 with `status` true and the rate, or false and why.
pub async fn check_code(
    State(state): State<AppState>,
    Json(input): Json<CheckInput>,
) -> ApiResult<Json<CodeCheck>> {
    let refusal = |message: &str| {
        Json(CodeCheck {
            status: false,
            data: None,
            message: message.to_owned(),
        })
    };
    let Ok(text) = normalise_code(&input.code) else {
        return Ok(refusal("This code does not exist"));
    };
    let Some(code) = state.store.get::<DiscountCode>(&text).await? else {
        return Ok(refusal("This code does not exist"));
    };
    if let Some(why) = code.refusal(OffsetDateTime::now_utc().unix_timestamp()) {
        return Ok(refusal(why));
    }
    Ok(Json(CodeCheck {
        status: true,
        message: format!("{}% off your order", code.discount.value()),
        data: Some(CheckedCode {
            code: code.code,
            discount: code.discount,
        }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_upper_case_words() {
        assert_eq!(normalise_code(" summer10 ").unwrap(), "SUMMER10");
        for bad in ["ab", "has space", "x".repeat(33).as_str(), "é10"] {
            assert!(normalise_code(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_day_ends_at_midnight_utc() {
        // 2026-11-22 ends as 2026-11-23 begins.
        assert_eq!(end_of("2026-11-22"), Some(1_795_392_000));
        assert!(end_of("22/11/2026").is_none());
    }
}
