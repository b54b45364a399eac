//! The price the shopper agrees to. `POST /api/order/quote/` prices a basket exactly as an order would be
//! priced (lines, code, delivery, the VAT inside), so the checkout shows the server's figures rather than
//! its own; the order then carries the total the shopper saw (`expectedTotal`), and a total that moved since
//! (a price change, a code that ended, new delivery terms) is refused with the new figures before anything
//! is charged or held.

use super::input::{wanted_lines, LineInput, CODE_PATTERN, MAX_LINES};
use super::pricing::{price_basket, Basket};
use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde::{Deserialize, Serialize};
use shared::money::{Pence, Percent};
use shared::trader::Trader;
use shared::{ApiError, ApiResult, Json};

/// A basket to price: the lines and the code as the order would carry them.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct QuoteInput {
    /// The basket: at most 50 different drinks (the same drink twice is one line).
    #[serde(deserialize_with = "shared::json::objects")]
    #[schemars(length(min = 1, max = MAX_LINES))]
    product: Vec<LineInput>,
    /// A discount code; blank or absent for none.
    #[schemars(regex(pattern = CODE_PATTERN))]
    code: Option<String>,
}

/// One line as the order would price it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "QuoteLine")]
pub struct QuoteLine {
    /// The drink's `_id`.
    product: String,
    name: String,
    /// The pack label, e.g. "24 x 330ml".
    quantity: String,
    qty: u32,
    /// The unit price, the drink's own discount applied.
    price: Pence,
    /// `price` × `qty`.
    total: Pence,
}

/// The basket as an order placed now would be charged, in pounds.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Quote {
    lines: Vec<QuoteLine>,
    subtotal: Pence,
    /// Taken off the subtotal for the code.
    discount: Pence,
    /// The code's rate, a whole percentage (0 without a code).
    #[serde(rename = "codeRate")]
    code_rate: Percent,
    shipping: Pence,
    /// The VAT rate the prices include, a whole percentage.
    #[serde(rename = "vatRate")]
    vat_rate: u32,
    /// The VAT the total includes.
    vat: Pence,
    total: Pence,
    /// The age the buyer must have, when the basket holds an age-restricted drink (over 150 mg of caffeine
    /// a litre) and the shop checks ages: the order then needs `dateOfBirth`. `null` otherwise.
    #[serde(rename = "minimumAge")]
    minimum_age: Option<u32>,
}

impl Quote {
    pub fn of(basket: &Basket, trader: &Trader) -> Quote {
        let priced = &basket.priced;
        Quote {
            lines: priced
                .lines
                .iter()
                .map(|line| {
                    let price = Pence::new(line.price_pence).unwrap_or_default();
                    QuoteLine {
                        product: line.product.clone(),
                        name: line.name.clone(),
                        quantity: line.quantity.clone(),
                        qty: line.qty,
                        price,
                        total: price.times(line.qty),
                    }
                })
                .collect(),
            subtotal: priced.subtotal,
            discount: priced.discount,
            code_rate: basket.rate,
            shipping: priced.shipping,
            vat_rate: trader.vat_rate,
            vat: trader.vat_in(priced.total),
            total: priced.total,
            minimum_age: super::age::minimum_age(basket, trader),
        }
    }
}

/// What the shop would charge for a basket now (the same refusals as an order: a drink that does not exist
/// or has too few left, a code that cannot be used).
pub async fn quote_order(
    State(state): State<AppState>,
    Json(input): Json<QuoteInput>,
) -> ApiResult<Json<Quote>> {
    let wanted = wanted_lines(&input.product)?;
    let now = shared::time::now_unix();
    let basket = price_basket(&state, &wanted, input.code.as_deref(), now).await?;
    let trader = state.trader().await?;
    Ok(Json(Quote::of(&basket, &trader)))
}

/// 409 when the total moved since the shopper's quote: why, and the figures an order would have now.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PriceChanged {
    message: String,
    /// The new figures (absent on the other conflicts: stock that just sold out, a payment in progress).
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<Quote>,
}

/// `None` when the shopper agreed to this total (or sent none); else the 409 to answer.
pub fn changed_total(expected: Option<f64>, quote: &Quote) -> Result<Option<Response>, ApiError> {
    let Some(expected) = expected else {
        return Ok(None);
    };
    let expected = Pence::from_pounds(expected)
        .map_err(|why| ApiError::invalid(format!("expectedTotal {why}")))?;
    if expected == quote.total {
        return Ok(None);
    }
    let message = format!(
        "The total is now {} (you were shown {expected}): nothing was charged. Check the new figures and pay again.",
        quote.total
    );
    let body = PriceChanged {
        message,
        quote: Some(quote.clone()),
    };
    Ok(Some((StatusCode::CONFLICT, Json(body)).into_response()))
}
