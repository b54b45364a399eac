//! Refunds, however they are made: an admin's (the whole order, chosen lines, the delivery or an amount, from
//! paid, shipped or delivered), one made in Stripe's Dashboard, or the shop's own refund of a payment that
//! arrived after its order was released. Stripe is the record: every refund that exists there ends up on
//! the order, once (each is keyed by Stripe's refund id), whichever of the admin's request, Stripe's events
//! (`charge.refunded`, `refund.updated`, `refund.failed`) or the expiry job's look-up gets there first.
//!
//! An admin's refund is first *claimed* on the order: one conditional write that moves the order's version
//! (so a "shipped" racing it loses and is told to reload) and keeps what the refund is for and the
//! idempotency key it is asked with. Then Stripe is asked. An answer is recorded; a refusal drops the claim;
//! no answer is looked up at Stripe by the claim's key before it is called failed, and a claim whose fate is
//! still unknown is settled by the expiry job a few minutes later.
//!
//! Recording a refund is one transaction: the record (with its credit note's number from a counter moved in
//! the same transaction), the order's `refunded`, `refunded` as its status once nothing is left, the chosen
//! lines' stock, the code's use on a whole refund, the month's results (the month the refund is made), the
//! ledger, and the customer's e-mail.

use crate::mail::{late_refund_mail, queued, refund_mail, Links, RefundNotice};
use crate::money::{
    self, CreditNote, Hold, OrderMoney, RefundClaim, RefundJson, RefundLine, RefundRecord,
    RefundState, CREDIT_NOTE_PREFIX,
};
use crate::order::{order_key, Order, Status, StatusChange};
use crate::payment::{run, Failed};
use crate::records::{ledger_put, results_update, Entry, Figures, LedgerLine};
use crate::stripe::{self, RefundStatus, StripeError};
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem, Update};
use axum::extract::State;
use http::StatusCode;
use serde::Deserialize;
use shared::auth::Admin;
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::extract::Path;
use shared::json::Created;
use shared::money::Pence;
use shared::trader::vat_in;
use shared::validation::bounded_text;
use shared::{ApiError, ApiResult, Json};

/// The `gsi3` partition of admins' refunds asked of Stripe and not yet recorded.
pub const CLAIMS: &str = "REFUND-CLAIM";
/// How old a claim must be before the expiry job settles it (an admin's request is long over by then).
pub const CLAIM_SETTLE_SECONDS: i64 = 120;
/// The first credit note's number.
pub const FIRST_CREDIT_NOTE: u64 = 10_001;
/// A refund's record is written on a fresh read of the order; this many tries outlast any burst of moves.
const RECORD_ATTEMPTS: usize = 8;
/// After this many tries, a refund is recorded without giving its lines' stock back (stock.rs).
const STOCK_ATTEMPTS: usize = 5;

fn claim_marker_key(order_id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("CLAIM#{order_id}"))),
        ("sk".to_owned(), s("CLAIM")),
    ])
}

fn credit_counter_key() -> Item {
    Item::from([
        ("pk".to_owned(), s("COUNTER#CREDIT-NOTE")),
        ("sk".to_owned(), s("COUNTER")),
    ])
}

// ---------------------------------------------------------------------------------------------------------
// What an admin asks for.

/// A line to refund: a drink on the order and how many of its units.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefundLineInput {
    /// The drink's id, as on the order's line.
    #[schemars(regex(pattern = r"^\s*\S([\s\S]{0,62}\S)?\s*$"))]
    product: String,
    /// Units to refund: at most those bought and not refunded yet.
    #[schemars(range(min = 1, max = 1000))]
    qty: u32,
}

/// A refund: the lines (and the delivery), or an amount, and why. The lines' value is refunded unless
/// `amount` says otherwise (the code's discount comes off the lines' prices, as it did at checkout).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefundInput {
    /// The drinks refunded and how many units of each: the whole order is every line with every unit and
    /// the delivery; empty for the delivery alone or an amount.
    #[serde(deserialize_with = "shared::json::objects")]
    #[schemars(length(max = 50))]
    lines: Vec<RefundLineInput>,
    /// Refund the delivery charge too.
    #[serde(default)]
    delivery: Option<bool>,
    /// Pounds to refund instead of the lines' value (a goodwill amount, a part of a line), at most what is
    /// left to refund.
    #[serde(default)]
    #[schemars(schema_with = "refund_amount")]
    amount: Option<f64>,
    /// Why, in a few words: kept on the refund and in Stripe's metadata (1 to 200 characters once trimmed,
    /// one line).
    #[schemars(regex(pattern = reason_pattern()), length(max = 200))]
    reason: String,
    /// Put the lines' units back on sale (returned drinks that cannot be sold again stay off: false when
    /// absent).
    #[serde(default)]
    restock: Option<bool>,
}

