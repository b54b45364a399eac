//! Stripe's webhook. Only a request signed with the shop's webhook secret, within five minutes of its
//! timestamp, is read (HMAC-SHA256 over `"{t}.{raw body}"`, compared in constant time); anything else is 400
//! and changes nothing. Each event moves its order with the same conditional writes as the checkout and
//! the confirm call, and records its id, so a redelivered event changes nothing. Events may come late, twice
//! or out of order: a refund's event for an order whose payment has not been seen yet settles the payment
//! first, and a refund is recorded once by its own id whichever event brings it.

use crate::checkout::{find_order, order_of_intent};
use crate::holds::{self, Change};
use crate::late_refund;
use crate::money::HoldKind;
use crate::order::{Order, Status};
use crate::payment::{mark_paid, matches_order, record_event, release, Moved};
use crate::stripe::IntentStatus;
use crate::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use http::HeaderMap;
use serde::Deserialize;
use shared::{ApiError, ApiResult, Json};

/// How old a signature may be (Stripe's own libraries use the same).
pub const TOLERANCE_SECONDS: i64 = 300;
/// Larger bodies are not Stripe's events.
const MAX_EVENT_BYTES: usize = 256 * 1024;

/// Checks `Stripe-Signature: t=...,v1=...` against the raw body.
pub fn verify(header: Option<&str>, body: &[u8], secret: &str, now: i64) -> Result<(), ApiError> {
    // Anyone can sign with an empty key: a state built without the secret (the expiry job's) takes no events.
    if secret.is_empty() {
        return Err(ApiError::internal(
            "no Stripe webhook secret is configured here",
        ));
    }
    let header = header.ok_or_else(|| ApiError::bad_request("Stripe-Signature is missing"))?;
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => signatures.push(value),
            _ => {}
        }
    }
    let timestamp =
        timestamp.ok_or_else(|| ApiError::bad_request("Stripe-Signature has no timestamp"))?;
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(ApiError::bad_request(
            "Stripe-Signature is too old or from the future",
        ));
    }
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
    let mut signed = timestamp.to_string().into_bytes();
    signed.push(b'.');
    signed.extend_from_slice(body);
    let matches = signatures.iter().any(|hex| {
        decode_hex(hex).is_some_and(|tag| ring::hmac::verify(&key, &signed, &tag).is_ok())
    });
    if !matches {
        return Err(ApiError::bad_request("Stripe-Signature does not match"));
    }
    Ok(())
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The signature Stripe would send for `body` at `timestamp`: for tests and the local tools.
pub fn sign(body: &[u8], secret: &str, timestamp: i64) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
    let mut signed = timestamp.to_string().into_bytes();
    signed.push(b'.');
    signed.extend_from_slice(body);
    let tag = ring::hmac::sign(&key, &signed);
    let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    format!("t={timestamp},v1={hex}")
}

/// The request's body as sent: the signature is over these exact bytes, so nothing reads it as JSON first.
pub struct RawEvent(Bytes);

impl<S: Send + Sync> FromRequest<S> for RawEvent {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        Bytes::from_request(request, state)
            .await
            .map(RawEvent)
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))
    }
}

/// Any JSON object: only a body whose signature matches is read (as `Event`), anything else is 400.
impl shared::openapi::DocumentArg for RawEvent {
    fn document(doc: &mut shared::openapi::Doc) {
        doc.body = Some(shared::openapi::BodyDoc {
            media: "application/json",
            schema: shared::openapi::schema::<StripeEvent>,
        });
        doc.errors.extend([400, 413]);
    }
}

/// A Stripe event as Stripe sends it (`id`, `type`, `data.object`), in the document.
struct StripeEvent;

impl schemars::JsonSchema for StripeEvent {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StripeEvent".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "description": "An event as Stripe sends it (id, type, data.object); read only when Stripe-Signature matches it."
        })
    }
}

#[derive(Deserialize)]
struct Event {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Deserialize)]
struct EventData {
    object: serde_json::Value,
}

/// What the webhook did, for Stripe's dashboard and the tests.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Handled {
    received: bool,
    /// E.g. "paid", "released", "refunded", "ignored", "repeated event", "no such order".
    outcome: &'static str,
}

fn handled(outcome: &'static str) -> Json<Handled> {
    Json(Handled {
        received: true,
        outcome,
    })
}

