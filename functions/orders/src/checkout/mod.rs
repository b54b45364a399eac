//! Placing an order, as a list of named steps. The server prices every line from the catalogue (a client's
//! price is never read), applies the code and adds delivery (`pricing`); it then writes, in ONE
//! transaction, the order as `pending` with its reservation (`reserve`). Any failed condition writes
//! nothing. Only then does money move: a PaymentIntent for the server's total is created, recorded on the
//! order, and confirmed on the server (`intent`); `payment.rs` moves the order to paid or gives the
//! reservation back.

mod age;
mod card;
mod confirm;
mod find;
mod idempotency;
mod input;
mod intent;
mod number;
mod pending;
mod pricing;
mod quote;
mod reply;
mod reserve;
mod settings;

pub use confirm::confirm_order;
pub(crate) use find::find_order;
pub use idempotency::IDEMPOTENCY_KEY_PATTERN;
pub use input::OrderInput;
pub(crate) use intent::order_of_intent;
pub use quote::{quote_order, PriceChanged, Quote};
pub use reply::ActionRequired;
pub use settings::show_payment_settings;

use crate::AppState;
use axum::extract::State;
use axum::response::Response;
use http::HeaderMap;
use idempotency::Idempotency;
use shared::rate::SourceIp;
use shared::{ApiResult, Json};

pub async fn create_order(
    State(state): State<AppState>,
    SourceIp(client): SourceIp,
    headers: HeaderMap,
    Json(input): Json<OrderInput>,
) -> ApiResult<Response> {
    let idempotency = Idempotency::read(&headers, &input)?;
    if let Some(idempotency) = &idempotency {
        if let Some(reply) = idempotency::earlier_order(&state, idempotency).await? {
            return Ok(reply);
        }
    }
    let buyer = input.buyer()?;
    let payment_method = input.payment.method()?;
    let wanted = input::wanted_lines(&input.product)?;
    let now_unix = shared::time::now_unix();
    let basket = pricing::price_basket(&state, &wanted, input.code.as_deref(), now_unix).await?;
    let trader = state.trader().await?;
    let quote = Quote::of(&basket, &trader);
    if let Some(refusal) = quote::changed_total(input.expected_total, &quote)? {
        return Ok(refusal);
    }
    let today = time::OffsetDateTime::now_utc().date();
    let age_check = age::check_age(&basket, &trader, input.date_of_birth.as_deref(), today)?;
    // The order records the version of the terms it is sold under (the content function keeps them).
    let terms_version = content::store::current_terms_version(
        &state.db,
        &state.tables.content,
        &trader,
        &state.delivery,
    )
    .await?;
    let card = card::describe_card(&state, payment_method).await?;
    let parts = pending::Parts {
        buyer,
        basket,
        trader,
        card,
        idempotency: idempotency.as_ref(),
        client,
        age_check,
        terms_version,
        now_unix,
    };
    let mut order = pending::pending_order(&state, parts);
    let raced = reserve::reserve(&state, &mut order, idempotency.as_ref(), now_unix).await?;
    if let Some(earlier) = raced {
        return Ok(earlier);
    }
    intent::pay(&state, order, payment_method).await
}
