//! Back-in-stock alerts. A shopper leaves an address on a sold-out drink (`POST /api/product/notify/{id}`,
//! limited per address and per network like the other public forms); when the drink has stock again (an
//! admin's edit, or stock given back by a cancelled or expired order) each waiting address gets one e-mail
//! through the mail queue and the list is cleared: each alert's delete and its mail's outbox item are one
//! transaction, so two releases at once mail nobody twice. The mail's stop link (signed, so only the address
//! itself can use it) removes that address's other waiting alerts.

use crate::product::Product;
use crate::AppState;
use aws_sdk_dynamodb::types::{Delete, TransactWriteItem};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::dynamo::{s, Item};
use shared::extract::{Path, Query};
use shared::json::{Created, Message};
use shared::mail::{branded_html, escape_html, Mail};
use shared::outbox::{Outbox, Pending, QueuedMail};
use shared::rate::{PerSender, SourceIp, Window};
use shared::signed::{hex, unhex, LinkKey};
use shared::store::{not_found, Entity};
use shared::validation::Email;
use shared::{ApiError, ApiResult, Json};

const HOUR: i64 = 3600;
/// Alerts released in one transaction: each is two writes (the alert's delete, the mail's outbox item).
const BATCH: usize = 25;

const LIMITS: PerSender<'static> = PerSender {
    scope: "ALERT",
    per_email: Window {
        limit: 5,
        seconds: HOUR,
    },
    per_email_refusal: "This address asked for several alerts already",
    per_ip: Window {
        limit: 30,
        seconds: HOUR,
    },
    per_ip_refusal: "Many alerts were asked from your network in the last hour",
};

/// The stop links in alert mails: an HMAC over the address with a key derived from `MAIL_LINK_KEY`.
pub struct AlertLinks(LinkKey);

impl AlertLinks {
    pub fn new(secret: &[u8]) -> Self {
        AlertLinks(LinkKey::derive(secret, b"alert-links-v1"))
    }

    /// `{address as hex}.{signature}`.
    pub fn token(&self, email: &str) -> String {
        format!(
            "{}.{}",
            hex(email.as_bytes()),
            self.0.sign(email.as_bytes())
        )
    }

    /// The address a genuine token names.
    pub fn verify(&self, token: &str) -> Option<String> {
        let (address, signature) = token.trim().split_once('.')?;
        let email = String::from_utf8(unhex(address)?).ok()?;
        self.0
            .verifies(email.as_bytes(), signature)
            .then_some(email)
    }
}

fn alert_key(product: &str, email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ALERT#{product}"))),
        ("sk".to_owned(), s(format!("EMAIL#{email}"))),
    ])
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct AlertRequest {
    /// Where to send the one e-mail when the drink is back.
    #[schemars(regex(pattern = shared::validation::EMAIL_PATTERN))]
    email: String,
}

/// `POST /api/product/notify/{id}`: waits for a sold-out drink. 409 while it is in stock.
pub async fn sign_up(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Path(id): Path<String>,
    Json(body): Json<AlertRequest>,
) -> ApiResult<Created<Message>> {
    let email = Email::parse_normalised(&body.email)?;
    let product = state
        .store
        .get::<Product>(&id)
        .await?
        .ok_or_else(not_found::<Product>)?;
    if product.stock > 0 {
        return Err(ApiError::conflict(format!(
            "{} is in stock: you can order it now",
            product.name
        )));
    }
    let now = shared::time::now_unix();
    let table = state.store.table();
    let mut writes = LIMITS
        .reserve(
            state.store.client(),
            table,
            email.as_str(),
            ip.as_deref(),
            now,
        )
        .await?;
    let mut item = alert_key(&product.id, email.as_str());
    item.extend([
        ("email".to_owned(), s(email.as_str())),
        (
            "gsi1pk".to_owned(),
            s(format!("ALERTS-OF#{}", email.as_str())),
        ),
        ("gsi1sk".to_owned(), s(&product.id)),
        ("createdAt".to_owned(), s(shared::time::now_iso())),
    ]);
    // An address already waiting for this drink is not mailed again: the put's condition says so.
    let alert_at = writes.len();
    writes.push(
        TransactWriteItem::builder()
            .put(
                aws_sdk_dynamodb::types::Put::builder()
                    .table_name(table)
                    .set_item(Some(item))
                    .condition_expression("attribute_not_exists(pk)")
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build(),
    );
    // The confirmation is written with the alert, so it exists exactly when the alert does.
    let mut confirmation = None;
    if let Some(alerts) = &state.alerts {
        let how = AlertMail {
            shop: &alerts.shop_name,
            site_url: &alerts.site_url,
            links: &alerts.links,
        };
        let (put, pending) =
            alerts
                .outbox
                .put(&confirmation_mail(&how, &product, email.as_str()))?;
        writes.push(put);
        confirmation = Some((alerts, pending));
    }
    let written = state
        .store
        .client()
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await;
    if let Err(error) = written {
        let already_waiting = error
            .as_service_error()
            .and_then(|e| match e {
                aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(
                    cancelled,
                ) => cancelled.cancellation_reasons().get(alert_at),
                _ => None,
            })
            .is_some_and(|reason| reason.code() == Some("ConditionalCheckFailed"));
        if already_waiting {
            return Ok(Created(Message {
                message: format!(
                    "This address is already on the list for {}: we will e-mail it once when it is back in stock.",
                    product.name
                ),
            }));
        }
        return Err(shared::rate::busy_or_internal(error));
    }
    if let Some((alerts, pending)) = confirmation {
        alerts.outbox.enqueue(pending).await;
    }
    Ok(Created(Message {
        message: format!(
            "We will e-mail you once when {} is back in stock. A confirmation is on its way to {}.",
            product.name,
            email.as_str()
        ),
    }))
}

/// One alert waiting.
struct Waiting {
    key: Item,
    email: String,
}

async fn waiting(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    product: &str,
    limit: Option<i32>,
) -> Result<Vec<Waiting>, ApiError> {
    let mut found = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .query()
            .table_name(table)
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(":pk", s(format!("ALERT#{product}")))
            .consistent_read(true)
            .set_limit(limit)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        for item in page.items.unwrap_or_default() {
            let email = shared::erasure::text(&item, "email").to_owned();
            found.push(Waiting {
                key: alert_key(product, &email),
                email,
            });
        }
        start = page.last_evaluated_key;
        if start.is_none() || limit.is_some() {
            return Ok(found);
        }
    }
}

