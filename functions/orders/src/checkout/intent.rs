//! The money, once the reservation stands: a PaymentIntent for the server's total, recorded on the order
//! (with the way back from the intent to the order) before it is confirmed on the server, so the webhook
//! and the expiry job can always find out what happened. `payment.rs` moves the order on.

use super::reply::{settlement_reply, with_order_key};
use super::reserve::busy_checkout;
use crate::order::{order_key, Order, Status};
use crate::payment::{payment_unavailable, settle, settle_refusal, Failed, Settlement};
use crate::stripe::{IntentOrder, ShippingAddress};
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use axum::response::Response;
use http::StatusCode;
use shared::dynamo::{s, Item};
use shared::ApiError;

/// Creates and confirms the payment for a reserved order: 201 with its id when paid, 202 for 3-D Secure,
/// 402 when refused (the reservation given back), 503 when Stripe could not be reached.
pub async fn pay(
    state: &AppState,
    mut order: Order,
    payment_method: &str,
) -> Result<Response, ApiError> {
    let number = order.reference();
    let described = IntentOrder {
        id: &order.id,
        number: &number,
        shipping: shipping_of(&order),
    };
    let intent = match state
        .stripe
        .create_intent(order.total, payment_method, &described)
        .await
    {
        Ok(intent) => intent,
        Err(error) => {
            let settled = settle_refusal(state, &order, error).await?;
            if let Settlement::Waiting = settled {
                // Nothing was confirmed: give the reservation back now rather than in half an hour.
                crate::payment::release(state, &order, Status::Expired, None).await?;
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "We could not reach the bank: nothing was charged. Please try again in a moment.",
                ));
            }
            return settlement_reply(&order.id, settled, StatusCode::CREATED)
                .map(|reply| with_order_key(state, &order.id, reply));
        }
    };
    if let Err(failed) = record_intent(state, &order, &intent.id).await {
        // Not confirmed, so nothing was charged: the unconfirmed intent is cancelled and the reservation
        // goes back now; if DynamoDB is too busy for that as well, the order is held until its hold ends
        // and the expiry job gives it back, which the answer then says.
        if let Err(error) = state.stripe.cancel_intent(&intent.id).await {
            tracing::warn!(order = %order.id, %error, "an unconfirmed PaymentIntent was left open");
        }
        if let Err(error) = crate::payment::release(state, &order, Status::Expired, None).await {
            tracing::warn!(order = %order.id, ?error, "reservation left to the expiry job");
            return Err(payment_unavailable(&order.id));
        }
        return Err(if failed.conflict {
            busy_checkout()
        } else {
            failed.error
        });
    }
    order.payment_intent = intent.id.clone();
    let settled = match state.stripe.confirm_intent(&intent.id, &order.id).await {
        Ok(confirmed) => settle(state, &order, confirmed, false).await,
        Err(error) => settle_refusal(state, &order, error).await,
    };
    // The bank may have taken the money while DynamoDB stayed too busy for the paid move: the order is
    // held, and the webhook or the expiry job moves it on, so the shopper is told that, not "busy".
    let settled = match settled {
        Err(error) if error.status() == StatusCode::SERVICE_UNAVAILABLE => {
            return Err(payment_unavailable(&order.id))
        }
        other => other?,
    };
    if let Settlement::Waiting = settled {
        return Err(payment_unavailable(&order.id));
    }
    settlement_reply(&order.id, settled, StatusCode::CREATED)
        .map(|reply| with_order_key(state, &order.id, reply))
}

/// Where the order goes, for the intent's `shipping`: the UK parts, or an address in one box as its first
/// line and the rest.
fn shipping_of(order: &Order) -> ShippingAddress<'_> {
    let (line1, line2, city, postal_code) = match &order.delivery {
        Some(parts) => (
            parts.line1.as_str(),
            parts.line2.as_str(),
            parts.town.as_str(),
            parts.postcode.as_str(),
        ),
        None => {
            let (first, rest) = order
                .address
                .split_once('\n')
                .unwrap_or((order.address.as_str(), ""));
            (first.trim(), rest.trim(), "", "")
        }
    };
    ShippingAddress {
        name: &order.fullname,
        phone: &order.phone,
        line1,
        line2,
        city,
        postal_code,
    }
}

/// Notes the PaymentIntent on the pending order, and the way back from the intent to the order (a charge's
/// events name the intent, not the order).
async fn record_intent(state: &AppState, order: &Order, intent: &str) -> Result<(), Failed> {
    let built = |error| Failed {
        step: None,
        conflict: false,
        error: ApiError::internal(error),
    };
    let on_order = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET paymentIntent = :intent")
        .condition_expression("#status = :pending")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":intent", s(intent))
        .expression_attribute_values(":pending", s(Status::Pending.as_str()))
        .build()
        .map_err(built)?;
    let mut link = intent_key(intent);
    link.insert("orderId".to_owned(), s(&order.id));
    let link = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(link))
        .build()
        .map_err(built)?;
    crate::payment::run(
        state,
        vec![
            TransactWriteItem::builder().update(on_order).build(),
            TransactWriteItem::builder().put(link).build(),
        ],
    )
    .await
}

fn intent_key(intent: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("INTENT#{intent}"))),
        ("sk".to_owned(), s("INTENT")),
    ])
}

/// The order a PaymentIntent was made for.
pub(crate) async fn order_of_intent(
    state: &AppState,
    intent: &str,
) -> Result<Option<String>, ApiError> {
    if intent.is_empty() || intent.len() > 255 {
        return Ok(None);
    }
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(intent_key(intent)))
        .send()
        .await?;
    Ok(found
        .item()
        .and_then(|item| item.get("orderId"))
        .and_then(|v| v.as_s().ok())
        .cloned())
}
