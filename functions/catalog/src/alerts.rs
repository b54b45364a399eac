//! Back-in-stock alerts, double opt-in as the newsletter is. A shopper leaves an address on a sold-out drink
//! (`POST /api/product/notify/{id}`, limited per address and per network like the other public forms): that
//! only records a pending alert (`sk = PENDING#{email}`, gone after `PENDING_HOURS`) and mails the address a
//! confirmation link; the link opens the storefront's page, whose button sends
//! `POST /api/product/notify/confirm/ {token}`, and only then does the address wait for the drink
//! (`sk = EMAIL#{email}`). The answer is the same for every address. When the drink has stock again (an
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
use shared::dynamo::{n, s, Item};
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

/// The index key (`gsi1pk`) every alert of one address carries, pending or confirmed: the address whole, so
/// the address's alerts are found by it exactly.
pub fn alerts_of(email: &str) -> String {
    format!("ALERTS-OF#{email}")
}
/// Alerts released in one transaction: each is two writes (the alert's delete, the mail's outbox item).
const BATCH: usize = 25;

/// Names the alert requests' windows (`ALERT-RATE#…`).
pub const RATE_SCOPE: &str = "ALERT";

const LIMITS: PerSender<'static> = PerSender {
    scope: RATE_SCOPE,
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

/// How long an alert's confirmation link works.
pub const PENDING_HOURS: i64 = 48;
/// A repeated sign-up for the same drink within this long mails no second confirmation.
pub const RESEND_AFTER_SECONDS: i64 = 3600;
/// The storefront's page a confirmation link opens.
pub const CONFIRM_PAGE: &str = "/confirm/alert";
pub const ASKED: &str =
    "Check your inbox: confirm with the link we have e-mailed you, and we will e-mail \
                         you once when the drink is back in stock.";
pub const BAD_CONFIRM: &str =
    "This confirmation link has expired or was used already: ask for the alert again on the drink's page.";

/// The stop links in alert mails: an HMAC over the address with a key derived from `MAIL_LINK_KEY`; and
/// the confirmation links, with a key of their own.
pub struct AlertLinks(LinkKey, LinkKey);

impl AlertLinks {
    pub fn new(secret: &[u8]) -> Self {
        AlertLinks(
            LinkKey::derive(secret, b"alert-links-v1"),
            LinkKey::derive(secret, b"alert-confirm-v1"),
        )
    }

    fn confirm_message(email: &str, product: &str, expires: i64) -> Vec<u8> {
        format!("{email}\n{product}\n{expires}").into_bytes()
    }

    /// `{address as hex}.{drink as hex}.{expires}.{signature}`.
    pub fn confirm_token(&self, email: &str, product: &str, expires: i64) -> String {
        format!(
            "{}.{}.{expires}.{}",
            hex(email.as_bytes()),
            hex(product.as_bytes()),
            self.1.sign(&Self::confirm_message(email, product, expires))
        )
    }

