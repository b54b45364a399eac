//! Unsubscribe links: `?token={id}.{signature}`, the signature an HMAC-SHA256 over the subscriber's id (itself
//! derived from their address) with a key derived from the configured secret. Nobody can make a link for
//! someone else's address, and following a link twice is harmless. Mail clients unsubscribe in one click
//! (RFC 8058): they `POST` `List-Unsubscribe=One-Click` to the same link, which the headers here announce.

use crate::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::response::{IntoResponse, Response};
use http::{header, HeaderMap, StatusCode};
use serde::Deserialize;
use shared::extract::Query;
use shared::json::Message;
use shared::mail::escape_html;
use shared::openapi::{BodyDoc, Doc, DocumentArg};
use shared::{ApiError, ApiResult, Json};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct UnsubscribeQuery {
    /// The token of the link in the e-mail (`{id}.{signature}`); a forged one is refused.
    #[schemars(required, with = "crate::schema::UnsubscribeToken")]
    token: Option<String>,
}

pub const UNSUBSCRIBED: &str =
    "You are unsubscribed: you will get no more e-mails from our mail lists.";
pub const BAD_LINK: &str =
    "This unsubscribe link is not valid. Use the link from the most recent e-mail, or contact us.";

/// GET /api/subscription/unsubscribe/?token=...: removes the subscriber a genuine token names and answers a
/// small page (or `{message}` to a client that asks for JSON); 400 for a missing or forged token.
pub async fn unsubscribe(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<UnsubscribeQuery>, ApiError>,
) -> Result<Response, ApiError> {
    // A query that does not even parse (the token twice, say) is a bad link too, answered as a page.
    let token = query.ok().and_then(|Query(query)| query.token);
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    let Some(id) = token
        .as_deref()
        .and_then(|token| state.unsubscribe.verify(token))
    else {
        return Ok(answer(
            &state,
            wants_json,
            StatusCode::BAD_REQUEST,
            BAD_LINK,
        ));
    };
    remove(&state, id).await?;
    Ok(answer(&state, wants_json, StatusCode::OK, UNSUBSCRIBED))
}

/// Removes subscriber `id`; one already gone (a second click) is no error: the wish holds all the same.
pub(crate) async fn remove(state: &AppState, id: &str) -> Result<(), ApiError> {
    crate::subscriber::remove(state, id).await.map(drop)
}

pub const ONE_CLICK: &str = "List-Unsubscribe=One-Click";

/// The body of a one-click unsubscribe, as bytes: any media type is read (RFC 8058 allows a form or a
/// multipart body). Too large a body is a 413 `{message}`.
pub struct OneClickBody(Bytes);

impl<S: Send + Sync> FromRequest<S> for OneClickBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(request, state)
            .await
            .map(OneClickBody)
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))
    }
}

/// The form a mail client posts: `List-Unsubscribe=One-Click`.
struct OneClickForm;

impl schemars::JsonSchema for OneClickForm {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OneClickUnsubscribe".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "RFC 8058's one-click unsubscribe (a multipart body with the same field is read too).",
            "type": "object",
            "properties": { "List-Unsubscribe": { "const": "One-Click" } },
            "required": ["List-Unsubscribe"],
        })
    }
}

impl DocumentArg for OneClickBody {
    fn document(doc: &mut Doc) {
        doc.body = Some(BodyDoc {
            media: "application/x-www-form-urlencoded",
            schema: shared::openapi::schema::<OneClickForm>,
        });
        // Not the one-click form (400), too large (413).
        doc.errors.extend([400, 413]);
    }
}

/// POST /api/subscription/unsubscribe/?token=...: RFC 8058's one-click unsubscribe, sent by the mail client
/// with the body `List-Unsubscribe=One-Click` (form-encoded or multipart). Answers `{message}`: no page, no
/// cookie, no redirect. A forged token is a 400; a body without the one-click field is a 400 too, so a
/// stray POST (a link scanner) unsubscribes nobody.
pub async fn unsubscribe_one_click(
    State(state): State<AppState>,
    Query(query): Query<UnsubscribeQuery>,
    OneClickBody(body): OneClickBody,
) -> ApiResult<Json<Message>> {
    let body = String::from_utf8_lossy(&body);
    let one_click = body
        .split(['&', '\r', '\n'])
        .any(|field| field.trim() == ONE_CLICK)
        || (body.contains("name=\"List-Unsubscribe\"") && body.contains("One-Click"));
    if !one_click {
        return Err(ApiError::bad_request(format!(
            "The body must be {ONE_CLICK}"
        )));
    }
    let Some(id) = query
        .token
        .as_deref()
        .and_then(|token| state.unsubscribe.verify(token))
    else {
        return Err(ApiError::bad_request(BAD_LINK));
    };
    remove(&state, id).await?;
    Ok(Message::new(UNSUBSCRIBED))
}

/// A small page (or `{message}` to a client that asks for JSON) for the links in e-mails.
pub(crate) fn answer(
    state: &AppState,
    wants_json: bool,
    status: StatusCode,
    message: &str,
) -> Response {
    if wants_json {
        return shared::error::message_response(status, message);
    }
    let shop = escape_html(&state.shop_name);
    let page = format!(
        "<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{shop}</title></head>\
         <body style=\"font-family:Arial,Helvetica,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#2b1a12\">\
         <h1>{shop}</h1><p>{}</p><p><a href=\"/\">Back to the shop</a></p></body></html>",
        escape_html(message)
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response()
}
