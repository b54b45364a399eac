//! Holds: a payment the cardholder disputes with their bank (`charge.dispute.created`), or one the card's
//! issuer reports as likely fraud (`radar.early_fraud_warning.created`), puts its order on hold. A held order
//! is not shipped or marked delivered, is marked in the admin's list and on the dashboard, and the log line
//! `PAYMENT-HOLD` raises the stack's alarm. A dispute closes with the bank's outcome
//! (`charge.dispute.closed`: won, lost, warning closed); a fraud warning closes when the order is refunded in
//! full, or when an admin who has checked the order releases it. Held orders are listed through a sparse
//! index (`gsi3`, `HOLD`), never a scan.

use crate::index::query_all;
use crate::money::{self, Audience, Hold, HoldKind, ShownOrder};
use crate::order::order_key;
use crate::payment::{run, Failed};
use crate::AppState;
use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem, Update};
use axum::extract::State;
use serde::Deserialize;
use shared::auth::Admin;
use shared::dynamo::{get_s, n, s, Item};
use shared::extract::Path;
use shared::validation::bounded_text;
use shared::{ApiError, ApiResult, Json};

/// The `gsi3` partition of orders with an open hold.
pub const HELD: &str = "HOLD";
const ATTEMPTS: usize = 8;

fn marker_key(order_id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("HOLD#{order_id}"))),
        ("sk".to_owned(), s("HOLD")),
    ])
}

/// What happened to a hold.
pub enum Change {
    /// A dispute or warning was opened.
    Open(Hold),
    /// The hold closed with `outcome` (`hold` as the closing event describes it, for one whose opening has
    /// not arrived yet).
    Close { hold: Hold, outcome: String },
}

/// Writes a hold's change on order `order_id` (once: a hold is known by Stripe's id, and one closed stays
/// closed). Answers what it did, for the webhook's answer.
pub async fn change(
    state: &AppState,
    order_id: &str,
    change: Change,
) -> Result<&'static str, ApiError> {
    for _ in 0..ATTEMPTS {
        let Some((order, money)) = money::find(state, order_id).await? else {
            return Ok("no such order");
        };
        let now = shared::time::now_iso();
        let mut holds = money.holds.clone();
        let done = match &change {
            Change::Open(hold) => {
                if holds.iter().any(|h| h.id == hold.id) {
                    return Ok("already handled");
                }
                holds.push(hold.clone());
                "put on hold"
            }
            Change::Close {
                hold: closing,
                outcome,
            } => {
                match holds.iter_mut().find(|h| h.id == closing.id) {
                    Some(hold) if !hold.is_open() => return Ok("already handled"),
                    Some(hold) => {
                        hold.outcome = Some(outcome.clone());
                        hold.closed_at = Some(now.clone());
                    }
                    // Its opening has not arrived yet (events come in any order): recorded closed, so
                    // the late opening changes nothing.
                    None => {
                        let mut hold = closing.clone();
                        hold.outcome = Some(outcome.clone());
                        hold.closed_at = Some(now.clone());
                        holds.push(hold);
                    }
                }
                "hold closed"
            }
        };
        let open = holds.iter().any(Hold::is_open);
        let json = serde_json::to_string(&holds).map_err(ApiError::internal)?;
        let on_order = Update::builder()
            .table_name(&state.tables.orders)
            .set_key(Some(order_key(&order.id)))
            .update_expression("SET holds = :holds, version = version + :one, updatedAt = :at")
            .condition_expression("version = :read")
            .expression_attribute_values(":holds", s(json))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":at", s(&now))
            .expression_attribute_values(":read", n(order.version))
            .build()
            .map_err(ApiError::internal)?;
        let marker = if open {
            let mut item = marker_key(&order.id);
            item.extend([
                ("orderId".to_owned(), s(&order.id)),
                ("gsi3pk".to_owned(), s(HELD)),
                ("gsi3sk".to_owned(), s(format!("{now}#{}", order.id))),
            ]);
            let put = Put::builder()
                .table_name(&state.tables.orders)
                .set_item(Some(item))
                .build()
                .map_err(ApiError::internal)?;
            TransactWriteItem::builder().put(put).build()
        } else {
            let delete = Delete::builder()
                .table_name(&state.tables.orders)
                .set_key(Some(marker_key(&order.id)))
                .build()
                .map_err(ApiError::internal)?;
            TransactWriteItem::builder().delete(delete).build()
        };
        match run(
            state,
            vec![
                TransactWriteItem::builder().update(on_order).build(),
                marker,
            ],
        )
        .await
        {
            Ok(()) => {
                match &change {
                    Change::Open(hold) => tracing::error!(
                        order = %order.id, hold = %hold.id, kind = ?hold.kind, reason = %hold.reason,
                        "PAYMENT-HOLD: the order is on hold: do not ship it; answer the bank in Stripe's Dashboard"
                    ),
                    Change::Close { hold, outcome } => {
                        tracing::warn!(order = %order.id, hold = %hold.id, %outcome, "a hold closed")
                    }
                }
                return Ok(done);
            }
            Err(Failed { step: Some(0), .. }) | Err(Failed { conflict: true, .. }) => continue,
            Err(failed) => return Err(failed.error),
        }
    }
    Err(ApiError::new(
        http::StatusCode::SERVICE_UNAVAILABLE,
        "This order is changing too often to record its hold now: try again in a moment",
    ))
}