/// `reason`: one line of 1 to 200 characters once trimmed.
pub fn reason_pattern() -> String {
    shared::text_schema::text(shared::text_schema::Lines::One, 1, Some(200))
}

/// Pounds above 0 with at most two decimals.
fn refund_amount(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Pounds to refund instead of the lines' value (a goodwill amount, a part of a line), at most what is left to refund; above 0 with at most two decimals.",
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 10_000_000,
        "multipleOf": 0.01
    })
}

/// A refund an admin asks for, checked against the order.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub lines: Vec<RefundLine>,
    pub delivery: bool,
    pub amount: Pence,
    pub restock: bool,
    pub reason: String,
}

impl Ask {
    /// Everything left on the order: every unit not refunded yet, the delivery unless refunded, the rest of
    /// the money.
    pub fn whole(order: &Order, money: &OrderMoney, reason: &str, restock: bool) -> Ask {
        Ask {
            lines: order
                .lines
                .iter()
                .map(|line| RefundLine {
                    product: line.product.clone(),
                    name: line.name.clone(),
                    qty: line.qty.saturating_sub(money.refunded_units(&line.product)),
                })
                .filter(|line| line.qty > 0)
                .collect(),
            delivery: order.shipping > Pence::ZERO && !money.delivery_refunded(),
            amount: money.refundable(order),
            restock,
            reason: reason.to_owned(),
        }
    }
}

/// The value of `qty` units of a line, with the order's code taken off as at checkout.
fn line_value(unit_pence: i64, qty: u32, order: &Order) -> Pence {
    Pence::new(unit_pence)
        .unwrap_or_default()
        .times(qty)
        .less_percent(order.code_rate)
}

/// Reads an admin's refund against the order: 422 naming what is wrong.
pub fn ask(order: &Order, money: &OrderMoney, input: &RefundInput) -> Result<Ask, ApiError> {
    let reason = bounded_text("reason", &input.reason, 200)?;
    if reason.is_empty() {
        return Err(ApiError::invalid("reason: say why, in a few words"));
    }
    let mut lines: Vec<RefundLine> = Vec::new();
    let mut value = Pence::ZERO;
    for wanted in &input.lines {
        let id = wanted.product.trim();
        let Some(line) = order.lines.iter().find(|line| line.product == id) else {
            return Err(ApiError::invalid(format!(
                "lines: {id} is not on this order"
            )));
        };
        if wanted.qty == 0 {
            return Err(ApiError::invalid(format!(
                "lines: qty of {id} must be a whole number from 1"
            )));
        }
        match lines.iter_mut().find(|l| l.product == id) {
            Some(seen) => seen.qty += wanted.qty,
            None => lines.push(RefundLine {
                product: line.product.clone(),
                name: line.name.clone(),
                qty: wanted.qty,
            }),
        }
    }
    for line in &lines {
        let Some(bought) = order.lines.iter().find(|l| l.product == line.product) else {
            continue;
        };
        let left = bought
            .qty
            .saturating_sub(money.refunded_units(&line.product));
        if line.qty > left {
            return Err(ApiError::invalid(format!(
                "lines: {left} of {} can still be refunded",
                line.name
            )));
        }
        value = value.plus(line_value(bought.price_pence, line.qty, order));
    }
    let delivery = input.delivery.unwrap_or(false);
    if delivery {
        if order.shipping == Pence::ZERO {
            return Err(ApiError::invalid("delivery: this order was delivered free"));
        }
        if money.delivery_refunded() {
            return Err(ApiError::invalid(
                "delivery: the delivery charge was refunded already",
            ));
        }
        value = value.plus(order.shipping);
    }
    let left = money.refundable(order);
    let amount = match input.amount {
        Some(pounds) => {
            let amount =
                Pence::from_pounds(pounds).map_err(|e| ApiError::invalid(format!("amount {e}")))?;
            if amount == Pence::ZERO {
                return Err(ApiError::invalid("amount must be more than £0.00"));
            }
            amount
        }
        // The lines' value can pass what is left when an amount was refunded before: what is left, then.
        None => value.min(left),
    };
    if amount == Pence::ZERO {
        return Err(ApiError::invalid(
            "Choose the lines, the delivery or an amount to refund",
        ));
    }
    if amount > left {
        return Err(ApiError::invalid(format!(
            "amount: at most {left} of this order can still be refunded"
        )));
    }
    Ok(Ask {
        lines,
        delivery,
        amount,
        restock: input.restock.unwrap_or(false),
        reason,
    })
}

