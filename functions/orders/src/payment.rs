//! Where money moves an order. An order is written `pending` with its stock and code use reserved; then
//! Stripe's PaymentIntent decides: `paid` (the month's results and the ledger count it, and the e-mails go,
//! once), or `expired` with everything given back and the PaymentIntent cancelled at Stripe. The checkout,
//! the confirm call after 3-D Secure, the webhook and the expiry job all move orders through these few
//! conditional writes, so when two of them race exactly one wins and the other changes nothing.

use crate::order::{order_key, Order, Status, StatusChange, COUNTS_WHEN_PAID, UNPAID_COUNTED};
use crate::records::{ledger_put, results_update, uncount_placed, Entry, Figures, LedgerLine};
use crate::stripe::{decline_message, Intent, IntentStatus, StripeError};
use crate::AppState;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem, Update};
use http::StatusCode;
use serde::Deserialize;
use shared::dynamo::{n, s, Item};
use shared::ApiError;

/// How long a handled Stripe event id is remembered (Stripe retries deliveries for up to three days).
const EVENT_TTL: i64 = 30 * 24 * 60 * 60;

/// What the browser sends about the card: the PaymentMethod Stripe.js made, never the card itself.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentInput {
    /// Always "stripe".
    #[schemars(extend("const" = "stripe"))]
    pub provider: String,
    /// The `pm_...` id Stripe.js made: at most 100 letters, digits and _ once trimmed.
    #[serde(rename = "paymentMethod")]
    #[schemars(regex(pattern = r"^\s*pm_[A-Za-z0-9_]{0,97}\s*$"))]
    pub payment_method: String,
}

impl PaymentInput {
    /// The PaymentMethod id, checked for shape before anything is reserved.
    pub fn method(&self) -> Result<&str, ApiError> {
        if self.provider != "stripe" {
            return Err(ApiError::invalid("payment: provider must be \"stripe\""));
        }
        let id = self.payment_method.trim();
        let well_formed = id.starts_with("pm_")
            && id.len() <= 100
            && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !well_formed {
            return Err(ApiError::invalid(
                "payment: paymentMethod must be the pm_... id Stripe.js made",
            ));
        }
        Ok(id)
    }
}

/// The outcome of a conditional move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// This call moved the order.
    Now,
    /// Someone else had moved it already (or it was never in the state this move starts from).
    Already,
    /// This Stripe event was handled before: nothing changed.
    RepeatedEvent,
}

/// Where a payment stands after the shop has looked at its PaymentIntent.
#[derive(Debug)]
pub enum Settlement {
    Paid,
    /// The card's bank wants the shopper to confirm (3-D Secure): Stripe.js needs this secret.
    NeedsAction {
        client_secret: String,
    },
    /// Refused or abandoned: the reservation is released; the reason in plain words.
    Failed {
        message: String,
    },
    /// A 3-D Secure order refused because unpaid orders hold as much of a drink as they may
    /// (crate::unpaid): the payment is cancelled and the reservation released; a 409 with `Retry-After`.
    Crowded {
        refusal: ApiError,
    },
    /// Stripe is still working on it (or could not be reached): the webhook or the expiry job will finish it.
    Waiting,
}

pub(crate) fn event_put(table: &str, event_id: &str) -> Result<TransactWriteItem, ApiError> {
    let item = Item::from([
        ("pk".to_owned(), s(format!("STRIPE_EVENT#{event_id}"))),
        ("sk".to_owned(), s("EVENT")),
        (
            "expiresAt".to_owned(),
            n(shared::time::now_unix() + EVENT_TTL),
        ),
    ]);
    put(table, item, "attribute_not_exists(pk)")
}

