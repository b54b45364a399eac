//! A customer's data rights (UK GDPR arts. 15, 17 and 20). "Download my data" answers, as one JSON document,
//! everything the shop's tables hold that names the address. "Delete my account" is confirmed by a code
//! e-mailed to the address (so a stolen session alone cannot erase anyone), then: the profile, the login
//! records and the subscriptions go; reviews stay without the author; orders stay for the accounting period
//! without the person (totals and VAT kept); the address can log in again as a new customer with nothing.
//! An admin can make the same erasure for a request that came by e-mail. Each erasure leaves an audit entry
//! (who asked, when, how many items of each kind) that holds nothing of the erased person.

use crate::codes::new_code;
use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::{Admin, Customer};
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::erasure::{items_naming, readable, text};
use shared::extract::Path;
use shared::mail::{branded_html, Mail};
use shared::validation::Email;
use shared::{ApiError, ApiResult, Json};

/// How long an erasure code works, and how many wrong tries it takes.
const CODE_SECONDS: i64 = 15 * 60;
const MAX_TRIES: u32 = 5;

/// The other functions' tables the rights reach (each named in template.yaml for the auth function).
pub struct DataTables {
    pub orders: String,
    pub reviews: String,
    pub subscription: String,
    pub codes: String,
    pub content: String,
    pub mail: String,
    /// Back-in-stock alerts.
    pub catalog: String,
}

/// Everything the shop holds about one address, for the person to keep.
#[derive(Serialize, schemars::JsonSchema)]
pub struct DataExport {
    email: String,
    #[serde(rename = "exportedAt")]
    exported_at: String,
    /// The account as stored: name, phone, address, role, dates.
    profile: Option<serde_json::Value>,
    /// The login records held: the code waiting (never the code itself), tries, rate windows.
    #[serde(rename = "loginHistory")]
    login_history: Vec<serde_json::Value>,
    orders: Vec<serde_json::Value>,
    reviews: Vec<serde_json::Value>,
    subscriptions: Vec<serde_json::Value>,
    /// E-mails to the address the shop's outbox still holds.
    mail: Vec<serde_json::Value>,
    /// Anything else naming the address (limits' windows, codes' once-per-address marks, back-in-stock
    /// alerts).
    other: Vec<serde_json::Value>,
}

/// An item without what must not leave the shop even to its subject (a code's hash).
fn shown(item: &Item) -> serde_json::Value {
    let mut value = readable(item);
    if let Some(fields) = value.as_object_mut() {
        fields.remove("codeHash");
        fields.remove("tokenVersion");
    }
    value
}

