//! Moderation: a shopper reports a review with a reason; the admin sees the reported reviews, hides one
//! (out of the public lists and counts, kept for the admin) or shows it again. Hiding or showing settles a
//! review's reports. Reports keep no reporter: a reason and a time, and one item per reported review
//! (`pk = REVIEW#id, sk = REPORTS`, listed newest reported first under `gsi1pk = REVIEW-REPORTED`). A
//! shopper's reports are limited per viewer address (`REPORT_LIMIT`).

use crate::review::{self, AdminView, Review};
use crate::summary::{self, Scope};
use crate::AppState;
use aws_sdk_dynamodb::types::{ConditionCheck, Delete, TransactWriteItem, Update};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::dynamo::{b, get_n, get_s_or_default, get_string_list, n, s, Item};
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::rate::AddressLimit;
use shared::validation::{bounded_text, without_controls, Lines};
use shared::{ApiError, ApiResult, Json};

/// Reports one viewer address may send in an hour.
pub const REPORT_LIMIT: AddressLimit = AddressLimit {
    scope: "REVIEW-REPORT",
    limit: 20,
    seconds: 60 * 60,
    refusal: "Many reviews were reported from your network in the last hour",
};

const REPORTED_LIST: &str = "REVIEW-REPORTED";
/// Reasons kept per review (the count goes on past them).
const REASONS_KEPT: usize = 20;
/// Reported reviews the admin's list shows.
const REPORTED_SHOWN: i32 = 100;
const REASON_MIN: usize = 5;
const REASON_MAX: usize = 500;

fn reports_key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{}#{id}", review::KIND))),
        ("sk".to_owned(), s("REPORTS")),
    ])
}

fn no_such_review() -> ApiError {
    ApiError::not_found("No review has this id")
}

async fn find(state: &AppState, id: &str) -> Result<Option<Review>, ApiError> {
    if !review::is_review_id(id) {
        return Ok(None);
    }
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

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ReportInput {
    /// What is wrong with the review, 5 to 500 characters.
    #[schemars(length(max = 500))]
    reason: Option<String>,
}

/// POST /api/reviews/report/{id}: a shopper tells the shop what is wrong with a shown review; 201.
pub async fn report_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<ReportInput>,
) -> ApiResult<Created<Message>> {
    let reason = body.reason.unwrap_or_default();
    let reason = without_controls("reason", &reason, Lines::Many)?;
    let reason = bounded_text("reason", reason.trim(), REASON_MAX)?;
    if reason.chars().count() < REASON_MIN {
        return Err(ApiError::invalid(
            "reason: say in a few words what is wrong with the review",
        ));
    }
    let review = find(&state, &id)
        .await?
        .filter(|review| !review.hidden)
        .ok_or_else(no_such_review)?;
    let existing = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(reports_key(&id)))
        .consistent_read(true)
        .send()
        .await?;
    let kept = existing
        .item()
        .map_or(0, |item| get_string_list(item, "reasons").len());
    let now = shared::time::now_iso();
    let reason_entry = aws_sdk_dynamodb::types::AttributeValue::L(if kept < REASONS_KEPT {
        vec![s(format!("{now} {reason}"))]
    } else {
        Vec::new()
    });
    let report = Update::builder()
        .table_name(&*state.table)
        .set_key(Some(reports_key(&id)))
        .update_expression(
            "ADD reports :one SET reasons = list_append(if_not_exists(reasons, :none), :reason), \
             lastReportedAt = :now, gsi1pk = :list, gsi1sk = :order, reviewId = :id",
        )
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(
            ":none",
            aws_sdk_dynamodb::types::AttributeValue::L(Vec::new()),
        )
        .expression_attribute_values(":reason", reason_entry)
        .expression_attribute_values(":now", s(&now))
        .expression_attribute_values(":list", s(REPORTED_LIST))
        .expression_attribute_values(":order", s(format!("{now}#{id}")))
        .expression_attribute_values(":id", s(&id))
        .build()
        .map_err(ApiError::internal)?;
    // Only a review still shown can be reported: not one hidden or deleted meanwhile.
    let shown = ConditionCheck::builder()
        .table_name(&*state.table)
        .set_key(Some(review::key(&review.id)))
        .condition_expression(
            "attribute_exists(pk) AND (attribute_not_exists(#hidden) OR #hidden = :no)",
        )
        .expression_attribute_names("#hidden", "hidden")
        .expression_attribute_values(":no", b(false))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().update(report).build())
        .transact_items(TransactWriteItem::builder().condition_check(shown).build())
        .send()
        .await
        .map_err(|error| {
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception())
            {
                no_such_review()
            } else {
                ApiError::internal(error)
            }
        })?;
    Ok(Created(Message {
        message: "Thank you: the shop will look at this review.".to_owned(),
    }))
}

/// A reported review as the admin sees it.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Reported {
    review: AdminView,
    /// How many reports it had.
    reports: u64,
    /// The reasons given (the first 20), each after its time.
    reasons: Vec<String>,
    #[serde(rename = "lastReportedAt")]
    last_reported_at: String,
}

