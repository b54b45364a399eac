//! A payment that arrives for an order the shop has already released (expired or cancelled) is refunded,
//! and that refund is never lost: the need is recorded first, in the same transaction as the Stripe event
//! (`REFUND#order`, listed in the sparse `gsi3` index under `REFUND-DUE`), then the refund is asked for with
//! Stripe's idempotency key `order-{id}-refund`. A refund that fails (Stripe unreachable, say) stays due;
//! the expiry job, every 5 minutes, asks again until Stripe says it is done. Only then is the record removed
//! and the refund's id written on the order.

use crate::order::order_key;
use crate::payment::{event_put, run};
use crate::stripe::StripeError;
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use shared::dynamo::{get_s, s, Item};
use shared::ApiError;

/// The `gsi3` partition of refunds still due.
pub const DUE: &str = "REFUND-DUE";

fn due_key(order_id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("REFUND#{order_id}"))),
        ("sk".to_owned(), s("REFUND")),
    ])
}

/// Records Stripe's event and the refund it makes due, in one transaction: false when the event was
/// recorded before (its refund was made due then).
pub async fn record_due(
    state: &AppState,
    order_id: &str,
    intent: &str,
    event_id: &str,
) -> Result<bool, ApiError> {
    let mut item = due_key(order_id);
    item.extend([
        ("orderId".to_owned(), s(order_id)),
        ("paymentIntent".to_owned(), s(intent)),
        ("gsi3pk".to_owned(), s(DUE)),
        (
            "gsi3sk".to_owned(),
            s(format!("{:012}#{order_id}", shared::time::now_unix())),
        ),
    ]);
    let due = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    let items = vec![
        event_put(&state.tables.orders, event_id)?,
        TransactWriteItem::builder().put(due).build(),
    ];
    match run(state, items).await {
        Ok(()) => Ok(true),
        Err(failed) if failed.step == Some(0) => Ok(false),
        Err(failed) => Err(failed.error),
    }
}

/// Asks Stripe for the refund (the same idempotency key every time) and, once Stripe has done it, writes its
/// id on the order and removes the record. Answers whether it is done; a failure leaves it due.
pub async fn settle_due(state: &AppState, order_id: &str, intent: &str) -> Result<bool, ApiError> {
    let refund_id = match state.stripe.refund(intent, order_id).await {
        Ok(refund) => refund.id,
        // Refunded already (by an earlier try whose answer was lost, or in Stripe's dashboard): done.
        Err(StripeError::Refused { message, .. }) if message.contains("already been refunded") => {
            "refunded at Stripe".to_owned()
        }
        Err(error) => {
            tracing::warn!(order = %order_id, %error, "a late payment's refund failed: it stays due");
            return Ok(false);
        }
    };
    let noted = state
        .db
        .update_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(order_id)))
        .update_expression("SET refundId = :refund")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":refund", s(&refund_id))
        .send()
        .await;
    shared::dynamo::applied(noted)?;
    state
        .db
        .delete_item()
        .table_name(&state.tables.orders)
        .set_key(Some(due_key(order_id)))
        .send()
        .await?;
    tracing::info!(order = %order_id, refund = %refund_id, "a late payment was refunded");
    Ok(true)
}

/// Every refund still due, asked for again (the expiry job's schedule): answers how many are now done.
pub async fn retry_due(state: &AppState) -> Result<u32, ApiError> {
    let mut done = 0;
    // The index holds keys only: each record is read whole.
    for listed in crate::manage::query_all(state, "gsi3", "gsi3pk", DUE).await? {
        let found = state
            .db
            .get_item()
            .table_name(&state.tables.orders)
            .key("pk", s(get_s(&listed, "pk")?))
            .key("sk", s("REFUND"))
            .consistent_read(true)
            .send()
            .await?;
        let Some(item) = found.item() else { continue };
        let order = get_s(item, "orderId")?;
        let intent = get_s(item, "paymentIntent")?;
        if settle_due(state, &order, &intent).await? {
            done += 1;
        }
    }
    Ok(done)
}
