//! A small typed client for the few Stripe calls the shop makes (PaymentMethods, PaymentIntents, refunds,
//! charges and balance transactions), over hyper and rustls, which the AWS SDK links already: a full Stripe
//! crate would cost more build time and binary than these calls are worth. Form-encoded requests, JSON
//! answers, as Stripe's API speaks.
//!
//! Every call is safe to repeat: a POST always carries an idempotency key (the caller's when the key must
//! outlive the request, such as one PaymentIntent per order or one refund per claim; else one made for that
//! call), so a call that failed for want of an answer (unreachable, timed out, 5xx, 429, 409) is made once
//! more after a short, jittered pause, with the same key: Stripe answers the first call's result if it did
//! arrive. Two calls are never one by accident: the 3-D Secure confirmation after the checkout's own
//! confirmation has a key of its own.

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

/// How long one attempt may take before the shop gives up on it (Stripe answers in well under a second).
/// Two attempts and the pause between them fit in the orders function's time with room for a look-up.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);
/// The pause before the one retry; up to as much again is added at random, so retries do not arrive in step.
const RETRY_PAUSE: Duration = Duration::from_millis(300);
/// Refunds, events' refunds and balance transactions are read this many at a time (Stripe's maximum).
const PAGE: &str = "100";

#[derive(Clone)]
pub struct Stripe {
    base: String,
    secret_key: String,
    http: Client<Https, Full<Bytes>>,
    timeout: Duration,
    pause: Duration,
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
    /// Stripe could not be reached, timed out, or answered 5xx, 429 or 409: the outcome is unknown.
    Unavailable(String),
}

impl StripeError {
    /// Whether the outcome is unknown (worth a retry, or a look-up before calling it failed).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StripeError::Unavailable(_))
    }
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
    /// Lower case, as Stripe writes it (`gbp`).
    #[serde(default)]
    pub currency: String,
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
    /// Stripe's fingerprint of the card's number: the same for every payment method made from one card
    /// (a once-per-customer code is marked by it). Empty when Stripe gives none.
    #[serde(default)]
    pub fingerprint: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentMethod {
    pub id: String,
    #[serde(default)]
    pub card: Option<CardDetails>,
}

/// Where a refund stands at Stripe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundStatus {
    Pending,
    RequiresAction,
    Succeeded,
    Failed,
    Canceled,
}

impl RefundStatus {
    /// Money that is back with the customer or on its way there.
    pub fn counts(self) -> bool {
        matches!(
            self,
            RefundStatus::Pending | RefundStatus::RequiresAction | RefundStatus::Succeeded
        )
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    pub id: String,
    /// Pence.
    pub amount: i64,
    #[serde(default)]
    pub currency: String,
    pub status: RefundStatus,
    #[serde(default)]
    pub payment_intent: Option<String>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
    /// Unix seconds.
    #[serde(default)]
    pub created: i64,
}

/// A charge, as far as the shop reads one: what was taken and what has gone back.
#[derive(Debug, Clone, Deserialize)]
pub struct Charge {
    pub id: String,
    pub amount: i64,
    #[serde(default)]
    pub amount_refunded: i64,
    #[serde(default)]
    pub currency: String,
    #[serde(default)]
    pub payment_intent: Option<String>,
}

/// One movement of the shop's Stripe balance: a charge (with its fee), a refund, a dispute's adjustment, a
/// payout. `source` is the object it moved money for (expanded: a charge's or refund's `payment_intent` is
/// read from it).
#[derive(Debug, Clone, Deserialize)]
pub struct BalanceTransaction {
    pub id: String,
    /// Pence; negative for money out.
    pub amount: i64,
    #[serde(default)]
    pub fee: i64,
    #[serde(default)]
    pub net: i64,
    #[serde(default)]
    pub currency: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub created: i64,
    #[serde(default)]
    pub source: serde_json::Value,
}

impl BalanceTransaction {
    /// The id of what it moved money for (`ch_`, `re_`, `po_`, `dp_`).
    pub fn source_id(&self) -> &str {
        self.source
            .as_str()
            .or_else(|| self.source["id"].as_str())
            .unwrap_or_default()
    }

