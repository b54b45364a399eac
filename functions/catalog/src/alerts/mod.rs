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
//!
//! Each handler is a short list of named steps: the request (`input`), the limits and times (`limits`), the
//! signed links (`links`), the mails (`mail`), the release once a drink is back (`release`) and the admin's
//! counts (`counts`). The alerts' keys, expressions and SDK calls are the catalog table's store's
//! (`crate::store::alerts`).

mod counts;
mod input;
mod limits;
mod links;
mod mail;
mod release;

pub use crate::store::alerts::alerts_of;
pub use counts::WaitingCount;
pub use input::{AlertRequest, ConfirmAlert, StopQuery};
pub use limits::{PENDING_HOURS, RATE_SCOPE, RESEND_AFTER_SECONDS};
pub use links::AlertLinks;
pub use mail::{AlertMail, CONFIRM_PAGE};
pub use release::release;

use crate::product::Product;
use crate::store::alerts::{self as alert_store, Transacted};
use crate::AppState;
use axum::extract::State;
use shared::auth::Admin;
use shared::extract::{Path, Query};
use shared::json::{Created, Message};
use shared::rate::SourceIp;
use shared::store::not_found;
use shared::validation::Email;
use shared::{ApiError, ApiResult, Json};

pub const ASKED: &str =
    "Check your inbox: confirm with the link we have e-mailed you, and we will e-mail \
                         you once when the drink is back in stock.";
pub const BAD_CONFIRM: &str =
    "This confirmation link has expired or was used already: ask for the alert again on the drink's page.";

/// `POST /api/product/notify/{id}`: asks the address to confirm waiting for a sold-out drink (201, the same
/// answer for every address; no second mail within the hour). 409 while the drink is in stock.
pub async fn sign_up(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Path(id): Path<String>,
    Json(body): Json<AlertRequest>,
) -> ApiResult<Created<Message>> {
    let email = Email::parse_normalised(&body.email)?;
    let email = email.as_str();
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
    let settings = mail::mail_settings(&state)?;
    let now = shared::time::now_unix();
    let (db, table) = (state.store.client(), state.store.table());
    let mut writes = limits::LIMITS
        .reserve(db, table, email, ip.as_deref(), now)
        .await?;
    let asked = Created(Message {
        message: ASKED.to_owned(),
    });
    // Waiting already, or a confirmation is on its way: nothing more is mailed.
    if alert_store::asked_already(db, table, &product.id, email, now, RESEND_AFTER_SECONDS).await? {
        alert_store::write(db, writes).await?;
        return Ok(asked);
    }
    let expires = now + PENDING_HOURS * 3600;
    writes.push(alert_store::pending_put(
        table,
        &product.id,
        email,
        now,
        expires,
    )?);
    let token = settings.links.confirm_token(email, &product.id, expires);
    let confirmation = mail::confirmation_mail(settings, &product, email, &token);
    let (mail_item, mail) = settings.outbox.put(&confirmation)?;
    writes.push(mail_item);
    alert_store::write(db, writes).await?;
    settings.outbox.enqueue(mail).await;
    Ok(asked)
}

/// `POST /api/product/notify/confirm/ {token}`: the confirmation page's button; the address now waits for
/// the drink (once). 400 for a forged, expired or used link; 409 once the drink is back in stock.
pub async fn confirm_alert(
    State(state): State<AppState>,
    Json(body): Json<ConfirmAlert>,
) -> ApiResult<Json<Message>> {
    let settings = mail::mail_settings(&state)?;
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
    let writes = alert_store::confirm_writes(state.store.table(), &product.id, &email, now)?;
    if let Transacted::Raced(_) = alert_store::transact(state.store.client(), writes).await? {
        return Err(refused());
    }
    Ok(Message::new(format!(
        "Done: we will e-mail you once when {} is back in stock.",
        product.name
    )))
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
    alert_store::stop_all(state.store.client(), state.store.table(), &email).await?;
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

/// `GET /api/product/alerts/` (admin): how many addresses wait for each drink that has any.
pub async fn waiting_counts(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<WaitingCount>>> {
    Ok(Json(counts::waiting_per_drink(&state).await?))
}