/// `GET /api/user/export/`: the signed-in customer's data, as JSON.
pub async fn export_my_data(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<DataExport>> {
    let email = me.email.as_str();
    let db = state.db();
    let tables = &state.data_tables;
    let (users, orders, reviews, subscription, codes, content, mail, catalog) = tokio::try_join!(
        items_naming(db, state.table(), email),
        items_naming(db, &tables.orders, email),
        items_naming(db, &tables.reviews, email),
        items_naming(db, &tables.subscription, email),
        items_naming(db, &tables.codes, email),
        items_naming(db, &tables.content, email),
        items_naming(db, &tables.mail, email),
        items_naming(db, &tables.catalog, email),
    )?;
    let (profile, login): (Vec<&Item>, Vec<&Item>) = users
        .iter()
        .partition(|item| text(item, "pk").starts_with("USER#"));
    let (order_items, order_other): (Vec<&Item>, Vec<&Item>) =
        orders.iter().partition(|item| text(item, "sk") == "ORDER");
    let (review_items, review_other): (Vec<&Item>, Vec<&Item>) = reviews
        .iter()
        .partition(|item| text(item, "pk").starts_with("REVIEW#"));
    let (subscribers, subscription_other): (Vec<&Item>, Vec<&Item>) = subscription
        .iter()
        .partition(|item| text(item, "sk") == "SUBSCRIBER");
    let other = order_other
        .into_iter()
        .chain(review_other)
        .chain(subscription_other)
        .chain(codes.iter())
        .chain(content.iter())
        .chain(catalog.iter())
        .map(shown)
        .collect();
    Ok(Json(DataExport {
        email: email.to_owned(),
        exported_at: shared::time::now_iso(),
        profile: profile.first().map(|item| shown(item)),
        login_history: login.into_iter().map(shown).collect(),
        orders: order_items.into_iter().map(shown).collect(),
        reviews: review_items.into_iter().map(shown).collect(),
        subscriptions: subscribers.into_iter().map(shown).collect(),
        mail: mail.iter().map(shown).collect(),
        other,
    }))
}

/// How many items of each kind an erasure changed.
#[derive(Debug, Default, Clone, Serialize, schemars::JsonSchema, PartialEq)]
pub struct Erased {
    /// Orders kept for the accounts with the person taken out.
    orders: u32,
    /// Reviews kept without their author.
    reviews: u32,
    subscriptions: u32,
    /// Everything else deleted: the profile, login records, limits' windows, marks, queued mail.
    deleted: u32,
}

/// Takes the address out of every table. The profile goes last: until then the session still works, so an
/// erasure cut short can be asked again and finishes the rest.
pub async fn erase(state: &AppState, email: &str) -> Result<Erased, ApiError> {
    let db = state.db();
    let tables = &state.data_tables;
    let mut erased = Erased::default();
    for item in items_naming(db, &tables.orders, email).await? {
        match orders::erasure::erase(db, &tables.orders, &item).await? {
            orders::erasure::Erased::Anonymised => erased.orders += 1,
            orders::erasure::Erased::Deleted => erased.deleted += 1,
        }
    }
    for item in items_naming(db, &tables.reviews, email).await? {
        if reviews::erasure::erase(db, &tables.reviews, &item).await? {
            erased.reviews += 1;
        } else {
            erased.deleted += 1;
        }
    }
    for item in items_naming(db, &tables.subscription, email).await? {
        subscription::erase(db, &tables.subscription, &item).await?;
        if text(&item, "sk") == "SUBSCRIBER" {
            erased.subscriptions += 1;
        } else {
            erased.deleted += 1;
        }
    }
    for table in [
        &tables.codes,
        &tables.content,
        &tables.mail,
        &tables.catalog,
    ] {
        for item in items_naming(db, table, email).await? {
            shared::erasure::delete(db, table, &item).await?;
            erased.deleted += 1;
        }
    }
    let mut users = items_naming(db, state.table(), email).await?;
    // The user record last of all.
    users.sort_by_key(|item| text(item, "pk").starts_with("USER#"));
    for item in users {
        shared::erasure::delete(db, state.table(), &item).await?;
        erased.deleted += 1;
    }
    Ok(erased)
}

/// The audit entry of an erasure: who asked (the customer, or the admin by name), when, and how much
/// changed; never the erased address.
async fn audit(state: &AppState, by: &str, erased: &Erased) -> Result<(), ApiError> {
    let now = shared::time::now_iso();
    let item = Item::from([
        ("pk".to_owned(), s("AUDIT#ERASURE")),
        (
            "sk".to_owned(),
            s(format!("{now}#{}", shared::store::new_id())),
        ),
        ("at".to_owned(), s(&now)),
        ("by".to_owned(), s(by)),
        ("orders".to_owned(), n(erased.orders)),
        ("reviews".to_owned(), n(erased.reviews)),
        ("subscriptions".to_owned(), n(erased.subscriptions)),
        ("deleted".to_owned(), n(erased.deleted)),
    ]);
    state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(item))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

fn erase_code_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ERASE#{email}"))),
        ("sk".to_owned(), s("CODE")),
    ])
}

fn erase_mail(shop: &str, email: &str, code: &str) -> Mail {
    let content = format!(
        "<p>Someone signed in to your {shop} account asked to delete it. To confirm, enter this code:</p>\
         <p style=\"font-size:32px;font-weight:bold;letter-spacing:6px;margin:16px 0\">{code}</p>\
         <p>It works for 15 minutes. Deleting removes your profile and subscriptions and takes your name out \
         of your orders and reviews; it cannot be undone. If you did not ask, ignore this e-mail and nothing \
         happens.</p>",
        shop = shared::mail::escape_html(shop)
    );
    Mail {
        to: email.to_owned(),
        subject: format!("Confirm deleting your {shop} account"),
        html: branded_html(shop, "Delete your account", &content),
        text: format!(
            "Someone signed in to your {shop} account asked to delete it. To confirm, enter this code: \
             {code}\n\nIt works for 15 minutes. Deleting removes your profile and subscriptions and takes \
             your name out of your orders and reviews; it cannot be undone. If you did not ask, ignore this \
             e-mail and nothing happens.\n"
        ),
        reply_to: None,
    }
}