// ---------------------------------------------------------------------------------------------------------
// The admin's route.

/// `POST /api/order/refunds/{_id}`: refunds the order (whole, lines, delivery or an amount) and answers the
/// refund's record.
pub async fn create_refund(
    Admin(admin): Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<RefundInput>,
) -> ApiResult<Created<RefundJson>> {
    let (order, money) = money::find(&state, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has this id"))?;
    refundable(&order, &money)?;
    let ask = ask(&order, &money, &input)?;
    let record = refund_order(&state, &order, &ask, &admin.email).await?;
    Ok(Created(record.json(true)))
}

/// 409 for an order that cannot be refunded now, saying why.
pub fn refundable(order: &Order, money: &OrderMoney) -> Result<(), ApiError> {
    match order.status {
        Status::Paid | Status::Shipped | Status::Delivered => {}
        Status::Refunded => {
            return Err(ApiError::conflict("This order is refunded in full already"))
        }
        Status::Pending => {
            return Err(ApiError::conflict(
                "This order is not paid yet: cancel it instead (nothing was charged)",
            ))
        }
        Status::Cancelled | Status::Expired => {
            return Err(ApiError::conflict(
                "This order was never paid: there is nothing to refund",
            ))
        }
    }
    if money.claim.is_some() {
        return Err(ApiError::conflict(
            "A refund of this order is under way: reload in a moment",
        ));
    }
    Ok(())
}

/// Claims, asks Stripe, records: the admin's refund of `ask`, made by `by`.
pub async fn refund_order(
    state: &AppState,
    order: &Order,
    ask: &Ask,
    by: &str,
) -> Result<RefundRecord, ApiError> {
    let claim = claim(state, order, ask, by).await?;
    let key = format!("refund-{}-{}", order.id, claim.key);
    let reason: String = claim.reason.chars().take(450).collect();
    let metadata = [
        ("order_id", order.id.as_str()),
        ("claim", claim.key.as_str()),
        ("reason", reason.as_str()),
    ];
    let asked = state
        .stripe
        .create_refund(&order.payment_intent, Some(ask.amount), &key, &metadata)
        .await;
    match asked {
        Ok(refund) => record(state, &order.id, &refund).await,
        Err(error) if error.is_unavailable() => {
            tracing::warn!(order = %order.id, %error, "a refund got no answer: looking it up at Stripe");
            match claimed_refund(state, order, &claim).await {
                Ok(Some(refund)) => record(state, &order.id, &refund).await,
                Ok(None) => {
                    drop_claim(state, &order.id, &claim).await;
                    Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "Stripe could not be reached, and it holds no such refund: nothing was refunded. Try again in a minute.",
                    )
                    .caused_by(error))
                }
                Err(lookup) => {
                    tracing::warn!(order = %order.id, error = %lookup, "the refund's look-up failed too: the expiry job settles it");
                    Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "Stripe did not answer, so the refund may or may not have been made. The order shows it as under way; the shop asks Stripe again within a few minutes and records it if it was made.",
                    )
                    .caused_by(error))
                }
            }
        }
        Err(error) => {
            drop_claim(state, &order.id, &claim).await;
            let said = match &error {
                StripeError::Refused { message, .. } | StripeError::Card { message, .. } => {
                    message.clone()
                }
                StripeError::Unavailable(_) => String::new(),
            };
            tracing::error!(order = %order.id, %error, "Stripe refused a refund");
            Err(ApiError::new(
                StatusCode::BAD_GATEWAY,
                format!("Stripe refused this refund, so nothing was refunded: {said}"),
            )
            .caused_by(error))
        }
    }
}

