//! Writing reviews: a shopper's new review (checked, rate-limited, stored with its summary counts in one
//! transaction, verified only when proven: `proof`), the check-only call the form can make first, and the
//! admin's delete (the review and its counts in one transaction, conditional on the review still being
//! there).

use crate::proof;
use crate::review::{self, is_review_id, Review, ReviewInput};
use crate::summary::{self, Scope};
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use axum::extract::State;
use shared::auth::{Admin, MaybeSignedIn};
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::rate::{PerSender, SourceIp, Window};
use shared::recycle_bin;
use shared::{ApiError, ApiResult, Json};

/// Reviews one e-mail address may write in an hour.
pub const LIMIT_PER_EMAIL: usize = 5;
/// Reviews one source address may write in an hour. Generous: behind CloudFront the source address API
/// Gateway sees is the edge location's, shared by every shopper near it (docs/api.md, Reviews).
pub const LIMIT_PER_IP: usize = 30;
const HOUR: i64 = 3600;

/// Names the review writes' windows (`REVIEW-RATE#…`).
pub const RATE_SCOPE: &str = "REVIEW";

const LIMITS: PerSender<'static> = PerSender {
    scope: RATE_SCOPE,
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

/// Who wrote a review, as far as the shop can tell.
enum Writer {
    /// Through a delivered e-mail's link: the buyer.
    Invited(String),
    /// Signed in: their own address, proven by their login.
    SignedIn(String),
    /// A typed address, proven by nothing yet.
    Typed(String),
}

fn another_drink() -> ApiError {
    ApiError::invalid("products: this link is for another drink")
}

/// POST /api/reviews/create/: 201 with the review as the public sees it. It is shown at once, verified
/// only when proven (`proof`): a typed address gets the same unverified answer whoever it belongs to.
pub async fn create_review(
    State(state): State<AppState>,
    MaybeSignedIn(user): MaybeSignedIn,
    SourceIp(ip): SourceIp,
    Json(mut input): Json<ReviewInput>,
) -> ApiResult<Created<review::PublicView>> {
    let token = input.token.take().filter(|t| !t.trim().is_empty());
    let invited = match token {
        Some(token) => Some(proof::invitation(&state, &token).await?),
        None => None,
    };
    let checked = input
        .check(&state, invited.is_none() && user.is_none())
        .await?;
    let writer = match (invited, user, checked.email) {
        (Some((buyer, product)), _, _) => {
            if product != checked.product.id {
                return Err(another_drink());
            }
            Writer::Invited(buyer.email)
        }
        (None, Some(user), _) => Writer::SignedIn(user.email),
        (None, None, Some(email)) => Writer::Typed(email.into_inner()),
        (None, None, None) => {
            return Err(ApiError::invalid("email must be a valid e-mail address"))
        }
    };
    let email = match &writer {
        Writer::Invited(email) | Writer::SignedIn(email) | Writer::Typed(email) => email.clone(),
    };
    let product = checked.product.id.clone();
    let bought = match writer {
        Writer::Invited(_) => true,
        Writer::SignedIn(_) | Writer::Typed(_) => {
            orders::purchases::has_bought(&state.db, &state.orders_table, &email, &product).await?
        }
    };
    // Proven and bought, and the buyer's first verified review of the drink.
    let proven = !matches!(writer, Writer::Typed(_));
    let verified = proven && bought && !proof::has_mark(&state, &email, &product).await?;
    let now = shared::time::now_unix();
    let mut writes = LIMITS
        .reserve(&state.db, &state.table, &email, ip.as_deref(), now)
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
        product,
        product_name: checked.product.name.clone(),
        email,
        verified,
        hidden: false,
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
    if verified {
        writes.push(proof::put_mark(
            &state,
            &review.email,
            &review.product,
            &review.id,
        )?);
    }
    // A typed address is asked to confirm, if confirming could verify it: a buyer's. The answer is the
    // same either way, so it tells the writer nothing about the address.
    let mail = if !proven && bought {
        let (item, handle) = state
            .outbox
            .put(&proof::confirmation_mail(&state, &review))?;
        writes.push(item);
        Some(handle)
    } else {
        None
    };
    state
        .db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;
    if let Some(mail) = mail {
        state.outbox.enqueue(mail).await;
    }
    Ok(Created(review::PublicView(review)))
}

