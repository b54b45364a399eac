//! The path and query extractors every route uses: axum's, with their refusals in the shop's `{message}`
//! JSON (axum's own answer a bad path or query in plain text, which no client of this API reads).

use crate::error::ApiError;
use axum::extract::FromRequestParts;
use http::request::Parts;
use serde::de::DeserializeOwned;

/// The path's parameters (`/api/product/{_id}`); a segment that does not decode is a 400 `{message}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Path(value))
            .map_err(|rejection| {
                ApiError::bad_request(format!(
                    "The address does not fit: {}",
                    rejection.body_text()
                ))
            })
    }
}

/// The query string; one that does not fit T (a parameter twice, say) is a 400 `{message}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(value)| Query(value))
            .map_err(|rejection| {
                ApiError::bad_request(format!("The query does not fit: {}", rejection.body_text()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::{Request, StatusCode};
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Search {
        #[allow(dead_code)]
        search: Option<String>,
    }

    #[tokio::test]
    async fn a_query_that_does_not_fit_is_a_json_400() {
        let (mut parts, ()) = Request::get("/api/x?search=a&search=b")
            .body(())
            .unwrap()
            .into_parts();
        let error = Query::<Search>::from_request_parts(&mut parts, &())
            .await
            .unwrap_err();
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert!(
            error.message().starts_with("The query does not fit"),
            "{}",
            error.message()
        );

        let (mut parts, ()) = Request::get("/api/x?search=cola")
            .body(())
            .unwrap()
            .into_parts();
        assert!(Query::<Search>::from_request_parts(&mut parts, &())
            .await
            .is_ok());
    }
}
