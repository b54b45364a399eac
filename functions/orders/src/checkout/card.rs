//! The card as Stripe knows it (brand and last four for the order), asked before anything is reserved so a
//! token Stripe cannot read is refused without holding stock, and a bank out of reach is a 503 that holds
//! nothing.

use crate::stripe::{CardDetails, StripeError};
use crate::AppState;
use http::StatusCode;
use shared::ApiError;

pub async fn describe_card(
    state: &AppState,
    payment_method: &str,
) -> Result<CardDetails, ApiError> {
    match state.stripe.payment_method(payment_method).await {
        Ok(method) => Ok(method.card.unwrap_or(CardDetails {
            brand: String::new(),
            last4: String::new(),
            fingerprint: String::new(),
        })),
        Err(StripeError::Refused { .. }) => Err(ApiError::invalid(
            "payment: this card could not be read: enter it again",
        )),
        Err(StripeError::Unavailable(why)) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "We could not reach the bank: nothing was charged. Please try again in a moment.",
        )
        .caused_by(why)),
        Err(error) => Err(ApiError::internal(error)),
    }
}