fn outcome(moved: Moved, done: &'static str) -> &'static str {
    match moved {
        Moved::Now => done,
        Moved::Already => "already handled",
        Moved::RepeatedEvent => "repeated event",
    }
}

pub async fn receive_stripe_event(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawEvent(body): RawEvent,
) -> ApiResult<Json<Handled>> {
    if body.len() > MAX_EVENT_BYTES {
        return Err(ApiError::new(
            http::StatusCode::PAYLOAD_TOO_LARGE,
            "The event is too large",
        ));
    }
    verify(
        headers
            .get("stripe-signature")
            .and_then(|v| v.to_str().ok()),
        &body,
        &state.webhook_secret,
        shared::time::now_unix(),
    )?;
    let event: Event = shared::json::parse(&body)?;
    if event.id.is_empty() || event.id.len() > 255 {
        return Err(ApiError::bad_request("The event has no usable id"));
    }
    let object = &event.data.object;
    let text = |value: &serde_json::Value| value.as_str().unwrap_or_default().to_owned();
    let (intent_id, order_id) = match event.kind.as_str() {
        "payment_intent.succeeded"
        | "payment_intent.payment_failed"
        | "payment_intent.canceled" => (text(&object["id"]), text(&object["metadata"]["order_id"])),
        "charge.refunded" | "refund.created" | "refund.updated" | "refund.failed" => (
            text(&object["payment_intent"]),
            text(&object["metadata"]["order_id"]),
        ),
        "charge.dispute.created"
        | "charge.dispute.closed"
        | "radar.early_fraud_warning.created" => {
            (intent_of_charge_event(&state, object).await?, String::new())
        }
        _ => return Ok(handled("ignored")),
    };
    let order_id = match order_id.is_empty() {
        false => Some(order_id),
        // A charge's and a refund's metadata are their own: find the order through its PaymentIntent.
        true => order_of_intent(&state, &intent_id).await?,
    };
    let order = match order_id {
        Some(id) => find_order(&state, &id).await?,
        None => None,
    };
    // Only an order whose own PaymentIntent this is: a refund's metadata may not carry the order id.
    let Some(order) = order.filter(|o| !intent_id.is_empty() && o.payment_intent == intent_id)
    else {
        record_event(&state, &event.id).await?;
        return Ok(handled("no such order"));
    };
    let done = match (event.kind.as_str(), order.status) {
        ("payment_intent.succeeded", Status::Pending) => {
            let (amount, currency) = paid_amount(&state, object).await?;
            if matches_order(amount, &currency, &order) {
                outcome(mark_paid(&state, &order, Some(&event.id)).await?, "paid")
            } else {
                tracing::error!(
                    order = %order.id, amount, currency = ?object["currency"], total = order.total.pence(),
                    "PAYMENT-MISMATCH: a payment that is not for the order's total in GBP: released and refunded"
                );
                release(&state, &order, Status::Expired, Some(&event.id)).await?;
                refund_late(&state, &order, amount, None).await?
            }
        }
        ("payment_intent.succeeded", Status::Expired | Status::Cancelled) => {
            // The bank took the money after the shop gave the reservation back: return it at once.
            tracing::warn!(order = %order.id, "payment arrived after the order was released: refunding");
            let (amount, _) = paid_amount(&state, object).await?;
            refund_late(&state, &order, amount, Some(&event.id)).await?
        }
        ("payment_intent.payment_failed" | "payment_intent.canceled", Status::Pending) => outcome(
            release(&state, &order, Status::Expired, Some(&event.id)).await?,
            "released",
        ),
        ("charge.refunded" | "refund.created" | "refund.updated" | "refund.failed", _) => {
            let Some(order) = settled_first(&state, order).await? else {
                record_event(&state, &event.id).await?;
                return Ok(handled("nothing to do"));
            };
            if event.kind == "charge.refunded" {
                let refunded = crate::refunds::record_all(&state, &order).await?;
                let stripe_says = object["amount_refunded"].as_i64();
                if stripe_says.is_some_and(|says| says != refunded) {
                    // A later event brings the rest (a refund made after this charge was read).
                    tracing::warn!(order = %order.id, refunded, ?stripe_says, "refunds recorded differ from the charge's amount_refunded");
                }
            } else {
                let refund: crate::stripe::Refund = serde_json::from_value(object.clone())
                    .map_err(|e| {
                        ApiError::bad_request(format!("The refund in the event is unreadable: {e}"))
                    })?;
                crate::refunds::record(&state, &order.id, &refund).await?;
            }
            repeated_or(&state, &event.id, "refund recorded").await?
        }
        ("charge.dispute.created", _) => {
            holds::change(
                &state,
                &order.id,
                Change::Open(holds::from_event(HoldKind::Dispute, object)),
            )
            .await?;
            repeated_or(&state, &event.id, "put on hold").await?
        }
        ("radar.early_fraud_warning.created", _) => {
            holds::change(
                &state,
                &order.id,
                Change::Open(holds::from_event(HoldKind::FraudWarning, object)),
            )
            .await?;
            repeated_or(&state, &event.id, "put on hold").await?
        }
        ("charge.dispute.closed", _) => {
            let outcome = object["status"].as_str().unwrap_or("closed").to_owned();
            if outcome == "lost" {
                tracing::error!(order = %order.id, "PAYMENT-HOLD: a dispute was lost: the bank took the payment back");
            }
            let hold = holds::from_event(HoldKind::Dispute, object);
            holds::change(&state, &order.id, Change::Close { hold, outcome }).await?;
            repeated_or(&state, &event.id, "hold closed").await?
        }
        _ => repeated_or(&state, &event.id, "nothing to do").await?,
    };
    Ok(handled(done))
}

/// What a PaymentIntent event says was paid (pence, currency); read from Stripe when the event leaves it out.
async fn paid_amount(
    state: &AppState,
    object: &serde_json::Value,
) -> Result<(i64, String), ApiError> {
    match (object["amount"].as_i64(), object["currency"].as_str()) {
        (Some(amount), Some(currency)) => Ok((amount, currency.to_owned())),
        _ => {
            let intent = state
                .stripe
                .intent(object["id"].as_str().unwrap_or_default())
                .await?;
            Ok((intent.amount, intent.currency))
        }
    }
}

/// Records the event (once) and answers `done`, or "repeated event" for one recorded before.
async fn repeated_or(
    state: &AppState,
    event_id: &str,
    done: &'static str,
) -> Result<&'static str, ApiError> {
    Ok(match record_event(state, event_id).await? {
        true => done,
        false => "repeated event",
    })
}

