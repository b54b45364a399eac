//! The local side of Stripe: the orders functions' Stripe settings pointed at localstripe, the settings and
//! the stand-in for Stripe.js the local storefront loads, and a narrow proxy for the two calls the stand-in
//! makes. Local only, like the outbox: the secret key is added here and never reaches the browser.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use shared::error::message_response;
use std::collections::BTreeMap;
use std::time::Duration;
use testkit::emulator::{
    BoxError, LocalStripe, LOCAL_STRIPE_PUBLISHABLE_KEY, LOCAL_STRIPE_SECRET_KEY,
    LOCAL_STRIPE_WEBHOOK_SECRET,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Where the stand-in for Stripe.js is served; the orders function answers it as `jsUrl` locally.
pub const STAND_IN_PATH: &str = "/_local/stripe.js";
/// The functions that talk to Stripe and get the local Stripe settings.
pub const STRIPE_FUNCTIONS: &[&str] = &["OrdersFunction", "OrdersExpiryFunction"];
/// The id localstripe keeps the gateway's webhook under (registering again replaces it).
const WEBHOOK_ID: &str = "local-gateway";

/// The stand-in itself (see docs/frontend-checkout.md for what it does and does not do).
const STAND_IN: &str = include_str!("stripe_stand_in.js");

/// The settings the orders functions get locally, in place of the template's Secrets Manager references.
pub fn function_overrides(stripe: &LocalStripe) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("STRIPE_API_BASE".to_owned(), stripe.api_base.clone()),
        (
            "STRIPE_SECRET_KEY".to_owned(),
            LOCAL_STRIPE_SECRET_KEY.to_owned(),
        ),
        (
            "STRIPE_WEBHOOK_SECRET".to_owned(),
            LOCAL_STRIPE_WEBHOOK_SECRET.to_owned(),
        ),
        (
            "STRIPE_PUBLISHABLE_KEY".to_owned(),
            LOCAL_STRIPE_PUBLISHABLE_KEY.to_owned(),
        ),
        ("STRIPE_JS_URL".to_owned(), STAND_IN_PATH.to_owned()),
    ])
}

/// `STRIPE_API_BASE` when someone runs localstripe already, else a new one (its store kept in `state`
/// when given, as `make run` does; in memory otherwise, as the tests and scripts/with-gateway.sh do).
pub fn start_or_join(
    api_base: Option<String>,
    state: Option<&std::path::Path>,
    log: Option<&std::path::Path>,
) -> Result<LocalStripe, BoxError> {
    match api_base {
        Some(api_base) if !api_base.is_empty() => Ok(LocalStripe {
            api_base: api_base.trim_end_matches('/').to_owned(),
            pid: None,
        }),
        _ => LocalStripe::start_logged(state, log),
    }
}

/// Asks localstripe to deliver its events to the gateway on `port`, signed with the local webhook secret.
pub async fn register_webhook(stripe: &LocalStripe, port: u16) -> Result<(), BoxError> {
    let stripe = stripe.clone();
    let url = format!("http://127.0.0.1:{port}/api/order/webhook/stripe/");
    tokio::task::spawn_blocking(move || {
        stripe.register_webhook(WEBHOOK_ID, &url, LOCAL_STRIPE_WEBHOOK_SECRET)
    })
    .await?
}

#[derive(Clone)]
struct StripeState {
    /// localstripe's address, `http://127.0.0.1:PORT`.
    api_base: String,
}

/// `GET /_local/stripe`, `GET /_local/stripe.js` and the proxy under `/_local/stripe/v1/`.
pub fn routes(stripe: &LocalStripe) -> Router {
    Router::new()
        .route("/_local/stripe", get(show_settings))
        .route(STAND_IN_PATH, get(show_stand_in))
        .route(
            "/_local/stripe/v1/payment_methods",
            post(create_payment_method),
        )
        .route(
            "/_local/stripe/v1/payment_intents/{id}/_authenticate",
            post(authenticate_payment_intent),
        )
        // Anything else under the proxy is refused as JSON, never the storefront's index.html.
        .route("/_local/stripe/{*rest}", axum::routing::any(refuse))
        .with_state(StripeState {
            api_base: stripe.api_base.clone(),
        })
}

/// What the stand-in needs: where its API calls go (this gateway's proxy) and the publishable key.
async fn show_settings(headers: HeaderMap) -> Response {
    // The gateway does not know the address the browser used (tests have no port at all): take the Host the
    // request came to, which is the gateway itself.
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .unwrap_or("127.0.0.1");
    let mut response = Json(serde_json::json!({
        "apiBase": format!("http://{host}/_local/stripe"),
        "publishableKey": LOCAL_STRIPE_PUBLISHABLE_KEY,
    }))
    .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn show_stand_in() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STAND_IN,
    )
        .into_response()
}

