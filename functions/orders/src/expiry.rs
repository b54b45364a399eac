//! The scheduled release of unpaid orders. Every pending order whose hold has ended is looked up at Stripe:
//! paid after all (a lost webhook) becomes paid, when the payment is for the order's total in pounds;
//! anything else has its PaymentIntent cancelled and its stock and code use given back, as `expired`. Reads
//! the sparse pending index, never a scan. Each order is handled on its own: one that fails is logged with
//! `ORDER-MOVE-FAILED` (the stack's alarm watches for it) and the run goes on with the rest.
//!
//! Each run also finishes what Stripe left open: the late payments' refunds still due (late_refund), the
//! released orders' PaymentIntents still to cancel, and the admins' refunds whose answer was lost
//! (refunds::settle_claims).

use crate::checkout::find_order;
use crate::order::{hold_key, Status, PENDING};
use crate::payment::{cancel_released, mark_paid, matches_order, release, Moved, CANCEL_DUE};
use crate::stripe::IntentStatus;
use crate::AppState;
use shared::dynamo::{get_s, s, Item};
use shared::ApiError;

/// OrdersExpiryFunction's state, as its Lambda (`bin/expire-orders.rs`) and the local gateway's schedule
/// both build it: the orders state with the expiry's settings (no webhook secret, `Config::for_expiry`).
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<AppState, shared::config::ConfigError> {
    let config = crate::Config::for_expiry(env)?;
    Ok(AppState::new(config, clients.dynamodb(), clients.sqs()))
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ExpirySummary {
    pub expired: u32,
    pub paid: u32,
    /// Left for the next run (Stripe still processing, or unreachable).
    pub waiting: u32,
    /// Late payments' refunds that were due and are now done (crate::late_refund).
    pub refunded: u32,
    /// Released orders' PaymentIntents cancelled at Stripe now.
    pub cancelled: u32,
    /// Admins' refunds settled from what Stripe holds.
    pub claims: u32,
    /// Orders that could not be handled (logged, alarmed; the next run tries them again).
    pub failed: u32,
    /// Erasures that waited for an order which has ended since, finished.
    pub erasures: u32,
}

/// What OrdersExpiryFunction does with an event: its schedule's runs the expiry; `{"task": "reconcile",
/// "month": "YYYY-MM"}` (what `make reconcile` sends) answers the month's reconciliation, with `text` as the
/// command line prints it.
pub async fn handle_event(
    state: &AppState,
    event: &serde_json::Value,
    now: i64,
) -> Result<serde_json::Value, ApiError> {
    match event["task"].as_str() {
        Some("reconcile") => {
            let month = crate::reconcile::Month::parse(event["month"].as_str().unwrap_or(""))?;
            let report = crate::reconcile::report(state, month).await?;
            let text = crate::reconcile::report_text(&report);
            Ok(serde_json::json!({"report": report, "text": text}))
        }
        Some(other) => Err(ApiError::bad_request(format!(
            "no task {other:?}: the expiry function runs the expiry, or reconcile"
        ))),
        None => serde_json::to_value(expire_pending(state, now).await?).map_err(ApiError::internal),
    }
}

/// Releases every pending order whose hold ended by `now` (unix seconds), then finishes what Stripe left
/// open.
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
            if let Err(error) = expire_one(state, &id, &mut summary).await {
                summary.failed += 1;
                tracing::error!(order = %id, ?error, "ORDER-MOVE-FAILED: an unpaid order could not be released: the next run tries again");
            }
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    summary.refunded = crate::late_refund::retry_due(state).await?;
    summary.cancelled = retry_cancels(state, &mut summary).await?;
    summary.claims = crate::refunds::settle_claims(state, now).await?;
    summary.erasures = crate::personal::finish_waiting(&state.db, &state.tables.orders).await?;
    Ok(summary)
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
            IntentStatus::Succeeded if matches_order(intent.amount, &intent.currency, &order) => {
                if mark_paid(state, &order, None).await? == Moved::Now {
                    summary.paid += 1;
                }
                return Ok(());
            }
            IntentStatus::Succeeded => {
                // Released like any order not paid for; the payment is refunded as a late one
                // (retry_cancels finds it succeeded).
                tracing::error!(
                    order = %order.id, amount = intent.amount, currency = %intent.currency,
                    "PAYMENT-MISMATCH: the payment is not for the order's total in GBP: released and refunded"
                );
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

/// Released orders whose PaymentIntent Stripe has not confirmed cancelled: cancelled now, or, when the
/// payment completed after all, refunded as a late payment. Answers how many were settled.
async fn retry_cancels(state: &AppState, summary: &mut ExpirySummary) -> Result<u32, ApiError> {
    let mut settled = 0;
    for listed in crate::index::query_all(state, "gsi3", "gsi3pk", CANCEL_DUE).await? {
        let Some(order_id) = get_s(&listed, "pk")
            .ok()
            .and_then(|pk| pk.strip_prefix("CANCEL#").map(str::to_owned))
        else {
            continue;
        };
        match retry_cancel(state, &order_id).await {
            Ok(true) => settled += 1,
            Ok(false) => summary.waiting += 1,
            Err(error) => {
                summary.failed += 1;
                tracing::error!(order = %order_id, ?error, "ORDER-MOVE-FAILED: a released order's payment could not be settled: the next run tries again");
            }
        }
    }
    Ok(settled)
}

async fn retry_cancel(state: &AppState, order_id: &str) -> Result<bool, ApiError> {
    let forget = || async {
        state
            .db
            .delete_item()
            .table_name(&state.tables.orders)
            .set_key(Some(crate::payment::cancel_due_key(order_id)))
            .send()
            .await
            .map(drop)
            .map_err(ApiError::from)
    };
    let Some((order, money)) = crate::money::find(state, order_id).await? else {
        forget().await?;
        return Ok(true);
    };
    let intent = match state.stripe.intent(&order.payment_intent).await {
        Ok(intent) => intent,
        Err(_) => return Ok(false),
    };
    match intent.status {
        IntentStatus::Succeeded => {
            if money.refunded < order.total {
                crate::late_refund::record_due(state, &order, intent.amount, None).await?;
                if !crate::late_refund::settle_due(state, &order.id, &order.payment_intent).await? {
                    return Ok(false);
                }
            }
            forget().await?;
            Ok(true)
        }
        IntentStatus::Processing => Ok(false),
        _ => Ok(cancel_released(state, order_id, &order.payment_intent).await),
    }
}