/// The claim: what the refund is for, written with a move of the order's version, so any move read before it
/// (a "shipped" in another tab) is refused, and nothing else claims the order meanwhile.
async fn claim(
    state: &AppState,
    order: &Order,
    ask: &Ask,
    by: &str,
) -> Result<RefundClaim, ApiError> {
    let now = shared::time::now_iso();
    let claim = RefundClaim {
        key: uuid::Uuid::new_v4().simple().to_string(),
        amount_pence: ask.amount.pence(),
        lines: ask.lines.clone(),
        delivery: ask.delivery,
        restock: ask.restock,
        reason: ask.reason.clone(),
        by: by.to_owned(),
        at: now.clone(),
    };
    let json = serde_json::to_string(&claim).map_err(ApiError::internal)?;
    let on_order = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET refundClaim = :claim, version = version + :one, updatedAt = :at")
        .condition_expression(
            "version = :read AND attribute_not_exists(refundClaim) AND #status IN (:paid, :shipped, :delivered)",
        )
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":claim", s(&json))
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":at", s(&now))
        .expression_attribute_values(":read", n(order.version))
        .expression_attribute_values(":paid", s(Status::Paid.as_str()))
        .expression_attribute_values(":shipped", s(Status::Shipped.as_str()))
        .expression_attribute_values(":delivered", s(Status::Delivered.as_str()))
        .build()
        .map_err(ApiError::internal)?;
    let mut marker = claim_marker_key(&order.id);
    marker.extend([
        ("orderId".to_owned(), s(&order.id)),
        ("claimKey".to_owned(), s(&claim.key)),
        ("gsi3pk".to_owned(), s(CLAIMS)),
        (
            "gsi3sk".to_owned(),
            s(format!("{:012}#{}", shared::time::now_unix(), order.id)),
        ),
    ]);
    let marker = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(marker))
        .build()
        .map_err(ApiError::internal)?;
    let items = vec![
        TransactWriteItem::builder().update(on_order).build(),
        TransactWriteItem::builder().put(marker).build(),
    ];
    match run(state, items).await {
        Ok(()) => Ok(claim),
        Err(Failed { step: Some(0), .. }) | Err(Failed { conflict: true, .. }) => {
            Err(ApiError::conflict(
                "This order was changed meanwhile, or a refund of it is under way: reload and try again",
            ))
        }
        Err(failed) => Err(failed.error),
    }
}

/// Takes a claim off the order (Stripe refused the refund, or holds none): the order is free again.
async fn drop_claim(state: &AppState, order_id: &str, claim: &RefundClaim) {
    let Ok(json) = serde_json::to_string(claim) else {
        return;
    };
    let on_order = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(order_id)))
        .update_expression("REMOVE refundClaim SET version = version + :one")
        .condition_expression("refundClaim = :claim")
        .expression_attribute_values(":claim", s(json))
        .expression_attribute_values(":one", n(1))
        .build();
    let marker = Delete::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(claim_marker_key(order_id)))
        .build();
    let (Ok(on_order), Ok(marker)) = (on_order, marker) else {
        return;
    };
    let items = vec![
        TransactWriteItem::builder().update(on_order).build(),
        TransactWriteItem::builder().delete(marker).build(),
    ];
    if let Err(failed) = run(state, items).await {
        // Recorded meanwhile (the claim is gone with it), or the expiry job drops it later.
        tracing::warn!(order = %order_id, error = %failed.error, "a refund claim was not dropped");
    }
}

/// The refund Stripe holds for a claim, if any (found by the claim's key in its metadata).
async fn claimed_refund(
    state: &AppState,
    order: &Order,
    claim: &RefundClaim,
) -> Result<Option<stripe::Refund>, StripeError> {
    Ok(state
        .stripe
        .refunds_of(&order.payment_intent)
        .await?
        .into_iter()
        .find(|refund| refund.metadata.get("claim") == Some(&claim.key)))
}

// ---------------------------------------------------------------------------------------------------------
// Recording what Stripe holds.

fn state_of(status: RefundStatus) -> RefundState {
    match status {
        RefundStatus::Pending | RefundStatus::RequiresAction => RefundState::Pending,
        RefundStatus::Succeeded => RefundState::Succeeded,
        RefundStatus::Failed | RefundStatus::Canceled => RefundState::Failed,
    }
}

/// A refund of a sale (not of a late payment) counts in the results and gets a credit note.
fn is_late(order: &Order) -> bool {
    matches!(order.status, Status::Expired | Status::Cancelled)
}

enum Wrote {
    Done(RefundRecord),
    Raced,
}

/// Records Stripe's `refund` on order `order_id` (once: by its id), or moves its recorded status on. Answers
/// the record as it stands.
pub async fn record(
    state: &AppState,
    order_id: &str,
    refund: &stripe::Refund,
) -> Result<RefundRecord, ApiError> {
    let now_state = state_of(refund.status);
    for attempt in 0..RECORD_ATTEMPTS {
        let (order, money) = money::find(state, order_id)
            .await?
            .ok_or_else(|| ApiError::not_found("No order has this id"))?;
        if order.status == Status::Pending {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "This order's payment is not settled yet: its refund is recorded once it is",
            ));
        }
        let wrote = match money.refund(&refund.id) {
            Some(known) if known.status == now_state || known.status == RefundState::Failed => {
                return Ok(known.clone())
            }
            Some(known) => restate(state, &order, &money, known, now_state).await?,
            None => add(state, &order, &money, refund, now_state, attempt).await?,
        };
        match wrote {
            Wrote::Done(record) => return Ok(record),
            Wrote::Raced => {
                let pause = 10 + (uuid::Uuid::new_v4().as_u128() % 40) as u64;
                tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            }
        }
    }
    Err(ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "This order is changing too often to record its refund now: try again in a moment",
    ))
}

