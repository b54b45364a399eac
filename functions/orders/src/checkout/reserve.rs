//! The reservation: ONE transaction writes the order as `pending` with its stock decrements (never below
//! zero), the code's use (on its limits), the open-unpaid counts, the idempotency key and the order's
//! number (the month's results count the order once it is paid). Any failed condition writes nothing and is told as a message.

use super::idempotency::{earlier_order, Idempotency};
use super::number::{last_number, number_update};
use crate::order::{Order, FIRST_NUMBER};
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use axum::response::Response;
use shared::dynamo::{n, Item};
use shared::ApiError;

/// Unpaid orders one e-mail address, and one viewer address, may have open at once.
pub const MAX_OPEN_UNPAID: i64 = 2;

/// How often a checkout reads the number counter again after losing a race for it. Each round has one
/// winner, so the losers wait a random share of a doubling ceiling ("full jitter") and spread out rather
/// than all coming back at once; past the last attempt the shop is too busy and says so (a flash sale on
/// one drink: every checkout moves this one counter).
const NUMBER_ATTEMPTS: u32 = 40;
const NUMBER_BASE_MS: u64 = 10;
const NUMBER_CAP_MS: u64 = 250;

/// The wait after losing the `attempt`th race for the number (from 1).
fn number_backoff(attempt: u32) -> std::time::Duration {
    let ceiling = (NUMBER_BASE_MS << attempt.min(5)).min(NUMBER_CAP_MS);
    let jitter = (uuid::Uuid::new_v4().as_u128() % u128::from(ceiling + 1)) as u64;
    std::time::Duration::from_millis(jitter)
}

/// DynamoDB stayed too busy for the reservation, after `payment::run`'s jittered retries: nothing was
/// written, and the card has not been read.
pub fn busy_checkout() -> ApiError {
    ApiError::new(
        http::StatusCode::SERVICE_UNAVAILABLE,
        "The shop is very busy right now, so nothing was charged or held: please try again in a moment.",
    )
    .retry_after(2)
}

/// What went into the transaction, in order, so a cancellation reason can be read back as a message.
enum Step {
    Order,
    /// The order-number counter moved since it was read.
    Number,
    /// The e-mail's, then the viewer address's, count of open unpaid orders.
    OpenForEmail,
    OpenForClient,
    Stock(String),
    Code,
    CodeMark,
    /// The card has used the once-per-customer code already.
    CardMark,
    Idempotency,
}

/// Writes the pending order with its reservation and gives it its number. `Ok(Some(reply))` when another
/// attempt under the same Idempotency-Key won the race: its answer stands for this one.
///
/// Two checkouts that read the same counter race; the loser reads it again and tries with the next number.
pub async fn reserve(
    state: &AppState,
    order: &mut Order,
    idempotency: Option<&Idempotency>,
    now: i64,
) -> Result<Option<Response>, ApiError> {
    let mut attempt = 0;
    loop {
        let last = last_number(state).await?;
        order.number = Some(last.map_or(FIRST_NUMBER, |n| n + 1));
        let (items, steps) = transaction(state, order, last, idempotency, now)?;
        let Err(failed) = crate::payment::run(state, items).await else {
            return Ok(None);
        };
        let step = failed.step.and_then(|index| steps.get(index));
        if matches!(step, Some(Step::Number)) && attempt < NUMBER_ATTEMPTS {
            attempt += 1;
            tokio::time::sleep(number_backoff(attempt)).await;
            continue;
        }
        if matches!(step, Some(Step::Number)) || (failed.conflict && step.is_none()) {
            return Err(busy_checkout());
        }
        return match step {
            Some(Step::Idempotency) => {
                // Only a keyed order writes the key item, so the step implies the key.
                let Some(idempotency) = idempotency else {
                    return Err(ApiError::internal("an idempotency step without a key"));
                };
                match earlier_order(state, idempotency).await? {
                    Some(reply) => Ok(Some(reply)),
                    None => Err(ApiError::conflict(
                        "This order is being placed already: wait a moment",
                    )),
                }
            }
            Some(Step::Stock(id)) => {
                let name = order
                    .lines
                    .iter()
                    .find(|line| &line.product == id)
                    .map(|line| line.name.as_str())
                    .unwrap_or("a drink");
                Err(ApiError::conflict(format!(
                    "{name} just sold out: change the quantity and try again"
                )))
            }
            Some(Step::OpenForEmail) => Err(too_many_open(
                "This e-mail address has unpaid orders waiting for their payment",
            )),
            Some(Step::OpenForClient) => Err(too_many_open(
                "Your network has unpaid orders waiting for their payment",
            )),
            Some(Step::Code) => Err(ApiError::invalid("code: this code can no longer be used")),
            Some(Step::CodeMark | Step::CardMark) => {
                Err(ApiError::invalid("code: you have used this code already"))
            }
            _ => Err(failed.error),
        };
    }
}