/// Where an alert mail's links lead.
pub struct AlertMail<'a> {
    pub shop: &'a str,
    pub site_url: &'a str,
    pub links: &'a AlertLinks,
}

impl AlertMail<'_> {
    /// The drink's page and the address's signed stop link, as every alert mail carries them.
    fn links(&self, product: &Product, email: &str) -> (String, String) {
        (
            format!("{}/drinks/{}", self.site_url, product.id),
            format!(
                "{}/api/product/notify/stop/?token={}",
                self.site_url,
                self.links.token(email)
            ),
        )
    }
}

/// The answer to "Notify me", in the shopper's inbox: what they asked for and how to take it back.
fn confirmation_mail(how: &AlertMail, product: &Product, email: &str) -> QueuedMail {
    let (page, stop) = how.links(product, email);
    let content = format!(
        "<p>You asked us to tell you when <strong>{name}</strong> ({pack}) is back in stock. We will send \
         one e-mail when it is, and then take this address off the drink's list.</p>\
         <p><a href=\"{page}\">See the drink</a></p>\
         <p>Changed your mind? <a href=\"{stop}\">Stop my back-in-stock alerts</a>.</p>",
        name = escape_html(&product.name),
        pack = escape_html(&product.qty),
        page = escape_html(&page),
        stop = escape_html(&stop),
    );
    QueuedMail::new(Mail {
        to: email.to_owned(),
        subject: format!("We will tell you when {} is back", product.name),
        html: branded_html(how.shop, "Back-in-stock alert", &content),
        text: format!(
            "You asked us to tell you when {} ({}) is back in stock. We will send one e-mail when it is, \
             and then take this address off the drink's list.\n\nSee the drink: {page}\n\nChanged your \
             mind? Stop my back-in-stock alerts: {stop}\n",
            product.name, product.qty
        ),
        reply_to: None,
    })
    .with_header("List-Unsubscribe", format!("<{stop}>"))
    .with_header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
}

fn alert_mail(how: &AlertMail, product: &Product, email: &str) -> QueuedMail {
    let (page, stop) = how.links(product, email);
    let content = format!(
        "<p>Good news: <strong>{name}</strong> ({pack}) is back in stock.</p>\
         <p><a href=\"{page}\">See it in the shop</a></p>\
         <p>You asked us to tell you once, so you are off this drink's list now. \
         <a href=\"{stop}\">Stop my other back-in-stock alerts</a>.</p>",
        name = escape_html(&product.name),
        pack = escape_html(&product.qty),
        page = escape_html(&page),
        stop = escape_html(&stop),
    );
    QueuedMail::new(Mail {
        to: email.to_owned(),
        subject: format!("{} is back in stock", product.name),
        html: branded_html(how.shop, "Back in stock", &content),
        text: format!(
            "Good news: {} ({}) is back in stock.\n\nSee it in the shop: {page}\n\nYou asked us to tell you \
             once, so you are off this drink's list now. Stop my other back-in-stock alerts: {stop}\n",
            product.name, product.qty
        ),
        reply_to: None,
    })
    .with_header("List-Unsubscribe", format!("<{stop}>"))
    .with_header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
}