/// The order's own write of a refund: the refunds, `refunded`, the version, and what else `extra` sets.
struct OrderWrite {
    expression: String,
    update: aws_sdk_dynamodb::types::builders::UpdateBuilder,
}

impl OrderWrite {
    fn new(
        state: &AppState,
        order: &Order,
        refunds: &[RefundRecord],
        refunded: Pence,
        at: &str,
    ) -> Result<Self, ApiError> {
        let json = serde_json::to_string(refunds).map_err(ApiError::internal)?;
        Ok(OrderWrite {
            expression:
                "SET refunds = :refunds, refundedPence = :refunded, version = version + :one, \
                         updatedAt = :at"
                    .to_owned(),
            update: Update::builder()
                .table_name(&state.tables.orders)
                .set_key(Some(order_key(&order.id)))
                .condition_expression("version = :read")
                .expression_attribute_values(":refunds", s(json))
                .expression_attribute_values(":refunded", n(refunded.pence()))
                .expression_attribute_values(":one", n(1))
                .expression_attribute_values(":at", s(at))
                .expression_attribute_values(":read", n(order.version)),
        })
    }

    fn status(mut self, to: Status, at: &str) -> Self {
        self.expression.push_str(
            ", #status = :to, history = list_append(if_not_exists(history, :none), :change)",
        );
        self.update = self
            .update
            .expression_attribute_names("#status", "status")
            .expression_attribute_values(":to", s(to.as_str()))
            .expression_attribute_values(":none", AttributeValue::L(Vec::new()))
            .expression_attribute_values(":change", StatusChange::entry(to, at));
        self
    }

    fn holds(mut self, holds: &[Hold]) -> Result<Self, ApiError> {
        self.expression.push_str(", holds = :holds");
        self.update = self.update.expression_attribute_values(
            ":holds",
            s(serde_json::to_string(holds).map_err(ApiError::internal)?),
        );
        Ok(self)
    }

    fn build(self, remove_claim: bool) -> Result<TransactWriteItem, ApiError> {
        let mut expression = self.expression;
        if remove_claim {
            expression.push_str(" REMOVE refundClaim");
        }
        let update = self
            .update
            .update_expression(expression)
            .build()
            .map_err(ApiError::internal)?;
        Ok(TransactWriteItem::builder().update(update).build())
    }
}

/// The next credit note's number and the counter's move to it (conditional on the value read).
async fn next_credit_note(state: &AppState) -> Result<(u64, TransactWriteItem), ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(credit_counter_key()))
        .consistent_read(true)
        .send()
        .await?;
    let last = found
        .item()
        .and_then(|item| get_n::<u64>(item, "last").ok());
    let number = last.map_or(FIRST_CREDIT_NOTE, |last| last + 1);
    let update = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(credit_counter_key()))
        .update_expression("SET #last = :number")
        .expression_attribute_names("#last", "last")
        .expression_attribute_values(":number", n(number));
    let update = match last {
        Some(last) => update
            .condition_expression("#last = :read")
            .expression_attribute_values(":read", n(last)),
        None => update.condition_expression("attribute_not_exists(#last)"),
    };
    Ok((
        number,
        TransactWriteItem::builder()
            .update(update.build().map_err(ApiError::internal)?)
            .build(),
    ))
}