/// GET /api/reviews/reported/ (admin): the reviews shoppers reported and no admin settled yet, the most
/// recently reported first (up to 100).
pub async fn list_reported(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<Reported>>> {
    let found = state
        .db
        .query()
        .table_name(&*state.table)
        .index_name("gsi1")
        .key_condition_expression("gsi1pk = :list")
        .expression_attribute_values(":list", s(REPORTED_LIST))
        .scan_index_forward(false)
        .limit(REPORTED_SHOWN)
        .send()
        .await?;
    let mut reported = Vec::new();
    for item in found.items() {
        let id = get_s_or_default(item, "reviewId");
        // A review deleted since it was reported has nothing left to settle.
        let Some(review) = find(&state, &id).await? else {
            continue;
        };
        reported.push(Reported {
            review: AdminView(review),
            reports: get_n(item, "reports").unwrap_or(0),
            reasons: get_string_list(item, "reasons"),
            last_reported_at: get_s_or_default(item, "lastReportedAt"),
        });
    }
    Ok(Json(reported))
}

/// The write that settles a review's reports (nothing if it had none).
fn settle_reports(state: &AppState, id: &str) -> Result<TransactWriteItem, ApiError> {
    let delete = Delete::builder()
        .table_name(&*state.table)
        .set_key(Some(reports_key(id)))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().delete(delete).build())
}

/// The reports' item goes with a review the admin deletes.
pub fn reports_gone(state: &AppState, id: &str) -> Result<TransactWriteItem, ApiError> {
    settle_reports(state, id)
}

/// POST /api/reviews/hide/{id} (admin): the review leaves the public lists and counts (its drink's too)
/// and its reports are settled; the admin still finds it under the hidden reviews. 409 if it is hidden.
pub async fn hide_review(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let review = find(&state, &id).await?.ok_or_else(no_such_review)?;
    if review.hidden {
        return Err(ApiError::conflict("This review is hidden already"));
    }
    let update = Update::builder()
        .table_name(&*state.table)
        .set_key(Some(review::key(&id)))
        .update_expression("SET #hidden = :yes, gsi1pk = :hidden REMOVE gsi2pk, gsi2sk")
        .condition_expression(
            "attribute_exists(pk) AND (attribute_not_exists(#hidden) OR #hidden = :no)",
        )
        .expression_attribute_names("#hidden", "hidden")
        .expression_attribute_values(":yes", b(true))
        .expression_attribute_values(":no", b(false))
        .expression_attribute_values(":hidden", s(review::HIDDEN_LIST))
        .build()
        .map_err(ApiError::internal)?;
    commit(
        &state,
        vec![
            TransactWriteItem::builder().update(update).build(),
            summary::hiding(&state.table, review.rating, -1)?,
            summary::change(
                &state.table,
                Scope::Product(&review.product),
                review.rating,
                -1,
            )?,
            settle_reports(&state, &id)?,
        ],
    )
    .await?;
    Ok(Message::new("The review is hidden"))
}

/// POST /api/reviews/unhide/{id} (admin): a hidden review is shown again, in the lists and counts; on a
/// shown review it settles the reports, keeping it shown. Either way its reports are settled.
pub async fn unhide_review(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let review = find(&state, &id).await?.ok_or_else(no_such_review)?;
    if !review.hidden {
        commit(&state, vec![settle_reports(&state, &id)?]).await?;
        return Ok(Message::new(
            "The review stays shown; its reports are settled",
        ));
    }
    let update = Update::builder()
        .table_name(&*state.table)
        .set_key(Some(review::key(&id)))
        .update_expression("SET #hidden = :no, gsi1pk = :list, gsi2pk = :drink, gsi2sk = :order")
        .condition_expression("#hidden = :yes")
        .expression_attribute_names("#hidden", "hidden")
        .expression_attribute_values(":yes", b(true))
        .expression_attribute_values(":no", b(false))
        .expression_attribute_values(":list", s(review::LIST))
        .expression_attribute_values(":drink", s(review::product_list(&review.product)))
        .expression_attribute_values(":order", s(&review.order))
        .build()
        .map_err(ApiError::internal)?;
    commit(
        &state,
        vec![
            TransactWriteItem::builder().update(update).build(),
            summary::hiding(&state.table, review.rating, 1)?,
            summary::change(
                &state.table,
                Scope::Product(&review.product),
                review.rating,
                1,
            )?,
            settle_reports(&state, &id)?,
        ],
    )
    .await?;
    Ok(Message::new("The review is shown again"))
}

async fn commit(state: &AppState, writes: Vec<TransactWriteItem>) -> Result<(), ApiError> {
    state
        .db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map(drop)
        .map_err(|error| {
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception())
            {
                ApiError::conflict("The review changed meanwhile: reload and try again")
            } else {
                ApiError::internal(error)
            }
        })
}