/// When drink `id` has stock, mails every address waiting for it, once, and clears them. Called after any
/// write that can give a drink stock back (an admin's edit, a cancelled or expired order). The count mailed.
pub async fn release(
    db: &aws_sdk_dynamodb::Client,
    catalog_table: &str,
    outbox: &Outbox,
    how: &AlertMail<'_>,
    id: &str,
) -> Result<usize, ApiError> {
    let store = shared::store::Store::new(db.clone(), catalog_table.to_owned());
    let Some(product) = store.get::<Product>(id).await? else {
        return Ok(0);
    };
    if product.stock == 0 {
        return Ok(0);
    }
    let mut sent = 0;
    // A batch refused because another release took some of its alerts is read again; one refused over
    // and over is not a race, and is answered as the error it is.
    let mut refused = 0;
    loop {
        let batch = waiting(db, catalog_table, id, Some(BATCH as i32)).await?;
        if batch.is_empty() {
            return Ok(sent);
        }
        let mut items = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        for alert in &batch {
            let (put, handle) = outbox.put(&alert_mail(how, &product, &alert.email))?;
            let delete = Delete::builder()
                .table_name(catalog_table)
                .set_key(Some(alert.key.clone()))
                .condition_expression("attribute_exists(pk)")
                .build()
                .map_err(ApiError::internal)?;
            items.push(TransactWriteItem::builder().delete(delete).build());
            items.push(put);
            pending.push(handle);
        }
        match db
            .transact_write_items()
            .set_transact_items(Some(items))
            .send()
            .await
        {
            Ok(_) => {
                refused = 0;
                sent += pending.len();
                for mail in pending {
                    outbox.enqueue(mail).await;
                }
            }
            // Another release took some of these meanwhile: they are its to mail; read again.
            Err(error)
                if refused < 5
                    && error
                        .as_service_error()
                        .is_some_and(|e| e.is_transaction_canceled_exception()) =>
            {
                refused += 1;
            }
            Err(error) => return Err(ApiError::internal(error)),
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct StopQuery {
    /// The token of the link in the alert e-mail; a made-up one is refused.
    #[schemars(required, regex(pattern = r"^[0-9a-f]{2,600}\.[0-9a-f]{64}$"))]
    token: Option<String>,
}

/// `GET /api/product/notify/stop/?token=…` (and `POST`, for one-click clients): removes the address's other
/// waiting alerts. A forged token is a 400 and removes nothing.
pub async fn stop(
    State(state): State<AppState>,
    Query(query): Query<StopQuery>,
) -> ApiResult<Json<Message>> {
    let Some(email) = state.alerts.as_ref().and_then(|alerts| {
        query
            .token
            .as_deref()
            .and_then(|token| alerts.links.verify(token))
    }) else {
        return Err(ApiError::bad_request(
            "This link is not valid: use the link in the e-mail as it is",
        ));
    };
    let db = state.store.client();
    let table = state.store.table();
    let mine = db
        .query()
        .table_name(table)
        .index_name("gsi1")
        .key_condition_expression("gsi1pk = :me")
        .expression_attribute_values(":me", s(format!("ALERTS-OF#{email}")))
        .send()
        .await
        .map_err(ApiError::internal)?;
    for item in mine.items.unwrap_or_default() {
        shared::erasure::delete(db, table, &item).await?;
    }
    Ok(Message::new(
        "Done: we will not send you back-in-stock e-mails for the drinks you were waiting for.",
    ))
}

/// `POST /api/product/notify/stop/?token=…`: the same, as mail clients post it in one click (RFC 8058).
pub async fn stop_one_click(
    state: State<AppState>,
    query: Query<StopQuery>,
) -> ApiResult<Json<Message>> {
    stop(state, query).await
}

/// How many addresses wait for a drink.
#[derive(Serialize, schemars::JsonSchema)]
pub struct WaitingCount {
    #[serde(rename = "_id")]
    product: String,
    waiting: usize,
}

/// `GET /api/product/alerts/` (admin): how many addresses wait for each drink that has any.
pub async fn waiting_counts(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<WaitingCount>>> {
    let mut counts = Vec::new();
    for product in state.store.list::<Product>().await? {
        let waiting = waiting(
            state.store.client(),
            state.store.table(),
            product.id(),
            None,
        )
        .await?
        .len();
        if waiting > 0 {
            counts.push(WaitingCount {
                product: product.id,
                waiting,
            });
        }
    }
    Ok(Json(counts))
}

#[cfg(test)]
mod tests {
    use super::AlertLinks;

    #[test]
    fn a_stop_token_names_its_address_and_cannot_be_made_for_another() {
        let links = AlertLinks::new(b"0123456789abcdef0123456789abcdef");
        let token = links.token("layla@example.com");
        assert_eq!(links.verify(&token).as_deref(), Some("layla@example.com"));
        let (_, signature) = token.split_once('.').unwrap();
        let forged = format!("{}.{signature}", shared::signed::hex(b"omar@example.com"));
        assert_eq!(links.verify(&forged), None);
        assert_eq!(links.verify("zz.zz"), None);
    }
}