/// `POST /v1/payment_methods` needs the secret key in localstripe (as in Stripe, where Stripe.js's own
/// session stands in for it), so the browser's call goes through here.
async fn create_payment_method(
    State(state): State<StripeState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !is_form(&headers) {
        return message_response(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the payment method as a form",
        );
    }
    forward(&state.api_base, "/v1/payment_methods", &body).await
}

/// localstripe's own end of a 3-D Secure challenge (what its Stripe.js calls after the bank's page).
async fn authenticate_payment_intent(
    State(state): State<StripeState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !id.starts_with("pi_") || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return message_response(StatusCode::NOT_FOUND, "No such payment");
    }
    if !is_form(&headers) {
        return message_response(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the challenge's answer as a form",
        );
    }
    forward(
        &state.api_base,
        &format!("/v1/payment_intents/{id}/_authenticate"),
        &body,
    )
    .await
}

async fn refuse() -> Response {
    message_response(
        StatusCode::NOT_FOUND,
        "The local Stripe proxy only creates payment methods and answers 3-D Secure challenges",
    )
}

fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

/// Sends the form to localstripe with the secret key and answers what it answered (status and JSON).
async fn forward(api_base: &str, path: &str, body: &[u8]) -> Response {
    match post_form(api_base, path, body, Some(LOCAL_STRIPE_SECRET_KEY)).await {
        Ok((status, json)) => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
            (
                status,
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::CACHE_CONTROL, "no-store"),
                ],
                json,
            )
                .into_response()
        }
        Err(error) => {
            tracing::warn!(%error, "localstripe did not answer");
            message_response(StatusCode::BAD_GATEWAY, "The local Stripe is not answering")
        }
    }
}

/// A form POST to localstripe over HTTP/1.0 (one request per connection, so the reply ends when the
/// connection does); answers the status and the body. Enough for a local process on 127.0.0.1, without an
/// HTTP client in the gateway.
pub async fn post_form(
    api_base: &str,
    path: &str,
    body: &[u8],
    secret_key: Option<&str>,
) -> Result<(u16, Vec<u8>), BoxError> {
    let address = api_base
        .strip_prefix("http://")
        .ok_or("STRIPE_API_BASE must be an http:// address")?
        .trim_end_matches('/');
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(address).await?;
        let mut head = format!(
            "POST {path} HTTP/1.0\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(key) = secret_key {
            head.push_str(&format!("Authorization: Bearer {key}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body).await?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).await?;
        Ok::<_, BoxError>(reply)
    };
    let reply = tokio::time::timeout(Duration::from_secs(10), exchange).await??;
    let split = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("malformed reply from localstripe")?;
    let status_line = String::from_utf8_lossy(&reply[..split]);
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or("malformed status line from localstripe")?;
    Ok((status, reply[split + 4..].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::emulator::{LocalNames, Template};

    #[test]
    fn the_orders_functions_get_localstripe_in_place_of_the_deployed_settings() {
        let template = Template::parse(
            r#"
Parameters:
  StripePublishableKey: {Type: String, Default: pk_live_placeholder}
Resources:
  OrdersFunction:
    Type: AWS::Serverless::Function
    Properties:
      Environment:
        Variables:
          STRIPE_API_BASE: https://api.stripe.com
          STRIPE_SECRET_KEY: '{{resolve:secretsmanager:shop/dev/stripe-secret-key}}'
          STRIPE_WEBHOOK_SECRET: !Sub '{{resolve:secretsmanager:shop/${Stage}/stripe-webhook-secret}}'
          STRIPE_PUBLISHABLE_KEY: !Ref StripePublishableKey
          STRIPE_JS_URL: https://js.stripe.com/v3/
          PAYMENT_HOLD_MINUTES: '30'
"#,
        )
        .unwrap();
        let stripe = LocalStripe {
            api_base: "http://127.0.0.1:9".to_owned(),
            pid: None,
        };
        let function = template.function("OrdersFunction").unwrap();
        let env =
            LocalNames::new("dev").function_env(&template, &function, &function_overrides(&stripe));
        assert_eq!(env["STRIPE_API_BASE"], "http://127.0.0.1:9");
        assert_eq!(env["STRIPE_SECRET_KEY"], LOCAL_STRIPE_SECRET_KEY);
        assert_eq!(env["STRIPE_WEBHOOK_SECRET"], LOCAL_STRIPE_WEBHOOK_SECRET);
        assert_eq!(env["STRIPE_PUBLISHABLE_KEY"], LOCAL_STRIPE_PUBLISHABLE_KEY);
        assert_eq!(env["STRIPE_JS_URL"], "/_local/stripe.js");
        assert_eq!(env["PAYMENT_HOLD_MINUTES"], "30");
    }

    #[test]
    fn a_running_localstripe_is_joined_not_started() {
        let joined = start_or_join(Some("http://127.0.0.1:8420/".to_owned()), None, None).unwrap();
        assert_eq!(joined.api_base, "http://127.0.0.1:8420");
        assert_eq!(joined.pid, None);
    }
}