/// A hold from a dispute or warning as Stripe's event describes it.
pub fn from_event(kind: HoldKind, object: &serde_json::Value) -> Hold {
    let reason = match kind {
        HoldKind::Dispute => object["reason"].as_str(),
        HoldKind::FraudWarning => object["fraud_type"].as_str(),
    };
    Hold {
        kind,
        id: object["id"].as_str().unwrap_or_default().to_owned(),
        reason: reason.unwrap_or("unknown").to_owned(),
        amount_pence: object["amount"].as_i64().unwrap_or(0),
        opened_at: shared::time::now_iso(),
        outcome: None,
        closed_at: None,
    }
}

/// `GET /api/order/holds/`: every order on hold, longest held first.
pub async fn list_held_orders(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<ShownOrder>>> {
    let mut held = Vec::new();
    let mut listed = query_all(&state, "gsi3", "gsi3pk", HELD).await?;
    listed.reverse();
    for marker in listed {
        let Some(order_id) = get_s(&marker, "pk")
            .ok()
            .and_then(|pk| pk.strip_prefix("HOLD#").map(str::to_owned))
        else {
            continue;
        };
        if let Some((order, money)) = money::find(&state, &order_id).await? {
            if money.on_hold() {
                held.push(ShownOrder::of(&order, &money, Audience::Admin)?);
            }
        }
    }
    Ok(Json(held))
}

/// Why an admin releases a held order.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleaseInput {
    /// What the admin checked (kept as the hold's outcome, 1 to 200 characters once trimmed, one line).
    #[schemars(regex(pattern = crate::refunds::reason_pattern()), length(max = 200))]
    note: String,
}

/// `POST /api/order/holds/{_id}/release`: an admin who has checked an order under a fraud warning releases
/// it (it can ship again). A dispute is the bank's to close: 409.
pub async fn release_hold(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<ReleaseInput>,
) -> ApiResult<Json<ShownOrder>> {
    let note = bounded_text("note", &input.note, 200)?;
    if note.is_empty() {
        return Err(ApiError::invalid("note: say what was checked"));
    }
    let (_, money) = money::find(&state, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has this id"))?;
    if money
        .holds
        .iter()
        .any(|h| h.is_open() && h.kind == HoldKind::Dispute)
    {
        return Err(ApiError::conflict(
            "A dispute is open: it closes when the bank decides (answer it in Stripe's Dashboard)",
        ));
    }
    let open: Vec<Hold> = money
        .holds
        .iter()
        .filter(|h| h.is_open())
        .cloned()
        .collect();
    if open.is_empty() {
        return Err(ApiError::conflict("This order is not on hold"));
    }
    for hold in open {
        let outcome = format!("released: {note}");
        change(&state, &id, Change::Close { hold, outcome }).await?;
    }
    let (order, money) = money::find(&state, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has this id"))?;
    Ok(Json(ShownOrder::of(&order, &money, Audience::Admin)?))
}