fn put(table: &str, item: Item, condition: &str) -> Result<TransactWriteItem, ApiError> {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .condition_expression(condition)
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

/// Records a Stripe event that moves nothing; false when it was recorded before.
pub async fn record_event(state: &AppState, event_id: &str) -> Result<bool, ApiError> {
    let written = run(state, vec![event_put(&state.tables.orders, event_id)?]).await;
    match written {
        Ok(()) => Ok(true),
        Err(failed) if failed.step == Some(0) => Ok(false),
        Err(failed) => Err(failed.error),
    }
}

/// The counters of open unpaid orders an order counts in while it is pending: its e-mail's, and its viewer
/// address's when it has one; `true` marks the address's.
pub fn open_unpaid_keys(order: &Order) -> Vec<(Item, bool)> {
    let key = |what: String| crate::personal::open_unpaid_key(&what);
    let mut keys = vec![(key(format!("email#{}", order.email)), false)];
    if let Some(client) = &order.client {
        keys.push((key(format!("ip#{client}")), true));
    }
    keys
}

/// The items that take a pending order off its open-unpaid counters, with the write that moves it on.
fn open_unpaid_release(
    state: &AppState,
    order: &Order,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    open_unpaid_keys(order)
        .into_iter()
        .map(|(key, _)| {
            let update = Update::builder()
                .table_name(&state.tables.orders)
                .set_key(Some(key))
                .update_expression("ADD #open :minus")
                .expression_attribute_names("#open", "open")
                .expression_attribute_values(":minus", n(-1))
                .build()
                .map_err(ApiError::internal)?;
            Ok(TransactWriteItem::builder().update(update).build())
        })
        .collect()
}

/// A 3-D Secure step waits for the shopper: the order's hold is cut to the short one, so an abandoned
/// challenge frees the stock within minutes (the expiry job releases it).
pub async fn shorten_hold(state: &AppState, order: &Order) -> Result<(), ApiError> {
    let until = (shared::time::now_unix() + state.action_hold_seconds).min(order.hold_until);
    let result = state
        .db
        .update_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET holdUntil = :until, gsi3sk = :hold")
        .condition_expression("#status = :pending AND holdUntil > :until")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":pending", s(Status::Pending.as_str()))
        .expression_attribute_values(":until", n(until))
        .expression_attribute_values(":hold", s(crate::order::hold_key(until, &order.id)))
        .send()
        .await;
    shared::dynamo::applied(result).map(drop)
}

/// The order's own write when it leaves `from`: new status, one version on, off the pending index. With
/// `unpaid_counted`, only while the order's mark in the drinks' unpaid holds is as read (the give-back in
/// the same transaction was built from it).
pub(crate) fn status_write(
    state: &AppState,
    order: &Order,
    from: Status,
    to: Status,
    extra_set: &[(&str, String)],
    unpaid_counted: Option<bool>,
) -> Result<TransactWriteItem, ApiError> {
    let now = shared::time::now_iso();
    let mut expression = String::from(
        "SET #status = :to, updatedAt = :at, version = version + :one, \
         history = list_append(if_not_exists(history, :none), :change)",
    );
    let mut update = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .condition_expression(match unpaid_counted {
            None => "#status = :from",
            Some(false) => "#status = :from AND attribute_not_exists(#counted)",
            Some(true) => "#status = :from AND #counted = :yes",
        })
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":to", s(to.as_str()))
        .expression_attribute_values(":from", s(from.as_str()))
        .expression_attribute_values(":at", s(&now))
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":none", AttributeValue::L(Vec::new()))
        .expression_attribute_values(":change", StatusChange::entry(to, &now));
    for (index, (name, value)) in extra_set.iter().enumerate() {
        expression.push_str(&format!(", {name} = :x{index}"));
        update = update.expression_attribute_values(format!(":x{index}"), s(value));
    }
    expression.push_str(" REMOVE gsi3pk, gsi3sk");
    match unpaid_counted {
        Some(true) => {
            update = update
                .expression_attribute_names("#counted", UNPAID_COUNTED)
                .expression_attribute_values(":yes", shared::dynamo::b(true));
        }
        Some(false) => update = update.expression_attribute_names("#counted", UNPAID_COUNTED),
        None => {}
    }
    let update = update
        .update_expression(expression)
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// A transaction that did not go through.
pub(crate) struct Failed {
    /// Which item's condition failed, when one did.
    pub step: Option<usize>,
    /// DynamoDB was too busy for it, still after the retries: another transaction held one of its items
    /// (TransactionConflict) or an item or table was past its write ceiling (throttled). Nothing was written;
    /// `error` is then a 503 that says so.
    pub conflict: bool,
    pub error: ApiError,
}

