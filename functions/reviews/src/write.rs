//! Writing reviews: a shopper's new review (checked, rate-limited, stored with its summary counts in one
//! transaction), the check-only call the form can make first, and the admin's delete (the review and its
//! counts in one transaction, conditional on the review still being there).

use crate::review::{self, is_review_id, Review, ReviewInput};
use crate::summary::{self, Scope};
use crate::AppState;
use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem};
use axum::extract::State;
use shared::auth::Admin;
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::rate::{PerSender, SourceIp, Window};
use shared::{ApiError, ApiResult, Json};

/// Reviews one e-mail address may write in an hour.
pub const LIMIT_PER_EMAIL: usize = 5;
/// Reviews one source address may write in an hour. Generous: behind CloudFront the source address API
/// Gateway sees is the edge location's, shared by every shopper near it (docs/api.md, Reviews).
pub const LIMIT_PER_IP: usize = 30;
const HOUR: i64 = 3600;

const LIMITS: PerSender<'static> = PerSender {
    scope: "REVIEW",
    per_email: Window {
        limit: LIMIT_PER_EMAIL,
        seconds: HOUR,
    },
    per_email_refusal: "You have written several reviews with this e-mail address already",
    per_ip: Window {
        limit: LIMIT_PER_IP,
        seconds: HOUR,
    },
    per_ip_refusal: "Many reviews were written from your network in the last hour",
};

/// Creation time in nanoseconds, zero-padded so the text sorts as the number does.
fn order_key(id: &str) -> String {
    let nanos = time::OffsetDateTime::now_utc()
        .unix_timestamp_nanos()
        .max(0);
    format!("{nanos:020}#{id}")
}

/// POST /api/reviews/create/: 201 with the review as the public sees it.
pub async fn create_review(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Json(input): Json<ReviewInput>,
) -> ApiResult<Created<review::PublicView>> {
    let checked = input.check(&state).await?;
    let verified = orders::purchases::has_bought(
        &state.db,
        &state.orders_table,
        checked.email.as_str(),
        &checked.product.id,
    )
    .await?;
    let now = shared::time::now_unix();
    let mut writes = LIMITS
        .reserve(
            &state.db,
            &state.table,
            checked.email.as_str(),
            ip.as_deref(),
            now,
        )
        .await?;
    let id = shared::store::new_id();
    let review = Review {
        order: order_key(&id),
        id,
        rating: checked.rating,
        date: checked.date,
        created_at: shared::time::now_iso(),
        fullname: checked.fullname,
        comment: checked.comment,
        image: String::new(),
        product: checked.product.id.clone(),
        product_name: checked.product.name.clone(),
        email: checked.email.into_inner(),
        verified,
    };
    let put = Put::builder()
        .table_name(&*state.table)
        .set_item(Some(review.to_item()))
        .condition_expression("attribute_not_exists(pk)")
        .build()
        .map_err(ApiError::internal)?;
    writes.push(TransactWriteItem::builder().put(put).build());
    writes.push(summary::change(&state.table, Scope::All, review.rating, 1)?);
    writes.push(summary::change(
        &state.table,
        Scope::Product(&review.product),
        review.rating,
        1,
    )?);
    state
        .db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;
    Ok(Created(review::PublicView(review)))
}

/// POST /api/reviews/x/: the same checks as a create, storing nothing: 200 `{message}` or the 422.
pub async fn check_review(
    State(state): State<AppState>,
    Json(input): Json<ReviewInput>,
) -> ApiResult<Json<Message>> {
    input.check(&state).await?;
    Ok(Message::new("ok"))
}

fn no_such_review() -> ApiError {
    ApiError::not_found("No review has this id")
}

async fn find(state: &AppState, id: &str) -> Result<Option<Review>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(review::key(id)))
        .consistent_read(true)
        .send()
        .await?;
    found
        .item()
        .map(Review::from_item)
        .transpose()
        .map_err(Into::into)
}

/// DELETE /api/reviews/delete/{id}: 404 for an id no review has (or had, if another admin was quicker).
pub async fn delete_review(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    if !is_review_id(&id) {
        return Err(no_such_review());
    }
    let review = find(&state, &id).await?.ok_or_else(no_such_review)?;
    let delete = Delete::builder()
        .table_name(&*state.table)
        .set_key(Some(review::key(&id)))
        .condition_expression("attribute_exists(pk)")
        .build()
        .map_err(ApiError::internal)?;
    let result = state
        .db
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().delete(delete).build())
        .transact_items(summary::change(
            &state.table,
            Scope::All,
            review.rating,
            -1,
        )?)
        .transact_items(summary::change(
            &state.table,
            Scope::Product(&review.product),
            review.rating,
            -1,
        )?)
        .send()
        .await;
    match result {
        Ok(_) => Ok(Message::new("The review was deleted")),
        // The only condition is the review's: someone deleted it between our read and this write.
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception()) =>
        {
            match find(&state, &id).await? {
                None => Err(no_such_review()),
                Some(_) => Err(ApiError::conflict(
                    "The review changed meanwhile: reload and try again",
                )),
            }
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}
