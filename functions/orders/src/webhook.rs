//! Stripe's webhook. Only a request signed with the shop's webhook secret, within five minutes of its
//! timestamp, is read (HMAC-SHA256 over `"{t}.{raw body}"`, compared in constant time); anything else is 400
//! and changes nothing. Each event moves its order with the same conditional writes as the checkout and
//! the confirm call, and records its id in the same transaction, so a redelivered event changes nothing.

use crate::checkout::{find_order, order_of_intent};
use crate::late_refund;
use crate::order::Status;
use crate::payment::{mark_paid, mark_refunded, record_event, release, Moved};
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
        "charge.refunded" => (
            text(&object["payment_intent"]),
            text(&object["metadata"]["order_id"]),
        ),
        _ => return Ok(handled("ignored")),
    };
    let order_id = match order_id.is_empty() {
        false => Some(order_id),
        // A charge's metadata is its own: find the order through its PaymentIntent.
        true => order_of_intent(&state, &intent_id).await?,
    };
    let order = match order_id {
        Some(id) => find_order(&state, &id).await?,
        None => None,
    };
    // Only an order whose own PaymentIntent this is: a refund's metadata may not carry the order id.
    let Some(order) = order.filter(|o| o.payment_intent == intent_id) else {
        record_event(&state, &event.id).await?;
        return Ok(handled("no such order"));
    };
    let done = match (event.kind.as_str(), order.status) {
        ("payment_intent.succeeded", Status::Pending) => {
            outcome(mark_paid(&state, &order, Some(&event.id)).await?, "paid")
        }
        ("payment_intent.succeeded", Status::Expired | Status::Cancelled) => {
            // The bank took the money after the shop gave the reservation back: return it at once.
            // The refund is recorded as due with the event, then asked for; if Stripe fails now, the expiry
            // job asks again until it is done (late_refund).
            tracing::warn!(order = %order.id, "payment arrived after the order was released: refunding");
            if !late_refund::record_due(&state, &order.id, &order.payment_intent, &event.id).await?
            {
                return Ok(handled("repeated event"));
            }
            if late_refund::settle_due(&state, &order.id, &order.payment_intent).await? {
                "refunded a late payment"
            } else {
                "refund of a late payment due: retried by the expiry job"
            }
        }
        ("payment_intent.payment_failed" | "payment_intent.canceled", Status::Pending) => outcome(
            release(&state, &order, Status::Expired, Some(&event.id)).await?,
            "released",
        ),
        ("charge.refunded", Status::Paid | Status::Shipped)
            if object["refunded"].as_bool() == Some(true) =>
        {
            let refund = object["refunds"]["data"][0]["id"]
                .as_str()
                .unwrap_or("refunded at Stripe");
            outcome(
                mark_refunded(&state, &order, refund, Some(&event.id)).await?,
                "refunded",
            )
        }
        _ => {
            if record_event(&state, &event.id).await? {
                "nothing to do"
            } else {
                "repeated event"
            }
        }
    };
    Ok(handled(done))
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