/// How often a transaction cancelled for contention is sent again before the caller is told. A cancelled
/// transaction wrote nothing, so sending it again is always safe; past these the shop answers "busy"
/// rather than keep a shopper waiting.
const BUSY_RETRIES: u32 = 5;
/// The first wait before a retry, doubled each time up to the cap. Each wait is a random share of that
/// ("full jitter"): transactions that collided spread out instead of colliding again in step.
const BUSY_BASE_MS: u64 = 20;
const BUSY_CAP_MS: u64 = 400;

/// The wait before the `retry`th retry (from 1).
fn busy_backoff(retry: u32) -> std::time::Duration {
    let ceiling = (BUSY_BASE_MS << retry.min(8)).min(BUSY_CAP_MS);
    let jitter = (uuid::Uuid::new_v4().as_u128() % u128::from(ceiling + 1)) as u64;
    std::time::Duration::from_millis(jitter)
}

/// The answer when DynamoDB stayed too busy: nothing was written, so trying again later is safe.
pub(crate) fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "The shop is busy right now, so nothing was changed: please try again in a moment.",
    )
    .retry_after(2)
}

/// Runs a transaction; a refusal says which item's condition failed. A transaction DynamoDB cancelled for
/// contention goes again a few times, after a jittered wait.
pub(crate) async fn run(state: &AppState, items: Vec<TransactWriteItem>) -> Result<(), Failed> {
    let mut retries = 0;
    loop {
        match run_once(state, items.clone()).await {
            Err(failed) if failed.conflict && failed.step.is_none() && retries < BUSY_RETRIES => {
                retries += 1;
                tokio::time::sleep(busy_backoff(retries)).await;
            }
            Err(failed) if failed.conflict && failed.step.is_none() => {
                tracing::warn!(cause = ?failed.error, "DynamoDB stayed busy for a transaction");
                return Err(Failed {
                    error: busy(),
                    ..failed
                });
            }
            done => return done,
        }
    }
}

async fn run_once(state: &AppState, items: Vec<TransactWriteItem>) -> Result<(), Failed> {
    let written = state
        .db
        .transact_write_items()
        .set_transact_items(Some(items))
        .send()
        .await;
    let Err(error) = written else {
        return Ok(());
    };
    let (reasons, throttled) = match error.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => {
            (cancelled.cancellation_reasons(), false)
        }
        Some(
            TransactWriteItemsError::ProvisionedThroughputExceededException(_)
            | TransactWriteItemsError::RequestLimitExceeded(_)
            | TransactWriteItemsError::ThrottlingException(_)
            | TransactWriteItemsError::TransactionInProgressException(_),
        ) => (&[][..], true),
        _ => (&[][..], false),
    };
    let step = reasons
        .iter()
        .position(|reason| reason.code() == Some("ConditionalCheckFailed"));
    let conflict = throttled
        || reasons.iter().any(|reason| {
            matches!(
                reason.code(),
                Some("TransactionConflict" | "ProvisionedThroughputExceeded" | "ThrottlingError")
            )
        });
    Err(Failed {
        step,
        conflict,
        error: ApiError::internal(error),
    })
}

/// How many times a move is built again after its give-back raced a delete (a drink or code deleted between
/// the read and the write); the last time it goes without what cannot be given back (stock.rs).
const GIVE_BACK_ATTEMPTS: usize = 3;

/// What a move's transaction did.
enum Ran {
    Moved(Moved),
    /// An item other than the order's and the event's was refused: built from a stale read, build it again.
    Raced,
}

/// Runs a move whose first item is the order's conditional write and whose last (with `event`) records
/// the Stripe event.
async fn run_move(
    state: &AppState,
    mut items: Vec<TransactWriteItem>,
    event: Option<&str>,
) -> Result<Ran, ApiError> {
    if let Some(event) = event {
        items.push(event_put(&state.tables.orders, event)?);
    }
    let last = items.len() - 1;
    match run(state, items).await {
        Ok(()) => Ok(Ran::Moved(Moved::Now)),
        Err(Failed { step: Some(0), .. }) => Ok(Ran::Moved(match event {
            // The order had moved already; the event is still worth remembering.
            Some(event) => {
                if record_event(state, event).await? {
                    Moved::Already
                } else {
                    Moved::RepeatedEvent
                }
            }
            None => Moved::Already,
        })),
        Err(Failed {
            step: Some(step), ..
        }) if event.is_some() && step == last => Ok(Ran::Moved(Moved::RepeatedEvent)),
        Err(Failed { step: Some(_), .. }) | Err(Failed { conflict: true, .. }) => Ok(Ran::Raced),
        Err(failed) => Err(failed.error),
    }
}

