//! A sliding-window limit kept on one item: the times of recent uses, rewritten conditionally on the
//! version read, so two racing requests cannot both slip under the limit. The caller puts the returned
//! write in the same transaction as the thing being limited, so a refused request leaves nothing behind.

use crate::dynamo::{get_n, n, s, Item};
use crate::ApiError;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use axum::extract::FromRequestParts;
use http::request::Parts;
use lambda_http::request::RequestContext;

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
        let minutes = ((oldest + window.seconds - now).max(60) + 59) / 60;
        return Err(ApiError::too_many_requests(format!(
            "{refusal}: try again in {minutes} minutes"
        )));
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

impl PerSender<'_> {
    fn key(&self, by: &str, value: &str) -> Item {
        Item::from([
            (
                "pk".to_owned(),
                s(format!("{}-RATE#{by}#{value}", self.scope)),
            ),
            ("sk".to_owned(), s("RATE")),
        ])
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

/// The caller's address as API Gateway saw it (`requestContext.http.sourceIp`), for a per-address limit;
/// none in the local gateway. Behind CloudFront it is the edge location's address, shared by many people.
pub struct SourceIp(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SourceIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = match parts.extensions.get::<RequestContext>() {
            Some(RequestContext::ApiGatewayV2(context)) => context
                .http
                .source_ip
                .as_deref()
                .and_then(|ip| ip.parse::<std::net::IpAddr>().ok())
                .map(|ip| ip.to_string()),
            _ => None,
        };
        Ok(SourceIp(ip))
    }
}
