//! After the browser's 3-D Secure step: the server asks Stripe where the payment stands (and confirms it
//! when Stripe waits for that), never taking the browser's word.

use super::find::find_order;
use super::reply::{id_reply, settlement_reply};
use crate::order::Status;
use crate::payment::{payment_required, settle, settle_refusal, Settlement};
use crate::AppState;
use axum::extract::State;
use axum::response::Response;
use http::StatusCode;
use shared::extract::Path;
use shared::{ApiError, ApiResult};

/// 200 with the id once paid.
pub async fn confirm_order(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let order = find_order(&state, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has this id"))?;
    match order.status {
        Status::Pending => {}
        Status::Expired | Status::Cancelled => return Err(payment_required(
            "This payment did not complete, so nothing was charged. Please place the order again.",
        )),
        _ => return Ok(id_reply(StatusCode::OK, &order.id)),
    }
    if order.payment_intent.is_empty() {
        return Err(ApiError::conflict(
            "This order is being placed already: wait a moment",
        ));
    }
    let settled = match state.stripe.intent(&order.payment_intent).await {
        Ok(intent) => settle(&state, &order, intent, true).await?,
        Err(error) => settle_refusal(&state, &order, error).await?,
    };
    if let Settlement::NeedsAction { .. } = settled {
        return Err(ApiError::conflict(
            "Your bank is still waiting for you to confirm this payment",
        ));
    }
    settlement_reply(&order.id, settled, StatusCode::OK)
}
