//! The payment seam. The card number and security code never reach the back end: the browser hands the
//! card to the payment provider and sends us a token with the brand and last four digits. A provider
//! authorises an amount before the order is written and captures it after.
//!
//! Locally and in tests `TestProvider` stands in. For production, a Stripe provider would create a
//! PaymentIntent for the amount in `authorize` (the token being the PaymentMethod id from Stripe.js,
//! confirmed with manual capture) and capture it in `capture`; it implements this same trait and is chosen
//! in `AppState::new` from configuration. Nothing else changes.

use serde::Deserialize;
use shared::money::Pence;
use shared::ApiError;
use std::future::Future;
use std::pin::Pin;

/// What the browser sends about the card: never its number.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentInput {
    pub provider: String,
    pub token: String,
    pub brand: String,
    pub last4: String,
}

/// A held amount, to capture once the order is written.
#[derive(Debug, Clone)]
pub struct Authorisation {
    pub reference: String,
}

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub trait PaymentProvider: Send + Sync {
    fn authorize<'a>(
        &'a self,
        amount: Pence,
        payment: &'a PaymentInput,
    ) -> BoxFuture<'a, Result<Authorisation, ApiError>>;
    fn capture<'a>(
        &'a self,
        authorisation: &'a Authorisation,
    ) -> BoxFuture<'a, Result<(), ApiError>>;
}

/// Accepts `tok_test_*` tokens; `tok_test_declined` is declined, as a real card can be.
pub struct TestProvider;

pub const DECLINED: &str = "Your card was declined: try another card";

impl PaymentProvider for TestProvider {
    fn authorize<'a>(
        &'a self,
        amount: Pence,
        payment: &'a PaymentInput,
    ) -> BoxFuture<'a, Result<Authorisation, ApiError>> {
        Box::pin(async move {
            if payment.provider != "test" || !payment.token.starts_with("tok_test_") {
                return Err(ApiError::invalid(
                    "payment: this shop takes test cards only here",
                ));
            }
            if payment.token == "tok_test_declined" {
                return Err(ApiError::new(http::StatusCode::PAYMENT_REQUIRED, DECLINED));
            }
            Ok(Authorisation {
                reference: format!("test_{}_{}", amount.pence(), uuid::Uuid::new_v4().simple()),
            })
        })
    }

    fn capture<'a>(&'a self, _: &'a Authorisation) -> BoxFuture<'a, Result<(), ApiError>> {
        Box::pin(async { Ok(()) })
    }
}