/// The PaymentIntent a dispute or a fraud warning is about: named in the event (Stripe does on current API
/// versions), or its charge's.
async fn intent_of_charge_event(
    state: &AppState,
    object: &serde_json::Value,
) -> Result<String, ApiError> {
    if let Some(intent) = object["payment_intent"].as_str().filter(|i| !i.is_empty()) {
        return Ok(intent.to_owned());
    }
    match object["charge"].as_str().filter(|c| c.starts_with("ch_")) {
        Some(charge) => Ok(state
            .stripe
            .charge(charge)
            .await?
            .payment_intent
            .unwrap_or_default()),
        None => Ok(String::new()),
    }
}

/// A refund's event for an order still pending: its payment's own event has not arrived (or was lost), so
/// the payment is settled first from what Stripe says. `None` when there is no payment to refund.
async fn settled_first(state: &AppState, order: Order) -> Result<Option<Order>, ApiError> {
    if order.status != Status::Pending {
        return Ok(Some(order));
    }
    let intent = state.stripe.intent(&order.payment_intent).await?;
    if intent.status != IntentStatus::Succeeded {
        return Ok(None);
    }
    crate::payment::settle(state, &order, intent, false).await?;
    find_order(state, &order.id).await
}

/// A payment the shop will not keep (its order was released, or it was not for the order): the refund is
/// recorded as due (with the event), then asked for; the expiry job asks again if Stripe fails now.
async fn refund_late(
    state: &AppState,
    order: &Order,
    amount: i64,
    event: Option<&str>,
) -> Result<&'static str, ApiError> {
    if !late_refund::record_due(state, order, amount, event).await? {
        return Ok("repeated event");
    }
    Ok(
        match late_refund::settle_due(state, &order.id, &order.payment_intent).await? {
            true => "refunded a late payment",
            false => "refund of a late payment due: retried by the expiry job",
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";

    #[test]
    fn a_signature_made_with_the_secret_passes() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign(body, SECRET, 1_000);
        assert!(verify(Some(&header), body, SECRET, 1_010).is_ok());
    }

    #[test]
    fn without_a_secret_nothing_passes_not_even_a_signature_made_with_the_empty_key() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign(body, "", 1_000);
        assert!(verify(Some(&header), body, "", 1_000).is_err());
    }

    #[test]
    fn forged_stale_missing_and_tampered_signatures_fail() {
        let body = br#"{"id":"evt_1"}"#;
        let good = sign(body, SECRET, 1_000);
        assert!(verify(None, body, SECRET, 1_000).is_err());
        assert!(verify(Some(&sign(body, "whsec_other", 1_000)), body, SECRET, 1_000).is_err());
        assert!(verify(Some(&good), body, SECRET, 1_000 + TOLERANCE_SECONDS + 1).is_err());
        assert!(verify(Some(&good), br#"{"id":"evt_2"}"#, SECRET, 1_000).is_err());
        assert!(verify(Some("t=1000,v1=zz"), body, SECRET, 1_000).is_err());
        assert!(verify(Some("v1=00"), body, SECRET, 1_000).is_err());
    }
}