/// What a move reads of the order as it is stored now, besides what the caller holds.
#[derive(Debug, Clone, Copy)]
struct Fresh {
    /// Where it stands (`None`: no such order, or unreadable).
    status: Option<Status>,
    /// The month's results count it when it is paid (see `money::OrderMoney::counts_when_paid`).
    counts_when_paid: bool,
    /// It is counted in its drinks' unpaid holds (crate::unpaid): leaving `pending` gives them back.
    unpaid_counted: bool,
}

async fn fresh(state: &AppState, order: &Order) -> Result<Fresh, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .projection_expression("#status, #counted, #unpaid")
        .expression_attribute_names("#status", "status")
        .expression_attribute_names("#counted", COUNTS_WHEN_PAID)
        .expression_attribute_names("#unpaid", UNPAID_COUNTED)
        .consistent_read(true)
        .send()
        .await?;
    let item = found.item();
    Ok(Fresh {
        status: item
            .and_then(|item| shared::dynamo::get_s(item, "status").ok())
            .and_then(|status| Status::parse(&status)),
        counts_when_paid: item.is_some_and(|item| shared::dynamo::get_bool(item, COUNTS_WHEN_PAID)),
        unpaid_counted: item.is_some_and(|item| shared::dynamo::get_bool(item, UNPAID_COUNTED)),
    })
}

/// After a move found the order moved already: the fresh read when the order is in fact still pending and
/// was counted in its drinks' unpaid holds since `read` (its 3-D Secure step began meanwhile), so the move
/// is built again with the give-back. The mark is only ever set once, so this happens at most once.
async fn counted_since(
    state: &AppState,
    order: &Order,
    read: Fresh,
) -> Result<Option<Fresh>, ApiError> {
    let now = fresh(state, order).await?;
    Ok(
        (now.status == Some(Status::Pending) && now.unpaid_counted != read.unpaid_counted)
            .then_some(now),
    )
}

/// What counting an order in its drinks' unpaid holds came to.
enum Counted {
    /// Counted (now, or before).
    Yes,
    /// A drink's unpaid holds are full: its name.
    Refused(String),
    /// The order is not pending any more: where it stands.
    MovedOn(Option<Status>),
}

/// Counts a pending order whose 3-D Secure step has begun in its drinks' unpaid holds, within their caps
/// (crate::unpaid), in one transaction with the order's mark.
async fn count_unpaid(state: &AppState, order: &Order) -> Result<Counted, ApiError> {
    if order.unpaid_counted {
        return Ok(Counted::Yes);
    }
    let (items, drinks) = crate::unpaid::count_items(state, order).await?;
    match run(state, items).await {
        Ok(()) => Ok(Counted::Yes),
        Err(Failed { step: Some(0), .. }) => {
            // Counted by another call meanwhile (the confirm call, the webhook), or moved on.
            let now = fresh(state, order).await?;
            match now.status {
                Some(Status::Pending) if now.unpaid_counted => Ok(Counted::Yes),
                Some(Status::Pending) => Err(busy()),
                other => Ok(Counted::MovedOn(other)),
            }
        }
        Err(Failed {
            step: Some(step), ..
        }) => Ok(Counted::Refused(
            drinks.get(step - 1).cloned().unwrap_or_default(),
        )),
        Err(failed) => Err(failed.error),
    }
}

