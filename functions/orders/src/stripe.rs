//! A small typed client for the few Stripe calls the shop makes (PaymentMethods, PaymentIntents, refunds),
//! over hyper and rustls, which the AWS SDK links already: a full Stripe crate would cost more build time and
//! binary than these six calls are worth. Form-encoded requests, JSON answers, as Stripe's API speaks.

use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde::Deserialize;
use shared::money::Pence;
use std::collections::BTreeMap;
use std::time::Duration;

type Https = shared::https::Connector;

/// How long one call may take before the shop gives up on it (Stripe answers in well under a second).
const CALL_TIMEOUT: Duration = Duration::from_secs(8);

#[derive(Clone)]
pub struct Stripe {
    base: String,
    secret_key: String,
    http: Client<Https, Full<Bytes>>,
}

/// Why a call failed.
#[derive(Debug)]
pub enum StripeError {
    /// The card was refused (HTTP 402): Stripe's code, decline code and message.
    Card {
        code: String,
        decline_code: String,
        message: String,
    },
    /// Stripe refused the request itself (4xx other than 402): a bug or a stale object.
    Refused { status: u16, message: String },
    /// Stripe could not be reached, timed out, or answered 5xx: the outcome is unknown.
    Unavailable(String),
}

impl std::fmt::Display for StripeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StripeError::Card { code, message, .. } => {
                write!(f, "card refused ({code}): {message}")
            }
            StripeError::Refused { status, message } => {
                write!(f, "Stripe refused ({status}): {message}")
            }
            StripeError::Unavailable(why) => write!(f, "Stripe unavailable: {why}"),
        }
    }
}