    /// The PaymentIntent of the charge or refund it moved money for, when the source was expanded.
    pub fn payment_intent(&self) -> Option<&str> {
        self.source["payment_intent"]
            .as_str()
            .filter(|id| !id.is_empty())
    }
}

#[derive(Deserialize)]
struct ListOf<T> {
    data: Vec<T>,
    #[serde(default)]
    has_more: bool,
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
            timeout: CALL_TIMEOUT,
            pause: RETRY_PAUSE,
        }
    }

    /// The same client with another per-attempt time limit and retry pause (tests that make Stripe slow
    /// on purpose do not wait seconds for each timeout).
    pub fn with_timing(mut self, timeout: Duration, pause: Duration) -> Self {
        self.timeout = timeout;
        self.pause = pause;
        self
    }

    /// One call, and once more after a pause when its outcome is unknown. A POST without a key of the
    /// caller's gets one for this call, which the retry reuses.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        fields: &[(&str, &str)],
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeError> {
        let own_key;
        let key = match (method == Method::POST, idempotency_key) {
            (true, None) => {
                own_key = format!("call-{}", uuid::Uuid::new_v4());
                Some(own_key.as_str())
            }
            (_, key) => key,
        };
        match self.attempt(&method, path, fields, key).await {
            Err(StripeError::Unavailable(why)) => {
                tracing::warn!(path, %why, "a Stripe call got no answer: once more");
                let jitter = uuid::Uuid::new_v4().as_u128() % (self.pause.as_millis().max(1));
                tokio::time::sleep(self.pause + Duration::from_millis(jitter as u64)).await;
                self.attempt(&method, path, fields, key).await
            }
            answer => answer,
        }
    }

    async fn attempt<T: serde::de::DeserializeOwned>(
        &self,
        method: &Method,
        path: &str,
        fields: &[(&str, &str)],
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeError> {
        let uri = match (*method == Method::GET, fields.is_empty()) {
            (true, false) => format!("{}{path}?{}", self.base, shared::form::encode(fields)),
            _ => format!("{}{path}", self.base),
        };
        let mut request = Request::builder()
            .method(method.clone())
            .uri(uri)
            .header("authorization", format!("Bearer {}", self.secret_key))
            .header("stripe-version", "2024-06-20");
        if let Some(key) = idempotency_key {
            request = request.header("idempotency-key", key);
        }
        let body = if *method == Method::GET {
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
        let (status, bytes) = tokio::time::timeout(self.timeout, exchange)
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
        } else if status.is_server_error()
            || status == StatusCode::TOO_MANY_REQUESTS
            || status == StatusCode::CONFLICT
        {
            // 409: the same key is still being worked on at Stripe; a moment later it has its answer.
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

    /// Confirms on the server. Each confirmation is its own call at Stripe (the one after 3-D Secure must not
    /// be answered with the checkout's earlier one); only its retry reuses its key.
    pub async fn confirm_intent(&self, id: &str, order_id: &str) -> Result<Intent, StripeError> {
        self.call(
            Method::POST,
            &format!("/v1/payment_intents/{id}/confirm"),
            &[],
            Some(&format!(
                "order-{order_id}-confirm-{}",
                uuid::Uuid::new_v4()
            )),
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

    /// Refunds `amount` of the payment (all that is left when `None`). `key` is the refund's own idempotency
    /// key, kept by the caller until the refund is recorded, so asking again can never refund twice;
    /// `metadata` names the order and the claim it answers.
    pub async fn create_refund(
        &self,
        intent: &str,
        amount: Option<Pence>,
        key: &str,
        metadata: &[(&str, &str)],
    ) -> Result<Refund, StripeError> {
        let amount = amount.map(|a| a.pence().to_string());
        let names: Vec<String> = metadata
            .iter()
            .map(|(name, _)| format!("metadata[{name}]"))
            .collect();
        let mut fields = vec![("payment_intent", intent)];
        if let Some(amount) = &amount {
            fields.push(("amount", amount));
        }
        for (name, (_, value)) in names.iter().zip(metadata) {
            fields.push((name, value));
        }
        self.call(Method::POST, "/v1/refunds", &fields, Some(key))
            .await
    }

    /// Every refund of a payment, newest first.
    pub async fn refunds_of(&self, intent: &str) -> Result<Vec<Refund>, StripeError> {
        self.all(
            |after| {
                let mut fields = vec![
                    ("payment_intent", intent.to_owned()),
                    ("limit", PAGE.to_owned()),
                ];
                if let Some(after) = after {
                    fields.push(("starting_after", after));
                }
                fields
            },
            "/v1/refunds",
            |refund: &Refund| refund.id.clone(),
        )
        .await
    }

    pub async fn charge(&self, id: &str) -> Result<Charge, StripeError> {
        self.call(Method::GET, &format!("/v1/charges/{id}"), &[], None)
            .await
    }

    /// The balance's movements created in `[from, until)` (unix seconds), their sources expanded.
    pub async fn balance_transactions(
        &self,
        from: i64,
        until: i64,
    ) -> Result<Vec<BalanceTransaction>, StripeError> {
        let (from, until) = (from.to_string(), until.to_string());
        self.all(
            |after| {
                let mut fields = vec![
                    ("created[gte]", from.clone()),
                    ("created[lt]", until.clone()),
                    ("limit", PAGE.to_owned()),
                    ("expand[]", "data.source".to_owned()),
                ];
                if let Some(after) = after {
                    fields.push(("starting_after", after));
                }
                fields
            },
            "/v1/balance_transactions",
            |txn: &BalanceTransaction| txn.id.clone(),
        )
        .await
    }

    /// Every page of a list: `fields` gives a page's query from the last id read.
    async fn all<T: serde::de::DeserializeOwned>(
        &self,
        fields: impl Fn(Option<String>) -> Vec<(&'static str, String)>,
        path: &str,
        id: impl Fn(&T) -> String,
    ) -> Result<Vec<T>, StripeError> {
        let mut all = Vec::new();
        let mut after = None;
        loop {
            let query = fields(after.take());
            let query: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let page: ListOf<T> = self.call(Method::GET, path, &query, None).await?;
            let last = page.data.last().map(&id);
            all.extend(page.data);
            match (page.has_more, last) {
                (true, Some(last)) => after = Some(last),
                _ => return Ok(all),
            }
        }
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