/// `POST /api/user/erase/request/`: e-mails a code that confirms deleting the signed-in account.
pub async fn request_erasure(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<shared::json::Message>> {
    let email = me.email.as_str();
    let now = shared::time::now_unix();
    // One request a minute: a code is not re-sent faster than a person can read the last one.
    let code = new_code()?;
    let mut item = erase_code_key(email);
    item.extend([
        ("codeHash".to_owned(), s(state.codes.tag(email, &code))),
        ("tries".to_owned(), n(0)),
        ("expiresAt".to_owned(), n(now + CODE_SECONDS)),
        ("sentAt".to_owned(), n(now)),
    ]);
    let written = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk) OR sentAt < :recent")
        .expression_attribute_values(":recent", n(now - 60))
        .send()
        .await;
    match written {
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(ApiError::too_many_requests(
                "A code was sent a moment ago: check your inbox",
            ))
        }
        other => {
            other.map_err(ApiError::internal)?;
        }
    }
    state
        .send_within_budget(erase_mail(&state.shop_name, email, &code))
        .await?;
    Ok(shared::json::Message::new(
        "We have e-mailed you a code: enter it to delete your account.",
    ))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct EraseConfirm {
    /// The 6 digits from the e-mail.
    #[schemars(regex(pattern = r"^\s*[0-9]{6}\s*$"))]
    code: String,
}

/// What an erasure answers.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErasureDone {
    message: String,
    erased: Erased,
}

/// `POST /api/user/erase/confirm/`: with the right code, erases the signed-in account (its session ends with
/// it). The try is counted before the comparison, atomically, as a login code's is.
pub async fn confirm_erasure(
    Customer(me): Customer,
    State(state): State<AppState>,
    Json(body): Json<EraseConfirm>,
) -> ApiResult<Json<ErasureDone>> {
    let email = me.email.as_str();
    let code = body.code.trim();
    if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(ApiError::invalid(
            "code must be the 6 digits from the e-mail",
        ));
    }
    let now = shared::time::now_unix();
    let counted = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(erase_code_key(email)))
        .update_expression("ADD tries :one")
        .condition_expression("attribute_exists(codeHash) AND tries < :max AND expiresAt > :now")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":max", n(MAX_TRIES))
        .expression_attribute_values(":now", n(now))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
        .send()
        .await;
    let item = match counted {
        Ok(output) => output.attributes.unwrap_or_default(),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(ApiError::bad_request(
                "This code is wrong or has expired: ask for a new one",
            ))
        }
        Err(error) => return Err(ApiError::internal(error)),
    };
    let stored = get_s(&item, "codeHash")?;
    if !state.codes.matches(email, code, &stored) {
        let tries: u32 = get_n(&item, "tries")?;
        return Err(ApiError::bad_request(format!(
            "That code is wrong: {} tries left",
            MAX_TRIES.saturating_sub(tries)
        )));
    }
    let erased = erase(&state, email).await?;
    audit(&state, "the customer", &erased).await?;
    Ok(Json(ErasureDone {
        message: "Your account is deleted. Thank you for shopping with us.".to_owned(),
        erased,
    }))
}

/// `POST /api/user/erasure/{email}` (admin): the same erasure, for a request the shop received by e-mail.
pub async fn admin_erasure(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> ApiResult<Json<ErasureDone>> {
    let email = Email::parse_normalised(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid(
            "You cannot erase your own account here: ask another admin",
        ));
    }
    let erased = erase(&state, email.as_str()).await?;
    audit(&state, &format!("admin {}", me.email), &erased).await?;
    Ok(Json(ErasureDone {
        message: "Everything the shop held about this address is erased.".to_owned(),
        erased,
    }))
}

/// One erasure as the audit keeps it.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErasureEntry {
    at: String,
    by: String,
    erased: Erased,
}

/// `GET /api/user/erasures/` (admin): the erasures made, newest first.
pub async fn list_erasures(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<ErasureEntry>>> {
    let output = state
        .db()
        .query()
        .table_name(state.table())
        .key_condition_expression("pk = :audit")
        .expression_attribute_values(":audit", s("AUDIT#ERASURE"))
        .scan_index_forward(false)
        .limit(200)
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(
        output
            .items
            .unwrap_or_default()
            .iter()
            .map(|item| ErasureEntry {
                at: text(item, "at").to_owned(),
                by: text(item, "by").to_owned(),
                erased: Erased {
                    orders: get_n(item, "orders").unwrap_or(0),
                    reviews: get_n(item, "reviews").unwrap_or(0),
                    subscriptions: get_n(item, "subscriptions").unwrap_or(0),
                    deleted: get_n(item, "deleted").unwrap_or(0),
                },
            })
            .collect(),
    ))
}
