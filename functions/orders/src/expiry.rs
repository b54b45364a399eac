//! The scheduled release of unpaid orders. Every pending order whose hold has ended is looked up at Stripe:
//! paid after all (a lost webhook) becomes paid; anything else has its PaymentIntent cancelled and its
//! stock, code use and month figures given back, as `expired`. Reads the sparse pending index, never a scan.
//! Each run also asks Stripe again for the late payments' refunds still due (crate::late_refund).

use crate::checkout::find_order;
use crate::order::{hold_key, Status, PENDING};
use crate::payment::{mark_paid, release, Moved};
use crate::stripe::IntentStatus;
use crate::AppState;
use shared::dynamo::{get_s, s, Item};
use shared::ApiError;

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ExpirySummary {
    pub expired: u32,
    pub paid: u32,
    /// Left for the next run (Stripe still processing, or unreachable).
    pub waiting: u32,
    /// Late payments' refunds that were due and are now done (crate::late_refund).
    pub refunded: u32,
}

/// Releases every pending order whose hold ended by `now` (unix seconds).
pub async fn expire_pending(state: &AppState, now: i64) -> Result<ExpirySummary, ApiError> {
    let mut summary = ExpirySummary::default();
    let mut start: Option<Item> = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(&state.tables.orders)
            .index_name("gsi3")
            .key_condition_expression("gsi3pk = :pending AND gsi3sk < :now")
            .expression_attribute_values(":pending", s(PENDING))
            // Every key of a hold that ended at `now` or before sorts below this one.
            .expression_attribute_values(":now", s(hold_key(now + 1, "")))
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            let id = get_s(item, "id").or_else(|_| {
                get_s(item, "pk").map(|pk| pk.trim_start_matches("ORDER#").to_owned())
            })?;
            expire_one(state, &id, &mut summary).await?;
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => {
                summary.refunded = crate::late_refund::retry_due(state).await?;
                return Ok(summary);
            }
        }
    }
}

async fn expire_one(
    state: &AppState,
    id: &str,
    summary: &mut ExpirySummary,
) -> Result<(), ApiError> {
    let Some(order) = find_order(state, id).await? else {
        return Ok(());
    };
    if order.status != Status::Pending {
        return Ok(());
    }
    if !order.payment_intent.is_empty() {
        let intent = match state.stripe.intent(&order.payment_intent).await {
            Ok(intent) => intent,
            Err(error) => {
                tracing::warn!(order = %order.id, %error, "cannot read the payment: next run");
                summary.waiting += 1;
                return Ok(());
            }
        };
        match intent.status {
            IntentStatus::Succeeded => {
                if mark_paid(state, &order, None).await? == Moved::Now {
                    summary.paid += 1;
                }
                return Ok(());
            }
            IntentStatus::Processing | IntentStatus::RequiresCapture => {
                summary.waiting += 1;
                return Ok(());
            }
            IntentStatus::Canceled => {}
            _ => {
                if let Err(error) = state.stripe.cancel_intent(&intent.id).await {
                    // It may have completed a moment ago: the next run reads it again.
                    tracing::warn!(order = %order.id, %error, "cannot cancel the payment: next run");
                    summary.waiting += 1;
                    return Ok(());
                }
            }
        }
    }
    if release(state, &order, Status::Expired, None).await? == Moved::Now {
        summary.expired += 1;
    }
    Ok(())
}
