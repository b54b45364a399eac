//! A mailing as a job: recorded `queued` by the mailer, planned page by page through the subscriber index by
//! the sender function, sent one reader per queue job, and counted as it goes (`sent`, `failed`, `skipped`,
//! `outstanding`) so the admin sees its progress. Each reader's e-mail is rendered here, with RFC 8058
//! one-click unsubscribe headers; the sender only claims, sends and settles.

mod counters;
mod delivery;
mod plan;
mod queue;
mod record;

pub use counters::{count, count_feedback, finish_if_done, Outcome, Tally};
pub use delivery::{delivery, readers, Delivery, Reader};
pub use plan::{plan, step_id, PAGE_SIZE};
pub use queue::{count_recipients, queue};
pub use record::{load, stored, Mailing, Status};

use crate::AppState;
use axum::extract::State;
use shared::auth::Admin;
use shared::extract::{Path, Query};
use shared::paging::{Page, PageQuery};
use shared::store::not_found;
use shared::{ApiResult, Json};

/// Mailings per page of the admin's list.
const PER_PAGE: usize = 20;

/// GET /api/subscription/mailings/?pageNumber=n: the mailings, newest first, in the paged envelope.
pub async fn list_mailings(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<Mailing>>> {
    let page = query.page()?;
    let mut all = state.store.list::<Mailing>().await?;
    all.reverse();
    Ok(Json(Page::of(all, page, PER_PAGE)))
}

/// GET /api/subscription/mailings/{id}: one mailing and its progress.
pub async fn get_mailing(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Mailing>> {
    if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(not_found::<Mailing>());
    }
    match load(&state, &id).await? {
        Some(mailing) => Ok(Json(mailing)),
        None => Err(not_found::<Mailing>()),
    }
}
