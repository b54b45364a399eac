//! The one error type of every function: a status and `{"message": ...}`. Client mistakes carry a message a
//! person can act on; server faults are logged with their cause chain and answer a generic message.

use axum::response::{IntoResponse, Response};
use http::{header, HeaderValue, StatusCode};
use std::fmt;

/// The messages the front end's shared error handler reacts to (spec, section 8). Keep them exact.
pub const NOT_AUTHORIZED: &str = "Not authorized";
pub const TOKEN_FAILED: &str = "token failed";
pub const PERSON_GONE: &str = "The person does not exist in the database";

pub struct ApiError {
    status: StatusCode,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// Seconds to wait, sent as `Retry-After` (a 429).
    retry_after: Option<i64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            source: None,
            retry_after: None,
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 422: the request reads fine but breaks a rule.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    pub fn unauthorized(message: &'static str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn too_many_requests(message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// 500: a fault of ours. The cause is logged, never shown.
    pub fn internal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "Something went wrong on our side. Try later.".to_owned(),
            source: Some(source.into()),
            retry_after: None,
        }
    }

    /// Keeps the fault behind a client-facing error, logged with the response (a provider's failure, say).
    pub fn caused_by(
        mut self,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        self.source = Some(source.into());
        self
    }

    /// Tells the client when to try again (`Retry-After`, in seconds).
    pub fn retry_after(mut self, seconds: i64) -> Self {
        self.retry_after = Some(seconds.max(1));
        self
    }

    pub fn retry_after_seconds(&self) -> Option<i64> {
        self.retry_after
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, self.message)?;
        if let Some(source) = &self.source {
            write!(f, ": {}", cause_chain(source.as_ref()))?;
        }
        Ok(())
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn cause_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![error.to_string()];
    let mut next = error.source();
    while let Some(cause) = next {
        parts.push(cause.to_string());
        next = cause.source();
    }
    parts.join(": ")
}

/// A JSON body with the charset spelled out, as API.md fixes.
pub fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    response
}

/// `{"message": ...}` with the given status: also used by fallbacks that are not handler errors.
pub fn message_response(status: StatusCode, message: &str) -> Response {
    let body = serde_json::to_vec(&serde_json::json!({ "message": message })).unwrap_or_default();
    json_response(status, body)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Some(source) = &self.source {
            tracing::error!(status = %self.status, cause = %cause_chain(source.as_ref()), "request failed");
        }
        let mut response = message_response(self.status, &self.message);
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl<E, R> From<aws_sdk_dynamodb::error::SdkError<E, R>> for ApiError
where
    E: std::error::Error + Send + Sync + 'static,
    R: fmt::Debug + Send + Sync + 'static,
{
    fn from(error: aws_sdk_dynamodb::error::SdkError<E, R>) -> Self {
        ApiError::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    async fn body_of(response: Response) -> serde_json::Value {
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn client_errors_answer_their_status_and_message() {
        let response = ApiError::invalid("price must be above 0").into_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "application/json; charset=utf-8"
        );
        assert_eq!(
            body_of(response).await,
            serde_json::json!({"message": "price must be above 0"})
        );
    }

    #[tokio::test]
    async fn internal_errors_hide_their_cause() {
        let cause = std::io::Error::other("table is on fire");
        let response = ApiError::internal(cause).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = body_of(response).await;
        assert!(!body["message"].as_str().unwrap().contains("fire"));
    }
}