/// pending → paid. The customer joins the shop's e-mail list, and the confirmation and the shop's notice are
/// written to the outbox in the same transaction: whichever path makes the move, they exist once, and the
/// sender sends each once.
pub async fn mark_paid(
    state: &AppState,
    order: &Order,
    event: Option<&str>,
) -> Result<Moved, ApiError> {
    let mut customer = crate::personal::customer_key(&order.email);
    customer.extend([
        ("gsi2pk".to_owned(), s("CUSTOMERS")),
        ("gsi2sk".to_owned(), s(&order.email)),
    ]);
    customer.insert("email".to_owned(), s(&order.email));
    let customer = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(customer))
        .build()
        .map_err(ApiError::internal)?;
    let mut paid = order.clone();
    paid.status = Status::Paid;
    let mut read = fresh(state, order).await?;
    let mut event = event;
    loop {
        let (mails, pending) = crate::mail::confirmations(state, &paid).await?;
        let now = shared::time::now_iso();
        let mut items = vec![
            status_write(
                state,
                order,
                Status::Pending,
                Status::Paid,
                &[],
                Some(read.unpaid_counted),
            )?,
            TransactWriteItem::builder().put(customer.clone()).build(),
        ];
        items.extend(open_unpaid_release(state, order)?);
        items.extend(crate::unpaid::give_back(state, order, read.unpaid_counted)?);
        items.extend(mails);
        if read.counts_when_paid {
            // Counted in the month it is paid, whatever month it was placed in.
            items.push(results_update(
                &state.tables.orders,
                &now[..7],
                Figures::paid(order),
            )?);
        }
        items.push(ledger_put(
            &state.tables.orders,
            &LedgerLine {
                entry: Entry::Payment,
                at: &now,
                id: &order.id,
                order,
                amount_pence: order.total.pence(),
                vat_pence: order.vat.map_or(0, |v| v.pence()),
            },
        )?);
        // Nothing here gives anything back: a refused item is a conflict with another move; the order's own
        // condition decides on the next round.
        if let Ran::Moved(moved) = run_move(state, items, event).await? {
            if moved != Moved::Now {
                if let Some(now) = counted_since(state, order, read).await? {
                    // The event (if any) is recorded already: the move goes again without it.
                    (read, event) = (now, None);
                    continue;
                }
            }
            if moved == Moved::Now {
                for mail in pending {
                    state.outbox.enqueue(mail).await;
                }
            }
            return Ok(moved);
        }
    }
}

/// The `gsi3` partition of released orders whose PaymentIntent is still to be cancelled at Stripe.
pub const CANCEL_DUE: &str = "CANCEL-DUE";

/// The record that a released order's PaymentIntent is to be cancelled (written with the release, removed
/// once Stripe has cancelled it or the payment turned out to have completed).
pub fn cancel_due_key(order_id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("CANCEL#{order_id}"))),
        ("sk".to_owned(), s("CANCEL")),
    ])
}

/// pending → `to` (expired, or cancelled by an admin): the reservation and the Idempotency-Key go back, and
/// the PaymentIntent is cancelled at Stripe (so nobody can complete it later); a cancel Stripe does not
/// answer stays due for the expiry job. A drink or code deleted meanwhile never stops it (stock.rs).
pub async fn release(
    state: &AppState,
    order: &Order,
    to: Status,
    event: Option<&str>,
) -> Result<Moved, ApiError> {
    let mut read = fresh(state, order).await?;
    let mut event = event;
    let mut attempt = 0;
    while attempt <= GIVE_BACK_ATTEMPTS {
        attempt += 1;
        let mut items = vec![status_write(
            state,
            order,
            Status::Pending,
            to,
            &[],
            Some(read.unpaid_counted),
        )?];
        items.extend(open_unpaid_release(state, order)?);
        items.extend(crate::unpaid::give_back(state, order, read.unpaid_counted)?);
        if !read.counts_when_paid {
            items.push(uncount_placed(&state.tables.orders, order)?);
        }
        if let Some(key) = &order.idempotency_key {
            let delete = Delete::builder()
                .table_name(&state.tables.orders)
                .set_key(Some(crate::records::idempotency_item_key(key)))
                .build()
                .map_err(ApiError::internal)?;
            items.push(TransactWriteItem::builder().delete(delete).build());
        }
        if !order.payment_intent.is_empty() {
            let mut due = cancel_due_key(&order.id);
            due.extend([
                ("orderId".to_owned(), s(&order.id)),
                ("paymentIntent".to_owned(), s(&order.payment_intent)),
                ("gsi3pk".to_owned(), s(CANCEL_DUE)),
                (
                    "gsi3sk".to_owned(),
                    s(format!("{:012}#{}", shared::time::now_unix(), order.id)),
                ),
            ]);
            items.push(put(&state.tables.orders, due, "attribute_not_exists(pk)")?);
        }
        if attempt <= GIVE_BACK_ATTEMPTS {
            items.extend(
                crate::stock::stock_back(state, order, &crate::stock::all_lines(order)).await?,
            );
            items.extend(crate::stock::code_back(state, order).await?);
        } else {
            tracing::error!(
                order = %order.id,
                "ORDER-MOVE-FAILED: stock and code use not given back after {GIVE_BACK_ATTEMPTS} tries; the order is released without them"
            );
        }
        if let Ran::Moved(moved) = run_move(state, items, event).await? {
            if moved != Moved::Now {
                if let Some(now) = counted_since(state, order, read).await? {
                    (read, event) = (now, None);
                    attempt -= 1;
                    continue;
                }
            }
            if moved == Moved::Now {
                state.alert_waiting(order).await;
                if !order.payment_intent.is_empty() {
                    cancel_released(state, &order.id, &order.payment_intent).await;
                }
            }
            return Ok(moved);
        }
    }
    Err(ApiError::internal("a release that never went through"))
}