/// A refund the order has not recorded yet.
async fn add(
    state: &AppState,
    order: &Order,
    money: &OrderMoney,
    refund: &stripe::Refund,
    refund_state: RefundState,
    attempt: usize,
) -> Result<Wrote, ApiError> {
    let now = shared::time::now_iso();
    let late = is_late(order);
    let claim = money
        .claim
        .as_ref()
        .filter(|claim| refund.metadata.get("claim") == Some(&claim.key));
    let amount = Pence::new(refund.amount).map_err(|e| ApiError::internal(e.to_string()))?;
    let counts = refund_state.counts();
    let sale = !late && counts;
    let refunded = match counts {
        true => money.refunded.plus(amount),
        false => money.refunded,
    };
    let whole = refunded >= order.total;
    let vat = match order.vat_rate {
        Some(rate) if sale => vat_in(amount, rate),
        _ => Pence::ZERO,
    };
    let mut items = Vec::new();
    let credit_note = match (sale, order.vat_rate) {
        (true, Some(rate)) => {
            let (number, counter) = next_credit_note(state).await?;
            items.push(counter);
            Some(CreditNote {
                number,
                vat_pence: vat.pence(),
                vat_rate: rate,
            })
        }
        _ => None,
    };
    let record = RefundRecord {
        id: refund.id.clone(),
        amount_pence: amount.pence(),
        reason: match (claim, late) {
            (Some(claim), _) => claim.reason.clone(),
            (None, true) => "The payment arrived after the order was released".to_owned(),
            (None, false) => refund
                .metadata
                .get("reason")
                .cloned()
                .unwrap_or_else(|| "Refunded at Stripe".to_owned()),
        },
        by: match (claim, late) {
            (Some(claim), _) => claim.by.clone(),
            (None, true) => "shop".to_owned(),
            (None, false) => "stripe".to_owned(),
        },
        at: now.clone(),
        status: refund_state,
        lines: claim.map(|c| c.lines.clone()).unwrap_or_default(),
        delivery: claim.is_some_and(|c| c.delivery),
        restocked: sale && claim.is_some_and(|c| c.restock),
        credit_note,
        late,
    };
    let mut refunds = money.refunds.clone();
    refunds.push(record.clone());
    let mut write = OrderWrite::new(state, order, &refunds, refunded, &now)?;
    if sale && whole && order.status.is_paid() {
        write = write.status(Status::Refunded, &now);
        // Refunded in full, the card's issuer has nothing left to warn about.
        if money
            .holds
            .iter()
            .any(|h| h.is_open() && h.kind == money::HoldKind::FraudWarning)
        {
            let holds: Vec<Hold> = money
                .holds
                .iter()
                .cloned()
                .map(|mut hold| {
                    if hold.is_open() && hold.kind == money::HoldKind::FraudWarning {
                        hold.outcome = Some("refunded".to_owned());
                        hold.closed_at = Some(now.clone());
                    }
                    hold
                })
                .collect();
            write = write.holds(&holds)?;
        }
    }
    // The order's write goes first, so a refused condition at step 0 means it changed meanwhile.
    items.insert(0, write.build(claim.is_some())?);
    if claim.is_some() {
        let marker = Delete::builder()
            .table_name(&state.tables.orders)
            .set_key(Some(claim_marker_key(&order.id)))
            .build()
            .map_err(ApiError::internal)?;
        items.push(TransactWriteItem::builder().delete(marker).build());
    }
    let mut restocked = false;
    if sale {
        if record.restocked && attempt < STOCK_ATTEMPTS {
            let lines: Vec<(String, u32)> = record
                .lines
                .iter()
                .map(|l| (l.product.clone(), l.qty))
                .collect();
            let back = crate::stock::stock_back(state, order, &lines).await?;
            restocked = !back.is_empty();
            items.extend(back);
        }
        if whole && attempt < STOCK_ATTEMPTS {
            items.extend(crate::stock::code_back(state, order).await?);
        }
        let units: u32 = record.lines.iter().map(|l| l.qty).sum();
        items.push(results_update(
            &state.tables.orders,
            &now[..7],
            Figures::refund(amount.pence(), vat.pence(), i64::from(units), 1),
        )?);
    }
    if counts {
        items.push(ledger_put(
            &state.tables.orders,
            &LedgerLine {
                entry: Entry::Refund,
                at: &now,
                id: &record.id,
                order,
                amount_pence: amount.pence(),
                vat_pence: vat.pence(),
            },
        )?);
    }
    let mut pending = Vec::new();
    if counts {
        let trader = state.trader().await?;
        let links = Links::for_order(state, order);
        let mail = if late {
            late_refund_mail(&trader, &links, order, &record.id)
        } else {
            refund_mail(
                &trader,
                &links,
                &state.site_url,
                order,
                &RefundNotice {
                    refund_id: &record.id,
                    amount,
                    lines: record
                        .lines
                        .iter()
                        .map(|l| (l.name.as_str(), l.qty))
                        .collect(),
                    delivery: record.delivery,
                    whole,
                    credit_note: record
                        .credit_note
                        .map(|note| format!("{CREDIT_NOTE_PREFIX}{}", note.number)),
                },
            )
        };
        let (item, handle) = queued(state, mail)?;
        items.push(item);
        pending.push(handle);
    }
    match run(state, items).await {
        Ok(()) => {
            for mail in pending {
                state.outbox.enqueue(mail).await;
            }
            if restocked {
                state.alert_waiting(order).await;
            }
            tracing::info!(order = %order.id, refund = %record.id, amount = amount.pence(), "refund recorded");
            Ok(Wrote::Done(record))
        }
        Err(Failed { step: Some(_), .. }) | Err(Failed { conflict: true, .. }) => Ok(Wrote::Raced),
        Err(failed) => Err(failed.error),
    }
}