/// 429 for a buyer (or network) with `MAX_OPEN_UNPAID` orders waiting: each is paid or released within
/// the short hold of a 3-D Secure step, so a few minutes fix it.
fn too_many_open(what: &str) -> ApiError {
    ApiError::too_many_requests(format!(
        "{what}: pay or cancel them first, or try again in a few minutes"
    ))
    .retry_after(300)
}

fn put(item: Item, condition: Option<&str>, table: &str) -> Result<TransactWriteItem, ApiError> {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .set_condition_expression(condition.map(str::to_owned))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

fn transaction(
    state: &AppState,
    order: &Order,
    last_number: Option<u64>,
    idempotency: Option<&Idempotency>,
    now: i64,
) -> Result<(Vec<TransactWriteItem>, Vec<Step>), ApiError> {
    let tables = &state.tables;
    let mut items = Vec::new();
    let mut steps = Vec::new();

    items.push(put(
        order.to_item(),
        Some("attribute_not_exists(pk)"),
        &tables.orders,
    )?);
    steps.push(Step::Order);
    for (key, step) in crate::payment::open_unpaid_keys(order) {
        let update = Update::builder()
            .table_name(&tables.orders)
            .set_key(Some(key))
            .update_expression("ADD #open :one")
            .condition_expression("attribute_not_exists(#open) OR #open < :max")
            .expression_attribute_names("#open", "open")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(MAX_OPEN_UNPAID))
            .build()
            .map_err(ApiError::internal)?;
        items.push(TransactWriteItem::builder().update(update).build());
        steps.push(if step {
            Step::OpenForClient
        } else {
            Step::OpenForEmail
        });
    }
    for line in &order.lines {
        items.push(catalog::store::take_stock(
            &tables.catalog,
            &line.product,
            line.qty,
        )?);
        steps.push(Step::Stock(line.product.clone()));
    }
    if let Some(code) = &order.code {
        items.push(discounts::store::use_in_transaction(
            &tables.codes,
            code,
            now,
        )?);
        steps.push(Step::Code);
        if order.code_marked {
            items.push(discounts::store::mark_use(
                &tables.codes,
                code,
                &order.email,
                &order.id,
            )?);
            steps.push(Step::CodeMark);
        }
        if let Some(fingerprint) = &order.card_mark {
            items.push(discounts::store::mark_card_use(
                &tables.codes,
                code,
                fingerprint,
                &order.email,
                &order.id,
            )?);
            steps.push(Step::CardMark);
        }
    }
    if let Some(idempotency) = idempotency {
        items.push(idempotency.put(&tables.orders, order, now)?);
        steps.push(Step::Idempotency);
    }
    // Last, so a refusal for stock or a code is reported before a lost race for the number.
    if let Some(number) = order.number {
        items.push(number_update(&tables.orders, last_number, number)?);
        steps.push(Step::Number);
    }
    Ok((items, steps))
}