/// Cancels a released order's PaymentIntent at Stripe and, once it is cancelled (or was never to be), removes
/// the record that it is due. A payment that completed after all keeps the record: the webhook or the expiry
/// job refunds it (late_refund). Answers whether it is settled.
pub async fn cancel_released(state: &AppState, order_id: &str, intent: &str) -> bool {
    let settled = match state.stripe.intent(intent).await {
        Ok(found) => match found.status {
            IntentStatus::Canceled => true,
            IntentStatus::Succeeded | IntentStatus::Processing => false,
            _ => match state.stripe.cancel_intent(intent).await {
                Ok(_) => true,
                Err(error) => {
                    tracing::warn!(order = %order_id, %error, "a released order's payment is not cancelled yet: the expiry job tries again");
                    false
                }
            },
        },
        Err(error) => {
            tracing::warn!(order = %order_id, %error, "a released order's payment could not be read: the expiry job tries again");
            false
        }
    };
    if settled {
        let removed = state
            .db
            .delete_item()
            .table_name(&state.tables.orders)
            .set_key(Some(cancel_due_key(order_id)))
            .send()
            .await;
        if let Err(error) = removed {
            tracing::warn!(order = %order_id, error = %ApiError::internal(error), "a settled cancel stays listed: the expiry job removes it");
        }
    }
    settled
}

/// Whether an intent is for exactly what the order costs, in pounds sterling. One that is not was not made by
/// this shop for this order (or was changed at Stripe): it never makes the order paid.
pub fn matches_order(intent_amount: i64, intent_currency: &str, order: &Order) -> bool {
    intent_amount == order.total.pence() && intent_currency.eq_ignore_ascii_case("gbp")
}

fn failure_message(intent: &Intent) -> String {
    let error = intent.last_payment_error.as_ref();
    decline_message(
        error.and_then(|e| e.code.as_deref()).unwrap_or(""),
        error.and_then(|e| e.decline_code.as_deref()).unwrap_or(""),
    )
    .to_owned()
}