/// A recorded refund whose status moved: pending → succeeded changes nothing else; a refund that failed gives
/// its money back to the shop (the order's `refunded`, the results of the month it was made, the ledger)
/// and an order refunded in full by it is paid again as it was.
async fn restate(
    state: &AppState,
    order: &Order,
    money: &OrderMoney,
    known: &RefundRecord,
    to: RefundState,
) -> Result<Wrote, ApiError> {
    let now = shared::time::now_iso();
    let mut refunds = money.refunds.clone();
    for record in refunds.iter_mut().filter(|r| r.id == known.id) {
        record.status = to;
    }
    let failed = to == RefundState::Failed && known.status.counts();
    let refunded = match failed {
        true => money.refunded.minus(known.amount()),
        false => money.refunded,
    };
    let mut write = OrderWrite::new(state, order, &refunds, refunded, &now)?;
    let mut items = Vec::new();
    if failed {
        tracing::error!(
            order = %order.id, refund = %known.id, amount = known.amount_pence,
            "REFUND-FAILED: the bank could not make a refund; the money stayed with the shop"
        );
        if order.status == Status::Refunded && refunded < order.total {
            // Back to where it stood before it was refunded in full.
            let before = order
                .history
                .iter()
                .rev()
                .map(|change| change.status)
                .find(|status| status.is_paid())
                .unwrap_or(Status::Paid);
            write = write.status(before, &now);
            items.extend(crate::stock::code_retake(state, order).await?);
        }
        if !known.late {
            let units: u32 = known.lines.iter().map(|l| l.qty).sum();
            let vat = known.credit_note.map_or(0, |note| note.vat_pence);
            items.push(results_update(
                &state.tables.orders,
                known.at.get(..7).unwrap_or(&now[..7]),
                Figures::refund(known.amount_pence, vat, i64::from(units), -1),
            )?);
        }
        items.push(ledger_put(
            &state.tables.orders,
            &LedgerLine {
                entry: Entry::RefundFailed,
                at: &now,
                id: &known.id,
                order,
                amount_pence: known.amount_pence,
                vat_pence: known.credit_note.map_or(0, |note| note.vat_pence),
            },
        )?);
    }
    items.insert(0, write.build(false)?);
    match run(state, items).await {
        Ok(()) => Ok(Wrote::Done(
            refunds
                .into_iter()
                .find(|r| r.id == known.id)
                .ok_or_else(|| ApiError::internal("a restated refund went missing"))?,
        )),
        Err(Failed { step: Some(_), .. }) | Err(Failed { conflict: true, .. }) => Ok(Wrote::Raced),
        Err(failed) => Err(failed.error),
    }
}

/// Records every refund Stripe holds for the order's payment (what `charge.refunded` and the expiry's
/// look-ups do): answers the order's `refunded` afterwards, in pence.
pub async fn record_all(state: &AppState, order: &Order) -> Result<i64, ApiError> {
    let mut refunds = state.stripe.refunds_of(&order.payment_intent).await?;
    // Oldest first, so credit notes are numbered in the order the refunds were made.
    refunds.sort_by_key(|refund| refund.created);
    let mut refunded = 0;
    for refund in &refunds {
        let record = record(state, &order.id, refund).await?;
        if record.status.counts() {
            refunded += record.amount_pence;
        }
    }
    Ok(refunded)
}

/// The expiry job's part: every claim older than a couple of minutes is settled by what Stripe holds. A
/// refund made is recorded; none made frees the order; Stripe silent leaves it for the next run. Answers how
/// many were settled; each claim is handled on its own (one failure is logged, the rest go on).
pub async fn settle_claims(state: &AppState, now: i64) -> Result<u32, ApiError> {
    let mut settled = 0;
    let listed = crate::index::query_all(state, "gsi3", "gsi3pk", CLAIMS).await?;
    for marker in listed {
        let Ok(sort) = get_s(&marker, "gsi3sk") else {
            continue;
        };
        let since: i64 = sort
            .split('#')
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        if now - since < CLAIM_SETTLE_SECONDS {
            continue;
        }
        let Some(order_id) = get_s(&marker, "pk")
            .ok()
            .and_then(|pk| pk.strip_prefix("CLAIM#").map(str::to_owned))
        else {
            continue;
        };
        match settle_claim(state, &order_id).await {
            Ok(true) => settled += 1,
            Ok(false) => {}
            Err(error) => tracing::error!(
                order = %order_id, ?error,
                "ORDER-MOVE-FAILED: a refund claim could not be settled: the next run tries again"
            ),
        }
    }
    Ok(settled)
}