    /// The address and drink a genuine, unexpired confirmation token names.
    pub fn confirmed(&self, token: &str, now: i64) -> Option<(String, String)> {
        let mut parts = token.trim().split('.');
        let (email, product, expires, signature) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let email = String::from_utf8(unhex(email)?).ok()?;
        let product = String::from_utf8(unhex(product)?).ok()?;
        let expires: i64 = expires.parse().ok()?;
        (expires >= now
            && self
                .1
                .verifies(&Self::confirm_message(&email, &product, expires), signature))
        .then_some((email, product))
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

fn pending_key(product: &str, email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ALERT#{product}"))),
        ("sk".to_owned(), s(format!("PENDING#{email}"))),
    ])
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct AlertRequest {
    /// Where to send the one e-mail when the drink is back.
    #[schemars(regex(pattern = shared::validation::EMAIL_PATTERN))]
    email: String,
}

fn mail_settings(state: &AppState) -> Result<&crate::Alerts, ApiError> {
    state
        .alerts
        .as_deref()
        .ok_or_else(|| ApiError::internal("back-in-stock mail is not configured"))
}

/// `POST /api/product/notify/{id}`: asks the address to confirm waiting for a sold-out drink (201, the same
/// answer for every address; no second mail within the hour). 409 while the drink is in stock.
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
    let settings = mail_settings(&state)?;
    let now = shared::time::now_unix();
    let table = state.store.table();
    let db = state.store.client();
    let mut writes = LIMITS
        .reserve(db, table, email.as_str(), ip.as_deref(), now)
        .await?;
    let asked = Created(Message {
        message: ASKED.to_owned(),
    });
    let (waiting, earlier) = tokio::try_join!(
        db.get_item()
            .table_name(table)
            .set_key(Some(alert_key(&product.id, email.as_str())))
            .consistent_read(true)
            .send(),
        db.get_item()
            .table_name(table)
            .set_key(Some(pending_key(&product.id, email.as_str())))
            .consistent_read(true)
            .send(),
    )
    .map_err(ApiError::internal)?;
    let recently_sent = earlier.item().is_some_and(|item| {
        shared::dynamo::get_n::<i64>(item, "sentAt").is_ok_and(|at| now - at < RESEND_AFTER_SECONDS)
            && shared::dynamo::get_n::<i64>(item, "expiresAt").is_ok_and(|at| at > now)
    });
    // Waiting already, or a confirmation is on its way: nothing more is mailed.
    if waiting.item().is_some() || recently_sent {
        run(&state, writes).await?;
        return Ok(asked);
    }
    let expires = now + PENDING_HOURS * 3600;
    let mut item = pending_key(&product.id, email.as_str());
    item.extend([
        ("email".to_owned(), s(email.as_str())),
        ("gsi1pk".to_owned(), s(alerts_of(email.as_str()))),
        ("gsi1sk".to_owned(), s(format!("PENDING#{}", product.id))),
        ("createdAt".to_owned(), s(shared::time::now_iso())),
        ("sentAt".to_owned(), n(now)),
        // The table's TTL: an unconfirmed alert goes by itself.
        ("expiresAt".to_owned(), n(expires)),
    ]);
    writes.push(
        TransactWriteItem::builder()
            .put(
                aws_sdk_dynamodb::types::Put::builder()
                    .table_name(table)
                    .set_item(Some(item))
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build(),
    );
    let token = settings
        .links
        .confirm_token(email.as_str(), &product.id, expires);
    let (mail_item, mail) = settings.outbox.put(&confirmation_mail(
        settings,
        &product,
        email.as_str(),
        &token,
    ))?;
    writes.push(mail_item);
    run(&state, writes).await?;
    settings.outbox.enqueue(mail).await;
    Ok(asked)
}

async fn run(state: &AppState, writes: Vec<TransactWriteItem>) -> Result<(), ApiError> {
    state
        .store
        .client()
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map(drop)
        .map_err(shared::rate::busy_or_internal)
}

fn confirmation_mail(
    settings: &crate::Alerts,
    product: &Product,
    email: &str,
    token: &str,
) -> QueuedMail {
    let link = format!("{}{CONFIRM_PAGE}?token={token}", settings.site_url);
    let content = format!(
        "<p>Please confirm that you want one e-mail from {shop} when <strong>{name}</strong> ({pack}) is \
         back in stock:</p>\
         <p><a href=\"{link}\" style=\"font-weight:bold\">Yes, tell me when it is back</a></p>\
         <p style=\"font-size:13px\">The link works for {hours} hours. If you did not ask, ignore this \
         e-mail: you will not hear from us about it.</p>",
        shop = escape_html(&settings.shop_name),
        name = escape_html(&product.name),
        pack = escape_html(&product.qty),
        link = escape_html(&link),
        hours = PENDING_HOURS,
    );
    QueuedMail::new(Mail {
        to: email.to_owned(),
        subject: format!("Confirm your alert for {}", product.name),
        html: branded_html(&settings.shop_name, "Confirm your alert", &content),
        text: format!(
            "Please confirm that you want one e-mail from {} when {} ({}) is back in stock: {link}\n\nThe \
             link works for {PENDING_HOURS} hours. If you did not ask, ignore this e-mail: you will not hear \
             from us about it.\n",
            settings.shop_name, product.name, product.qty
        ),
        reply_to: None,
    })
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ConfirmAlert {
    /// The token of the confirmation link (`{address}.{drink}.{expires}.{signature}`).
    #[schemars(length(max = 1200))]
    token: String,
}

/// `POST /api/product/notify/confirm/ {token}`: the confirmation page's button; the address now waits for
/// the drink (once). 400 for a forged, expired or used link; 409 once the drink is back in stock.
pub async fn confirm_alert(
    State(state): State<AppState>,
    Json(body): Json<ConfirmAlert>,
) -> ApiResult<Json<Message>> {
    let settings = mail_settings(&state)?;
    let now = shared::time::now_unix();
    let refused = || ApiError::bad_request(BAD_CONFIRM);
    let (email, id) = settings
        .links
        .confirmed(&body.token, now)
        .ok_or_else(refused)?;
    let product = state.store.get::<Product>(&id).await?.ok_or_else(refused)?;
    if product.stock > 0 {
        return Err(ApiError::conflict(format!(
            "{} is back in stock already: you can order it now",
            product.name
        )));
    }
    let table = state.store.table();
    let mut item = alert_key(&product.id, &email);
    item.extend([
        ("email".to_owned(), s(&email)),
        ("gsi1pk".to_owned(), s(alerts_of(&email))),
        ("gsi1sk".to_owned(), s(&product.id)),
        ("createdAt".to_owned(), s(shared::time::now_iso())),
    ]);
    // The pending alert is used once; confirming an alert already waiting changes nothing.
    let taken = Delete::builder()
        .table_name(table)
        .set_key(Some(pending_key(&product.id, &email)))
        .condition_expression("attribute_exists(pk) AND expiresAt > :now")
        .expression_attribute_values(":now", n(now))
        .build()
        .map_err(ApiError::internal)?;
    let put = aws_sdk_dynamodb::types::Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    state
        .store
        .client()
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().delete(taken).build())
        .transact_items(TransactWriteItem::builder().put(put).build())
        .send()
        .await
        .map_err(|error| {
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception())
            {
                refused()
            } else {
                ApiError::internal(error)
            }
        })?;
    Ok(Message::new(format!(
        "Done: we will e-mail you once when {} is back in stock.",
        product.name
    )))
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
            .key_condition_expression("pk = :pk AND begins_with(sk, :waiting)")
            .expression_attribute_values(":pk", s(format!("ALERT#{product}")))
            .expression_attribute_values(":waiting", s("EMAIL#"))
            .consistent_read(true)
            .set_limit(limit)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        for item in page.items.unwrap_or_default() {
            let email = shared::personal::text(&item, "email").to_owned();
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

fn alert_mail(how: &AlertMail, product: &Product, email: &str) -> QueuedMail {
    let page = format!("{}/drinks/{}", how.site_url, product.id);
    let stop = format!(
        "{}/api/product/notify/stop/?token={}",
        how.site_url,
        how.links.token(email)
    );
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
        .expression_attribute_values(":me", s(alerts_of(&email)))
        .send()
        .await
        .map_err(ApiError::internal)?;
    for item in mine.items.unwrap_or_default() {
        shared::personal::delete_exact(db, table, shared::dynamo::key_of(&item)).await?;
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

    #[test]
    fn a_confirmation_token_names_its_address_and_drink_until_it_expires() {
        let links = AlertLinks::new(b"0123456789abcdef0123456789abcdef");
        let token = links.confirm_token("layla@example.com", "p.1", 1_000);
        assert_eq!(
            links.confirmed(&token, 999),
            Some(("layla@example.com".to_owned(), "p.1".to_owned()))
        );
        assert_eq!(links.confirmed(&token, 1_001), None, "expired");
        // A stop link's signature confirms nothing.
        let stop = links.token("layla@example.com");
        assert_eq!(links.confirmed(&stop, 0), None);
        let moved = token.replacen(
            &shared::signed::hex(b"p.1"),
            &shared::signed::hex(b"p.2"),
            1,
        );
        assert_eq!(links.confirmed(&moved, 999), None);
    }
}
