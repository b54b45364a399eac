//! A sliding-window limit kept on one item: the times of recent uses, rewritten conditionally on the
//! version read, so two racing requests cannot both slip under the limit. The caller puts the returned
//! write in the same transaction as the thing being limited, so a refused request leaves nothing behind.

use crate::dynamo::{get_n, n, s, Item};
use crate::ApiError;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::request::Parts;
use std::sync::Arc;

pub struct Window {
    /// Uses allowed per window.
    pub limit: usize,
    pub seconds: i64,
}

/// Checks the window on item `key` and answers the write that records one more use, or 429 with `refusal`
/// and the wait in minutes.
pub async fn reserve(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    key: Item,
    window: &Window,
    now: i64,
    refusal: &str,
) -> Result<TransactWriteItem, ApiError> {
    let found = client
        .get_item()
        .table_name(table)
        .set_key(Some(key.clone()))
        .consistent_read(true)
        .send()
        .await?;
    let (mut times, version): (Vec<i64>, u64) = match found.item() {
        Some(item) => (
            match item.get("sent") {
                Some(AttributeValue::L(times)) => times
                    .iter()
                    .filter_map(|t| t.as_n().ok()?.parse().ok())
                    .collect(),
                _ => Vec::new(),
            },
            get_n(item, "version").unwrap_or(0),
        ),
        None => (Vec::new(), 0),
    };
    times.retain(|at| now - at < window.seconds);
    if times.len() >= window.limit {
        let oldest = times.iter().min().copied().unwrap_or(now);
        let wait = (oldest + window.seconds - now).max(1);
        let minutes = (wait.max(60) + 59) / 60;
        return Err(ApiError::too_many_requests(format!(
            "{refusal}: try again in {minutes} minutes"
        ))
        .retry_after(wait));
    }
    times.push(now);
    let mut item = key;
    item.extend([
        (
            "sent".to_owned(),
            AttributeValue::L(times.iter().map(n).collect()),
        ),
        ("version".to_owned(), n(version + 1)),
        ("expiresAt".to_owned(), n(now + window.seconds)),
    ]);
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk) OR version = :read")
        .expression_attribute_values(":read", n(version))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

/// A cancelled transaction here means another request took the window meanwhile: ask to retry.
pub fn busy_or_internal<E>(
    error: aws_sdk_dynamodb::error::SdkError<E, aws_sdk_dynamodb::config::http::HttpResponse>,
) -> ApiError
where
    E: std::error::Error + Send + Sync + 'static + CancelledTransaction,
{
    if error
        .as_service_error()
        .is_some_and(CancelledTransaction::is_cancelled)
    {
        ApiError::too_many_requests(
            "Another request for the same address was just made: wait a moment and try again",
        )
        .retry_after(1)
    } else {
        ApiError::internal(error)
    }
}

pub trait CancelledTransaction {
    fn is_cancelled(&self) -> bool;
}

impl CancelledTransaction
    for aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError
{
    fn is_cancelled(&self) -> bool {
        self.is_transaction_canceled_exception()
    }
}

/// Public writes limited per sender: per e-mail address, and per source address when API Gateway gave one
/// (the local gateway has none). `scope` names the limited action in the items' keys
/// (`{scope}-RATE#email#{address}`).
pub struct PerSender<'a> {
    pub scope: &'a str,
    pub per_email: Window,
    pub per_email_refusal: &'a str,
    pub per_ip: Window,
    pub per_ip_refusal: &'a str,
}

/// The key of the window that counts `scope`'s uses by `by` (`email` or `ip`) `value`.
fn window_key(scope: &str, by: &str, value: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{scope}-RATE#{by}#{value}"))),
        ("sk".to_owned(), s("RATE")),
    ])
}

/// The key of the window that counts `scope`'s uses by the address `email`: the owner of the table reads
/// and deletes it by this exact key for the person's export and erasure.
pub fn email_window(scope: &str, email: &str) -> Item {
    window_key(scope, "email", email)
}

impl PerSender<'_> {
    fn key(&self, by: &str, value: &str) -> Item {
        window_key(self.scope, by, value)
    }

    /// The writes recording one more use for this sender, for the caller's transaction; 429 when a limit is
    /// reached.
    pub async fn reserve(
        &self,
        client: &aws_sdk_dynamodb::Client,
        table: &str,
        email: &str,
        ip: Option<&str>,
        now: i64,
    ) -> Result<Vec<TransactWriteItem>, ApiError> {
        let mut writes = vec![
            reserve(
                client,
                table,
                self.key("email", email),
                &self.per_email,
                now,
                self.per_email_refusal,
            )
            .await?,
        ];
        if let Some(ip) = ip {
            writes.push(
                reserve(
                    client,
                    table,
                    self.key("ip", ip),
                    &self.per_ip,
                    now,
                    self.per_ip_refusal,
                )
                .await?,
            );
        }
        Ok(writes)
    }
}

/// The viewer's address as CloudFront vouched for it (shared::edge), for a per-address limit; none when no
/// trusted layer set it (the tests' plain routers, the local gateway).
pub struct SourceIp(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SourceIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let crate::edge::ClientAddress(ip) =
            crate::edge::ClientAddress::from_request_parts(parts, state).await?;
        Ok(SourceIp(ip.map(crate::edge::rate_key)))
    }
}

/// Where a function keeps its per-address windows: one of its own tables. Put on the router as an
/// `Extension` so a route's limit layer finds it.
#[derive(Clone)]
pub struct RateStore {
    pub client: aws_sdk_dynamodb::Client,
    pub table: Arc<str>,
}

/// A limit on one route per viewer address (shared::edge), e.g. the checkout or the code lookup.
#[derive(Clone, Copy)]
pub struct AddressLimit {
    /// Names the limited action in the window's key (`{scope}-RATE#ip#{address}`).
    pub scope: &'static str,
    pub limit: usize,
    pub seconds: i64,
    pub refusal: &'static str,
}

/// Route middleware, put on a route by `ApiRoutes::limit_per_address(LIMIT)`, with a `RateStore`
/// extension on the router. Every attempt counts, a refused one too; past the limit the answer
/// is 429 `{message}` with `Retry-After`, and the handler does not run. Without a trusted viewer address
/// (a plain router in the tests, the local gateway) there is nothing to count by.
pub async fn limit_per_address(
    State(limit): State<AddressLimit>,
    crate::edge::ClientAddress(ip): crate::edge::ClientAddress,
    store: Option<axum::Extension<RateStore>>,
    request: Request,
    next: Next,
) -> Response {
    let (Some(ip), Some(axum::Extension(store))) = (ip, store) else {
        return next.run(request).await;
    };
    let key = Item::from([
        (
            "pk".to_owned(),
            s(format!(
                "{}-RATE#ip#{}",
                limit.scope,
                crate::edge::rate_key(ip)
            )),
        ),
        ("sk".to_owned(), s("RATE")),
    ]);
    let window = Window {
        limit: limit.limit,
        seconds: limit.seconds,
    };
    let now = crate::time::now_unix();
    let counted = match reserve(
        &store.client,
        &store.table,
        key,
        &window,
        now,
        limit.refusal,
    )
    .await
    {
        Ok(write) => store
            .client
            .transact_write_items()
            .transact_items(write)
            .send()
            .await
            .map(|_| ())
            .map_err(busy_or_internal),
        Err(refused) => Err(refused),
    };
    match counted {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}