async fn settle_claim(state: &AppState, order_id: &str) -> Result<bool, ApiError> {
    let Some((order, money)) = money::find(state, order_id).await? else {
        remove_marker(state, order_id).await?;
        return Ok(true);
    };
    let Some(claim) = money.claim.clone() else {
        // Recorded meanwhile: only the listing is left.
        remove_marker(state, order_id).await?;
        return Ok(true);
    };
    match claimed_refund(state, &order, &claim).await {
        Ok(Some(refund)) => {
            record(state, order_id, &refund).await?;
            Ok(true)
        }
        Ok(None) => {
            tracing::warn!(order = %order_id, "a refund Stripe never made: its claim is dropped");
            drop_claim(state, order_id, &claim).await;
            Ok(true)
        }
        Err(error) => {
            tracing::warn!(order = %order_id, %error, "a refund claim waits for Stripe");
            Ok(false)
        }
    }
}

async fn remove_marker(state: &AppState, order_id: &str) -> Result<(), ApiError> {
    state
        .db
        .delete_item()
        .table_name(&state.tables.orders)
        .set_key(Some(claim_marker_key(order_id)))
        .send()
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::Line;

    fn order() -> Order {
        let line = |product: &str, price_pence, qty| Line {
            product: product.into(),
            name: format!("drink {product}"),
            image: String::new(),
            qty,
            quantity: "12 x 330ml".into(),
            price_pence,
        };
        Order {
            id: "o".into(),
            archived_at: None,
            delivery: None,
            age_check: false,
            terms_version: None,
            unpaid_counted: false,
            number: Some(10_001),
            lines: vec![line("a", 1000, 2), line("b", 500, 1)],
            subtotal: Pence::new(2500).unwrap(),
            discount: Pence::ZERO,
            shipping: Pence::new(499).unwrap(),
            total: Pence::new(2999).unwrap(),
            vat_rate: Some(20),
            vat: Some(Pence::new(500).unwrap()),
            code: None,
            code_rate: shared::money::Percent::ZERO,
            code_marked: false,
            card_mark: None,
            status: Status::Paid,
            fullname: "Amira Haddad".into(),
            address: "1 High St".into(),
            phone: "07700 900123".into(),
            email: "a@example.com".into(),
            message: String::new(),
            card_brand: "visa".into(),
            card_last4: "4242".into(),
            payment_intent: "pi_1".into(),
            hold_until: 0,
            idempotency_key: None,
            refund_id: None,
            client: None,
            carrier: None,
            tracking_number: None,
            history: Vec::new(),
            created_at: "2026-01-01T00:00:00Z".into(),
            updated_at: "2026-01-01T00:00:00Z".into(),
            version: 1,
        }
    }

    fn money() -> OrderMoney {
        OrderMoney {
            refunded: Pence::ZERO,
            refunds: Vec::new(),
            holds: Vec::new(),
            claim: None,
            counts_when_paid: true,
        }
    }

    fn input(json: serde_json::Value) -> RefundInput {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_line_and_the_delivery_come_to_their_prices() {
        let asked = ask(
            &order(),
            &money(),
            &input(serde_json::json!({"lines": [{"product": "a", "qty": 1}], "delivery": true, "reason": "broken can"})),
        )
        .unwrap();
        assert_eq!(asked.amount.pence(), 1000 + 499);
        assert!(!asked.restock);
    }

    #[test]
    fn more_units_than_bought_or_more_money_than_left_is_refused() {
        let too_many = ask(
            &order(),
            &money(),
            &input(serde_json::json!({"lines": [{"product": "a", "qty": 3}], "reason": "x"})),
        );
        assert_eq!(
            too_many.unwrap_err().message(),
            "lines: 2 of drink a can still be refunded"
        );
        let mut partly = money();
        partly.refunded = Pence::new(2900).unwrap();
        let too_much = ask(
            &order(),
            &partly,
            &input(serde_json::json!({"lines": [], "amount": 1.00, "reason": "x"})),
        );
        assert_eq!(
            too_much.unwrap_err().message(),
            "amount: at most £0.99 of this order can still be refunded"
        );
        let nothing = ask(
            &order(),
            &money(),
            &input(serde_json::json!({"lines": [], "reason": "x"})),
        );
        assert!(nothing.unwrap_err().message().contains("Choose"));
        let stranger = ask(
            &order(),
            &money(),
            &input(serde_json::json!({"lines": [{"product": "z", "qty": 1}], "reason": "x"})),
        );
        assert_eq!(
            stranger.unwrap_err().message(),
            "lines: z is not on this order"
        );
    }

    #[test]
    fn the_whole_order_is_every_unit_and_the_delivery() {
        let whole = Ask::whole(&order(), &money(), "cancelled", true);
        assert_eq!(whole.amount.pence(), 2999);
        assert!(whole.delivery);
        assert_eq!(whole.lines.iter().map(|l| l.qty).sum::<u32>(), 3);
    }
}