/// Moves a pending order to where its PaymentIntent says it is. With `confirm`, an intent that waits for the
/// server's confirmation (after 3-D Secure) is confirmed here, never on the browser's word.
pub async fn settle(
    state: &AppState,
    order: &Order,
    intent: Intent,
    confirm: bool,
) -> Result<Settlement, ApiError> {
    let intent = match intent.status {
        IntentStatus::RequiresConfirmation if confirm => {
            match state.stripe.confirm_intent(&intent.id, &order.id).await {
                Ok(confirmed) => confirmed,
                Err(error) => return settle_refusal(state, order, error).await,
            }
        }
        _ => intent,
    };
    if !matches_order(intent.amount, &intent.currency, order) {
        // Never paid on a payment for something else: released, and a payment taken is refunded (late_refund).
        tracing::error!(
            order = %order.id, intent = %intent.id, amount = intent.amount, currency = %intent.currency,
            total = order.total.pence(),
            "PAYMENT-MISMATCH: the PaymentIntent is not for the order's total in GBP: the order is released"
        );
        release(state, order, Status::Expired, None).await?;
        return Ok(Settlement::Failed {
            message: "The payment did not match this order, so the order was not placed; anything taken is \
                      refunded in full."
                .to_owned(),
        });
    }
    Ok(match intent.status {
        IntentStatus::Succeeded => {
            mark_paid(state, order, None).await?;
            Settlement::Paid
        }
        IntentStatus::RequiresAction => match count_unpaid(state, order).await? {
            Counted::Yes => {
                shorten_hold(state, order).await?;
                Settlement::NeedsAction {
                    client_secret: intent.client_secret.clone().unwrap_or_default(),
                }
            }
            Counted::Refused(drink) => {
                // Cancelled first, so the shopper cannot complete a step for an order that is released;
                // a cancel Stripe does not answer now stays due (release) for the expiry job.
                if let Err(error) = state.stripe.cancel_intent(&intent.id).await {
                    tracing::warn!(order = %order.id, %error, "a refused order's payment is not cancelled yet");
                }
                release(state, order, Status::Expired, None).await?;
                tracing::warn!(order = %order.id, %drink, "UNPAID-CAP: a 3-D Secure order refused: unpaid orders hold as much of the drink as they may");
                Settlement::Crowded {
                    refusal: crate::unpaid::crowded(&drink),
                }
            }
            Counted::MovedOn(Some(status)) if status.is_paid() => Settlement::Paid,
            Counted::MovedOn(_) => Settlement::Failed {
                message: "This payment did not complete, so nothing was charged. Please place the order again."
                    .to_owned(),
            },
        },
        IntentStatus::RequiresPaymentMethod | IntentStatus::Canceled => {
            // Stripe would let this intent try another card; the shop starts a new order instead, and the
            // release cancels the intent.
            release(state, order, Status::Expired, None).await?;
            Settlement::Failed {
                message: failure_message(&intent),
            }
        }
        IntentStatus::RequiresConfirmation
        | IntentStatus::Processing
        | IntentStatus::RequiresCapture => Settlement::Waiting,
    })
}

/// A Stripe error during confirmation: a refused card releases the order; anything else leaves it waiting.
pub async fn settle_refusal(
    state: &AppState,
    order: &Order,
    error: StripeError,
) -> Result<Settlement, ApiError> {
    match error {
        StripeError::Card {
            code, decline_code, ..
        } => {
            release(state, order, Status::Expired, None).await?;
            Ok(Settlement::Failed {
                message: decline_message(&code, &decline_code).to_owned(),
            })
        }
        StripeError::Refused { status, message } => {
            tracing::error!(order = %order.id, status, %message, "Stripe refused a confirmation");
            release(state, order, Status::Expired, None).await?;
            Ok(Settlement::Failed {
                message: "The payment could not be taken: nothing was charged. Please try again."
                    .to_owned(),
            })
        }
        StripeError::Unavailable(why) => {
            tracing::warn!(order = %order.id, %why, "Stripe unavailable during confirmation");
            Ok(Settlement::Waiting)
        }
    }
}

/// 402 with the refusal in plain words.
pub fn payment_required(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::PAYMENT_REQUIRED, message)
}

/// Stripe could not be reached: the order waits for the webhook or the expiry job.
pub fn payment_unavailable(order_id: &str) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "We could not hear back from the bank yet. Your order {order_id} is held: try again in a moment, \
             and if the payment went through it will show as paid."
        ),
    )
}

/// Stripe's failures where no order-specific answer applies (a refund, a cancel, a webhook's follow-up):
/// unreachable is 503 (Stripe retries a webhook that got one), anything else it refused is 502, the cause
/// logged either way. Never a 500: the fault is the provider's, and the client can tell which.
impl From<StripeError> for ApiError {
    fn from(error: StripeError) -> Self {
        let (status, message) = match &error {
            StripeError::Unavailable(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The payment provider could not be reached: nothing changed, try again in a minute",
            ),
            StripeError::Card { .. } | StripeError::Refused { .. } => (
                StatusCode::BAD_GATEWAY,
                "The payment provider refused the request: nothing changed here",
            ),
        };
        ApiError::new(status, message).caused_by(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_providers_failure_is_a_gateway_error_never_a_500() {
        let unreachable = ApiError::from(StripeError::Unavailable("timed out".into()));
        assert_eq!(unreachable.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(unreachable.message().contains("try again"));
        let refused = ApiError::from(StripeError::Refused {
            status: 400,
            message: "No such payment_intent".into(),
        });
        assert_eq!(refused.status(), StatusCode::BAD_GATEWAY);
        assert!(
            !refused.message().contains("payment_intent"),
            "Stripe's words stay in the log"
        );
    }
}
