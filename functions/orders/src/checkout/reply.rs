//! The checkout's answers: the order's id, the 3-D Secure step with its client secret, or why the payment
//! did not go through.

use crate::payment::{payment_required, Settlement};
use crate::AppState;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use shared::{ApiError, Json};

/// 202: the bank wants the shopper to confirm the payment (3-D Secure). Stripe.js takes the client secret,
/// then the browser calls `POST /api/order/confirm/{id}/`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct ActionRequired {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "clientSecret")]
    client_secret: String,
    status: NextStep,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub enum NextStep {
    #[serde(rename = "requires_action")]
    RequiresAction,
}

/// The header of the checkout's answers that carries the order link's key (`{expires}.{signature}`, as the
/// order's e-mails carry it): the browser that placed the order opens its page whole with `?key=`, while
/// the bare id shows only where the order stands. Only the checkout's own answers carry it (a new order, or
/// a retry under its Idempotency-Key): the 3-D Secure confirmation, open to anyone with the id, does not.
pub const ORDER_KEY: &str = "Order-Key";

/// `response` with the key of order `id`'s link (working as long as an e-mailed one).
pub(crate) fn with_order_key(state: &AppState, id: &str, mut response: Response) -> Response {
    let key = state.links.fresh_key(id, shared::time::now_unix());
    if let Ok(value) = http::HeaderValue::from_str(&key) {
        response.headers_mut().insert(ORDER_KEY, value);
    }
    response
}

pub(crate) fn id_reply(status: StatusCode, id: &str) -> Response {
    let mut response = Json(id).into_response();
    *response.status_mut() = status;
    response
}

/// The answer for a settlement: the id (`paid_status`: 201 for a new order, 200 otherwise), 202 with the
/// client secret for 3-D Secure, 402 for a refusal, 409 while Stripe is still working.
pub(crate) fn settlement_reply(
    id: &str,
    settlement: Settlement,
    paid_status: StatusCode,
) -> Result<Response, ApiError> {
    match settlement {
        Settlement::Paid => Ok(id_reply(paid_status, id)),
        Settlement::NeedsAction { client_secret } => {
            let mut response = Json(ActionRequired {
                id: id.to_owned(),
                client_secret,
                status: NextStep::RequiresAction,
            })
            .into_response();
            *response.status_mut() = StatusCode::ACCEPTED;
            Ok(response)
        }
        Settlement::Failed { message } => Err(payment_required(message)),
        Settlement::Crowded { refusal } => Err(refusal),
        Settlement::Waiting => Err(ApiError::conflict(format!(
            "Your payment is still being processed: order {id} will show as paid as soon as the bank confirms it"
        ))),
    }
}