impl std::error::Error for StripeError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    RequiresCapture,
    Canceled,
    Succeeded,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentError {
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub decline_code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Intent {
    pub id: String,
    pub status: IntentStatus,
    pub amount: i64,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub last_payment_error: Option<PaymentError>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CardDetails {
    #[serde(default)]
    pub brand: String,
    #[serde(default)]
    pub last4: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentMethod {
    pub id: String,
    #[serde(default)]
    pub card: Option<CardDetails>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    pub id: String,
}

/// What a PaymentIntent says about its order: the Dashboard, the bank's statement and Radar read it.
pub struct IntentOrder<'a> {
    pub id: &'a str,
    /// The number people use, `PD-10001`: the intent's description and `metadata[order_number]`.
    pub number: &'a str,
    pub shipping: ShippingAddress<'a>,
}

/// Where the order goes, as Stripe's `shipping` holds it (the country is always GB).
pub struct ShippingAddress<'a> {
    pub name: &'a str,
    pub phone: &'a str,
    pub line1: &'a str,
    pub line2: &'a str,
    pub city: &'a str,
    pub postal_code: &'a str,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: PaymentError,
}

impl Stripe {
    /// `base` is `https://api.stripe.com` in AWS and localstripe's address locally.
    pub fn new(base: &str, secret_key: &str) -> Self {
        Stripe {
            base: base.trim_end_matches('/').to_owned(),
            secret_key: secret_key.to_owned(),
            // The TLS set-up the SDK's clients share: no second read of any root certificates.
            http: Client::builder(TokioExecutor::new()).build(shared::https::connector(None)),
        }
    }

    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        fields: &[(&str, &str)],
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeError> {
        let mut request = Request::builder()
            .method(method.clone())
            .uri(format!("{}{path}", self.base))
            .header("authorization", format!("Bearer {}", self.secret_key))
            .header("stripe-version", "2024-06-20");
        if let Some(key) = idempotency_key {
            request = request.header("idempotency-key", key);
        }
        let body = if method == Method::GET {
            Full::new(Bytes::new())
        } else {
            request = request.header("content-type", "application/x-www-form-urlencoded");
            Full::new(Bytes::from(shared::form::encode(fields)))
        };
        let request = request
            .body(body)
            .map_err(|e| StripeError::Unavailable(e.to_string()))?;
        let exchange = async {
            let response = self
                .http
                .request(request)
                .await
                .map_err(|e| StripeError::Unavailable(e.to_string()))?;
            let status = response.status();
            let bytes = response
                .into_body()
                .collect()
                .await
                .map_err(|e| StripeError::Unavailable(e.to_string()))?
                .to_bytes();
            Ok::<_, StripeError>((status, bytes))
        };
        let (status, bytes) = tokio::time::timeout(CALL_TIMEOUT, exchange)
            .await
            .map_err(|_| StripeError::Unavailable(format!("{path} timed out")))??;
        if status.is_success() {
            return serde_json::from_slice(&bytes)
                .map_err(|e| StripeError::Unavailable(format!("{path}: unreadable answer: {e}")));
        }
        let error = serde_json::from_slice::<ErrorBody>(&bytes)
            .map(|b| b.error)
            .unwrap_or(PaymentError {
                code: None,
                decline_code: None,
                message: Some(String::from_utf8_lossy(&bytes).chars().take(200).collect()),
            });
        let message = error.message.unwrap_or_default();
        Err(if status == StatusCode::PAYMENT_REQUIRED {
            StripeError::Card {
                code: error.code.unwrap_or_else(|| "card_declined".into()),
                decline_code: error.decline_code.unwrap_or_default(),
                message,
            }
        } else if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
            StripeError::Unavailable(format!("{path}: {status} {message}"))
        } else {
            StripeError::Refused {
                status: status.as_u16(),
                message,
            }
        })
    }

    pub async fn payment_method(&self, id: &str) -> Result<PaymentMethod, StripeError> {
        self.call(Method::GET, &format!("/v1/payment_methods/{id}"), &[], None)
            .await
    }

    /// A PaymentIntent for `amount` in pounds sterling, not yet confirmed, that names its order (by id and
    /// by the number people use) and where it goes.
    pub async fn create_intent(
        &self,
        amount: Pence,
        payment_method: &str,
        order: &IntentOrder<'_>,
    ) -> Result<Intent, StripeError> {
        let amount = amount.pence().to_string();
        let description = format!("Order {}", order.number);
        let mut fields = vec![
            ("amount", amount.as_str()),
            ("currency", "gbp"),
            ("payment_method", payment_method),
            ("payment_method_types[]", "card"),
            ("description", &description),
            ("metadata[order_id]", order.id),
            ("metadata[order_number]", order.number),
        ];
        let to = &order.shipping;
        let parts = [
            ("shipping[name]", to.name),
            ("shipping[phone]", to.phone),
            ("shipping[address][line1]", to.line1),
            ("shipping[address][line2]", to.line2),
            ("shipping[address][city]", to.city),
            ("shipping[address][postal_code]", to.postal_code),
            ("shipping[address][country]", "GB"),
        ];
        // An empty value would clear the field at Stripe: a part the order lacks is left out.
        fields.extend(parts.into_iter().filter(|(_, value)| !value.is_empty()));
        self.call(
            Method::POST,
            "/v1/payment_intents",
            &fields,
            Some(&format!("order-{}-intent", order.id)),
        )
        .await
    }

    /// Confirms on the server; a retried confirmation of the same order is one call at Stripe.
    pub async fn confirm_intent(&self, id: &str, order_id: &str) -> Result<Intent, StripeError> {
        self.call(
            Method::POST,
            &format!("/v1/payment_intents/{id}/confirm"),
            &[],
            Some(&format!("order-{order_id}-confirm")),
        )
        .await
    }

    pub async fn intent(&self, id: &str) -> Result<Intent, StripeError> {
        self.call(Method::GET, &format!("/v1/payment_intents/{id}"), &[], None)
            .await
    }

    pub async fn cancel_intent(&self, id: &str) -> Result<Intent, StripeError> {
        self.call(
            Method::POST,
            &format!("/v1/payment_intents/{id}/cancel"),
            &[],
            None,
        )
        .await
    }

    /// Refunds the whole payment; one refund per order whatever the retries (`order-{id}-refund`).
    pub async fn refund(&self, intent: &str, order_id: &str) -> Result<Refund, StripeError> {
        self.call(
            Method::POST,
            "/v1/refunds",
            &[("payment_intent", intent), ("metadata[order_id]", order_id)],
            Some(&format!("order-{order_id}-refund")),
        )
        .await
    }
}

/// A refusal in plain words for the shopper.
pub fn decline_message(code: &str, decline_code: &str) -> &'static str {
    match (code, decline_code) {
        (_, "insufficient_funds") => "Your card was declined: there are not enough funds on it. Try another card.",
        (_, "lost_card" | "stolen_card" | "pickup_card") => {
            "Your card was declined: please contact your bank or use another card."
        }
        ("expired_card", _) | (_, "expired_card") => "Your card has expired: use another card.",
        ("incorrect_cvc", _) | (_, "incorrect_cvc") => "The security code is not right: check it and try again.",
        ("incorrect_number" | "invalid_number", _) => "The card number is not right: check it and try again.",
        ("processing_error", _) => "Your bank could not process the payment: please try again.",
        ("payment_intent_authentication_failure", _) => {
            "Your bank did not confirm the payment, so nothing was charged. Try again or use another card."
        }
        _ => "Your card was declined: nothing was charged. Try another card.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declines_are_told_in_plain_words() {
        assert!(decline_message("card_declined", "insufficient_funds").contains("not enough funds"));
        assert!(decline_message("card_declined", "").contains("declined"));
        assert!(decline_message("payment_intent_authentication_failure", "")
            .contains("did not confirm"));
    }
}
