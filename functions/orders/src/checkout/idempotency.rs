//! The checkout's Idempotency-Key: a retry of the same order under the same key answers where the first
//! attempt stands instead of placing a second order; the key's item is written in the order's transaction.

use super::find::find_order;
use super::input::OrderInput;
use super::reply::{id_reply, settlement_reply, with_order_key};
use crate::order::{Order, Status};
use crate::payment::{settle, settle_refusal};
use crate::records::idempotency_item_key;
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use shared::dynamo::{n, s};
use shared::ApiError;

/// What `key` accepts (white space around the key is trimmed).
pub const IDEMPOTENCY_KEY_PATTERN: &str = r"^\s*[A-Za-z0-9_-]{1,100}\s*$";
const IDEMPOTENCY_TTL: i64 = 24 * 60 * 60;

/// A request's key and what it stands for.
pub struct Idempotency {
    pub key: String,
    pub fingerprint: String,
}

impl Idempotency {
    /// The key with what it stands for; an order without a key computes nothing here.
    pub fn read(headers: &HeaderMap, input: &OrderInput) -> Result<Option<Self>, ApiError> {
        Ok(key(headers)?.map(|key| Idempotency {
            key,
            fingerprint: fingerprint(input),
        }))
    }

    /// The key's item, written with the order (only if no order holds the key yet).
    pub fn put(&self, table: &str, order: &Order, now: i64) -> Result<TransactWriteItem, ApiError> {
        let mut item = idempotency_item_key(&self.key);
        item.extend([
            ("orderId".to_owned(), s(&order.id)),
            ("fingerprint".to_owned(), s(&self.fingerprint)),
            ("expiresAt".to_owned(), n(now + IDEMPOTENCY_TTL)),
        ]);
        let put = Put::builder()
            .table_name(table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().put(put).build())
    }
}

fn key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default().trim();
    if key.is_empty()
        || key.len() > 100
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::bad_request(
            "Idempotency-Key must be 1 to 100 letters, digits, - or _",
        ));
    }
    Ok(Some(key.to_owned()))
}

/// What a retry must repeat for its Idempotency-Key to stand for the same order: the buyer, the lines
/// and the code. Not the payment: a retry tokenises the card again, so its token differs every time.
/// SHA-256 over the fields in a fixed order, so key order in the JSON is moot.
fn fingerprint(input: &OrderInput) -> String {
    let lines: Vec<_> = input
        .product
        .iter()
        .map(|line| serde_json::json!([line.product.trim(), line.qty.value("qty").ok()]))
        .collect();
    let mut canonical = serde_json::json!([
        input.fullname.trim(),
        input.address.trim(),
        input.phone.trim(),
        input.email.trim().to_lowercase(),
        input.message.trim(),
        lines,
        input.code.as_deref().map(str::trim),
    ]);
    // The UK address's parts only when sent, so a key kept from before they existed still matches.
    let parts = [
        &input.address_line1,
        &input.address_line2,
        &input.town,
        &input.postcode,
    ];
    if parts.iter().any(|part| part.is_some()) {
        if let Some(list) = canonical.as_array_mut() {
            list.push(serde_json::json!(
                parts.map(|part| part.as_deref().map(|p| p.trim().to_uppercase()))
            ));
        }
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, canonical.to_string().as_bytes());
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The answer to a retry: where the order placed earlier under this key stands (its id when paid, the 3-D
/// Secure step again, or the refusal), or 422 when the key was used for a different order; None when the
/// key is new (or its order's reservation was released, which frees the key).
pub async fn earlier_order(
    state: &AppState,
    idempotency: &Idempotency,
) -> Result<Option<Response>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(idempotency_item_key(&idempotency.key)))
        .consistent_read(true)
        .send()
        .await?;
    let Some(item) = found.item() else {
        return Ok(None);
    };
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    if text("fingerprint").is_some_and(|stored| stored != idempotency.fingerprint) {
        return Err(ApiError::invalid(
            "Idempotency-Key was already used for a different order: send a new key",
        ));
    }
    let Some(id) = text("orderId") else {
        return Ok(None);
    };
    let Some(order) = find_order(state, &id).await? else {
        return Ok(None);
    };
    if order.status != Status::Pending {
        let reply = id_reply(StatusCode::OK, &order.id);
        return Ok(Some(with_order_key(state, &order.id, reply)));
    }
    if order.payment_intent.is_empty() {
        return Err(ApiError::conflict(
            "This order is being placed already: wait a moment",
        ));
    }
    let settled = match state.stripe.intent(&order.payment_intent).await {
        Ok(intent) => settle(state, &order, intent, true).await?,
        Err(error) => settle_refusal(state, &order, error).await?,
    };
    settlement_reply(&order.id, settled, StatusCode::OK)
        .map(|reply| Some(with_order_key(state, &order.id, reply)))
}
