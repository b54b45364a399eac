//! A payment that arrives for an order the shop has already released (expired or cancelled), or one that is
//! not for the order's total in pounds, is refunded, and that refund is never lost: the need is recorded
//! first, in the same transaction as the Stripe event when one brought it (`REFUND#order`, listed in the
//! sparse `gsi3` index under `REFUND-DUE`) and with the ledger's line for the money that came in; then the
//! refund is asked for with Stripe's idempotency key `order-{id}-refund`. A refund that fails (Stripe
//! unreachable, say) stays due; the expiry job, every 5 minutes, asks again until Stripe says it is done.
//! Then it is recorded on the order like any refund (refunds.rs), which e-mails the shopper that their
//! payment came back and shows it on the order page, and the record of the need is removed.

use crate::order::Order;
use crate::payment::{event_put, run};
use crate::records::{ledger_put, Entry, LedgerLine};
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

/// Records the refund a late payment makes due (with Stripe's event, when one brought it), in one
/// transaction: false when the event was recorded before (its refund was made due then).
pub async fn record_due(
    state: &AppState,
    order: &Order,
    amount_pence: i64,
    event_id: Option<&str>,
) -> Result<bool, ApiError> {
    let now = shared::time::now_iso();
    let mut item = due_key(&order.id);
    item.extend([
        ("orderId".to_owned(), s(&order.id)),
        ("paymentIntent".to_owned(), s(&order.payment_intent)),
        ("gsi3pk".to_owned(), s(DUE)),
        (
            "gsi3sk".to_owned(),
            s(format!("{:012}#{}", shared::time::now_unix(), order.id)),
        ),
    ]);
    let due = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    let mut items = Vec::new();
    if let Some(event) = event_id {
        items.push(event_put(&state.tables.orders, event)?);
    }
    items.push(TransactWriteItem::builder().put(due).build());
    items.push(ledger_put(
        &state.tables.orders,
        &LedgerLine {
            entry: Entry::LatePayment,
            at: &now,
            id: &order.id,
            order,
            amount_pence,
            vat_pence: 0,
        },
    )?);
    match run(state, items).await {
        Ok(()) => Ok(true),
        Err(failed) if event_id.is_some() && failed.step == Some(0) => Ok(false),
        Err(failed) => Err(failed.error),
    }
}

/// Asks Stripe for the refund (the same idempotency key every time) and, once Stripe has made it, records
/// it on the order and removes the record that it is due. Answers whether it is done; a failure leaves it
/// due.
pub async fn settle_due(state: &AppState, order_id: &str, intent: &str) -> Result<bool, ApiError> {
    let key = format!("order-{order_id}-refund");
    let metadata = [
        ("order_id", order_id),
        ("reason", "The payment arrived after the order was released"),
    ];
    match state
        .stripe
        .create_refund(intent, None, &key, &metadata)
        .await
    {
        Ok(refund) => {
            crate::refunds::record(state, order_id, &refund).await?;
        }
        Err(error) => {
            // Refunded already (an earlier try whose answer was lost, or in Stripe's Dashboard)? Whatever
            // Stripe holds is recorded; nothing held means it is still due.
            let Some((order, _)) = crate::money::find(state, order_id).await? else {
                return Ok(false);
            };
            match crate::refunds::record_all(state, &order).await {
                Ok(refunded) if refunded >= order.total.pence() => {}
                Ok(_) | Err(_) => {
                    tracing::warn!(order = %order_id, %error, "a late payment's refund failed: it stays due");
                    return Ok(false);
                }
            }
        }
    }
    state
        .db
        .delete_item()
        .table_name(&state.tables.orders)
        .set_key(Some(due_key(order_id)))
        .send()
        .await?;
    tracing::info!(order = %order_id, "a late payment was refunded");
    Ok(true)
}

/// Every refund still due, asked for again (the expiry job's schedule): answers how many are now done. Each
/// is handled on its own: one that fails is logged and the rest go on.
pub async fn retry_due(state: &AppState) -> Result<u32, ApiError> {
    let mut done = 0;
    // The index holds keys only: each record is read whole.
    for listed in crate::index::query_all(state, "gsi3", "gsi3pk", DUE).await? {
        let settled = async {
            let found = state
                .db
                .get_item()
                .table_name(&state.tables.orders)
                .key("pk", s(get_s(&listed, "pk")?))
                .key("sk", s("REFUND"))
                .consistent_read(true)
                .send()
                .await?;
            let Some(item) = found.item() else {
                return Ok::<_, ApiError>(false);
            };
            let order = get_s(item, "orderId")?;
            let intent = get_s(item, "paymentIntent")?;
            settle_due(state, &order, &intent).await
        }
        .await;
        match settled {
            Ok(true) => done += 1,
            Ok(false) => {}
            Err(error) => tracing::error!(
                ?error, "ORDER-MOVE-FAILED: a late payment's refund could not be settled: the next run tries again"
            ),
        }
    }
    Ok(done)
}