/// POST /api/reviews/x/: the same checks as a create, storing nothing: 200 `{message}` or the 422.
pub async fn check_review(
    State(state): State<AppState>,
    MaybeSignedIn(user): MaybeSignedIn,
    Json(mut input): Json<ReviewInput>,
) -> ApiResult<Json<Message>> {
    let token = input.token.take().filter(|t| !t.trim().is_empty());
    let invited = match token {
        Some(token) => Some(proof::invitation(&state, &token).await?),
        None => None,
    };
    let checked = input
        .check(&state, invited.is_none() && user.is_none())
        .await?;
    if invited.is_some_and(|(_, product)| product != checked.product.id) {
        return Err(another_drink());
    }
    Ok(Message::new("ok"))
}

fn no_such_review() -> ApiError {
    ApiError::not_found("No review has this id")
}

async fn find_item(state: &AppState, id: &str) -> Result<Option<shared::dynamo::Item>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(review::key(id)))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found.item)
}

/// A review's own count changes: `delta` -1 when it leaves the lists, +1 when it comes back.
fn count_changes(
    state: &AppState,
    review: &Review,
    delta: i64,
) -> Result<[TransactWriteItem; 2], ApiError> {
    Ok([
        summary::change(&state.table, Scope::All, review.rating, delta)?,
        summary::change(
            &state.table,
            Scope::Product(&review.product),
            review.rating,
            delta,
        )?,
    ])
}

/// DELETE /api/reviews/delete/{id}: the review goes to the bin for 30 days (`shared::recycle_bin`) and out
/// of the counts, in one transaction; 404 for an id no review has (or had, if another admin was quicker).
pub async fn delete_review(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    if !is_review_id(&id) {
        return Err(no_such_review());
    }
    let item = find_item(&state, &id).await?.ok_or_else(no_such_review)?;
    let review = Review::from_item(&item)?;
    let label = format!(
        "{} ({} stars) on {}",
        review.fullname, review.rating, review.product_name
    );
    let mut writes = Vec::from(recycle_bin::move_in(
        &state.table,
        &item,
        review::KIND,
        &id,
        &label,
        shared::time::now_unix(),
    )?);
    // A hidden review is out of the counts already.
    if review.hidden {
        writes.push(summary::hidden(&state.table, -1)?);
    } else {
        writes.extend(count_changes(&state, &review, -1)?);
    }
    writes.push(crate::moderation::reports_gone(&state, &id)?);
    let changed = "The review changed meanwhile: reload and try again";
    match recycle_bin::commit(&state.db, writes, changed).await {
        Ok(()) => Ok(Message::new("The review was deleted")),
        // Someone deleted it between our read and this write, or changed it.
        Err(conflict) => match find_item(&state, &id).await? {
            None => Err(no_such_review()),
            Some(_) => Err(conflict),
        },
    }
}

/// GET /api/reviews/bin/: the reviews deleted in the last 30 days, newest first.
pub async fn list_binned_reviews(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<recycle_bin::Entry>>> {
    Ok(Json(
        recycle_bin::list(
            &state.db,
            &state.table,
            review::KIND,
            shared::time::now_unix(),
        )
        .await?,
    ))
}

/// POST /api/reviews/restore/{id}: a deleted review back in its drink's list and counts.
pub async fn restore_review(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let not_binned = || ApiError::not_found("No review with this id is in the bin");
    if !is_review_id(&id) {
        return Err(not_binned());
    }
    let pk = format!("{}#{id}", review::KIND);
    let binned = recycle_bin::find(&state.db, &state.table, &pk, shared::time::now_unix())
        .await?
        .ok_or_else(not_binned)?;
    let review = Review::from_item(&binned.item)?;
    let mut writes = Vec::from(binned.move_out(&state.table)?);
    if review.hidden {
        writes.push(summary::hidden(&state.table, 1)?);
    } else {
        writes.extend(count_changes(&state, &review, 1)?);
    }
    recycle_bin::commit(
        &state.db,
        writes,
        "The review was restored meanwhile: reload the bin",
    )
    .await?;
    Ok(Message::new("The review is back"))
}
