//! Reading reviews: the public list (all, or one drink's), the admin's lists with e-mails (shown or hidden),
//! and the summary the reviews page opens with. Each page is one Query on a date index read newest first,
//! a page at a time: a page's answer carries a `cursor` (its last review's place) in `result.next`, and a
//! request with `?cursor=` reads on from there without reading what came before. `?pageNumber=n` alone
//! still answers page n for the spec's clients (reading the pages before it); the page count comes from the
//! summary's counter, not from reading every review.

use crate::review::{self, AdminView, PublicView, Review, ADMIN_PAGE, PUBLIC_PAGE};
use crate::summary::{self, Ratings, Scope};
use crate::AppState;
use axum::extract::State;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::dynamo::{s, Item};
use shared::extract::Query;
use shared::paging::{CursorPage, PageNumber, PageStart};
use shared::{ApiError, ApiResult, Json};

/// `?pageNumber=n&ProductsId=id`, kept as text so a bad value gets our message.
// `default` and `skip_serializing_if` change nothing in how an `Option` is read: they let the document say
// a parameter is optional without also saying `null`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ReviewsQuery {
    /// The page, from 1 (the first when absent).
    #[serde(
        rename = "pageNumber",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// Only this drink's reviews (its `_id`).
    #[serde(
        rename = "ProductsId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "String", length(max = 100))]
    products_id: Option<String>,
    /// Where the previous page ended (its `result.next.cursor`): the page after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", regex(pattern = CURSOR_PATTERN))]
    cursor: Option<String>,
}

impl ReviewsQuery {
    fn scope(&self) -> Result<Scope<'_>, ApiError> {
        scope_of(self.products_id.as_deref())
    }
}

/// `?ProductsId=id`: the summary's scope (it reads no page number).
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScopeQuery {
    /// Only this drink's reviews (its `_id`).
    #[serde(
        rename = "ProductsId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "String", length(max = 100))]
    products_id: Option<String>,
}

/// One drink's reviews when `ProductsId` names one, else every review.
fn scope_of(products_id: Option<&str>) -> Result<Scope<'_>, ApiError> {
    match products_id.map(str::trim) {
        None | Some("") => Ok(Scope::All),
        // Characters, as the document's maxLength counts them (a drink id may be any text).
        Some(id) if id.chars().count() <= 100 => Ok(Scope::Product(id)),
        Some(_) => Err(ApiError::bad_request("ProductsId is not a drink id")),
    }
}

/// A review's place in its list (`order`: 20 digits of nanoseconds, `#`, its id); blank is no cursor.
const CURSOR_PATTERN: &str =
    r"^\s*$|^[0-9]{20}#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

/// Which list a page is read from: one of the public ones, or the hidden reviews.
#[derive(Debug, Clone, Copy)]
enum List<'a> {
    Shown(Scope<'a>),
    Hidden,
}

impl List<'_> {
    fn index(self) -> (&'static str, &'static str, String) {
        match self {
            List::Shown(Scope::All) => ("gsi1", "gsi1pk", review::LIST.to_owned()),
            List::Shown(Scope::Product(id)) => ("gsi2", "gsi2pk", review::product_list(id)),
            List::Hidden => ("gsi1", "gsi1pk", review::HIDDEN_LIST.to_owned()),
        }
    }
}

fn is_cursor(text: &str) -> bool {
    match text.split_once('#') {
        Some((nanos, id)) => {
            nanos.len() == 20
                && nanos.bytes().all(|b| b.is_ascii_digit())
                && review::is_review_id(id)
        }
        None => false,
    }
}

/// One page of `list`, newest first, `per_page` a page, `total` reviews in all. `number` is the page's
/// number as the client counts (for `next.page`).
async fn page_of(
    state: &AppState,
    list: List<'_>,
    start: PageStart,
    number: u32,
    per_page: usize,
    total: u64,
) -> Result<CursorPage<Review>, ApiError> {
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    let pages = total.div_ceil(per_page).max(1);
    let skip = start.skip(per_page);
    let after = match start {
        PageStart::After(cursor) => Some(cursor),
        PageStart::Page(_) => None,
    };
    let product = if after.is_none() && skip >= total {
        Vec::new()
    } else {
        // One more than the page, to know whether a next page exists.
        let mut read = newest(state, list, after, skip + per_page + 1).await?;
        read.drain(..skip.min(read.len()));
        read
    };
    let pages = u32::try_from(pages).unwrap_or(u32::MAX);
    Ok(CursorPage::cut(product, number, per_page, pages, |last| {
        last.order.clone()
    }))
}

/// The `count` newest reviews of `list` after the place `after` (from the newest when `None`).
async fn newest(
    state: &AppState,
    list: List<'_>,
    after: Option<String>,
    count: usize,
) -> Result<Vec<Review>, ApiError> {
    let (index, partition, value) = list.index();
    let mut found = Vec::with_capacity(count);
    let mut start: Option<Item> = after.map(|order| {
        let id = order.split_once('#').map_or("", |(_, id)| id).to_owned();
        let mut key = review::key(&id);
        key.insert(partition.to_owned(), s(&value));
        key.insert(format!("{index}sk"), s(&order));
        key
    });
    while found.len() < count {
        let wanted = i32::try_from(count - found.len()).unwrap_or(i32::MAX);
        let page = state
            .db
            .query()
            .table_name(&*state.table)
            .index_name(index)
            .key_condition_expression("#p = :v")
            .expression_attribute_names("#p", partition)
            .expression_attribute_values(":v", s(&value))
            .scan_index_forward(false)
            .limit(wanted)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            found.push(Review::from_item(item)?);
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    found.truncate(count);
    Ok(found)
}

/// `?pageNumber=n&cursor=c&hidden=true`: the admin's list.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct AdminQuery {
    /// The page, from 1 (the first when absent).
    #[serde(
        rename = "pageNumber",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// Where the previous page ended (its `result.next.cursor`): the page after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", regex(pattern = CURSOR_PATTERN))]
    cursor: Option<String>,
    /// `true` lists the reviews the admin hid instead of the shown ones; blank is `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", regex(pattern = r"^\s*(true|false)?\s*$"))]
    hidden: Option<String>,
}

/// GET /api/reviews?pageNumber=n&cursor=c&hidden=true (admin): the shown reviews (or the hidden ones),
/// newest first, with the reviewers' e-mails.
pub async fn list_reviews(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<AdminQuery>,
) -> ApiResult<Json<CursorPage<AdminView>>> {
    let (start, number) = PageStart::parse(
        query.page_number.as_deref(),
        query.cursor.as_deref(),
        is_cursor,
    )?;
    let hidden = match query.hidden.as_deref().map(str::trim) {
        None | Some("" | "false") => false,
        Some("true") => true,
        Some(_) => return Err(ApiError::bad_request("hidden must be true or false")),
    };
    let ratings = summary::load(&state.db, &state.table, Scope::All).await?;
    let (list, total) = if hidden {
        (List::Hidden, ratings.hidden)
    } else {
        (List::Shown(Scope::All), ratings.total)
    };
    let reviews = page_of(&state, list, start, number, ADMIN_PAGE, total).await?;
    Ok(Json(reviews.map(AdminView)))
}

/// GET /api/home_uk/palestine/comment/reviews?pageNumber=n&ProductsId=id&cursor=c: newest first, never an
/// e-mail.
pub async fn list_public_reviews(
    State(state): State<AppState>,
    Query(query): Query<ReviewsQuery>,
) -> ApiResult<Json<CursorPage<PublicView>>> {
    let (start, number) = PageStart::parse(
        query.page_number.as_deref(),
        query.cursor.as_deref(),
        is_cursor,
    )?;
    let scope = query.scope()?;
    let total = summary::load(&state.db, &state.table, scope).await?.total;
    let reviews = page_of(
        &state,
        List::Shown(scope),
        start,
        number,
        PUBLIC_PAGE,
        total,
    )
    .await?;
    Ok(Json(reviews.map(PublicView)))
}

/// What the reviews page opens with.
#[derive(Serialize, JsonSchema)]
pub struct Summary {
    /// The site info, or `null` until it is created.
    connect: Option<content::SiteInfo>,
    ratings: Ratings,
    /// How many reviews there are.
    #[serde(rename = "Thecount")]
    count: u64,
    /// The first page of reviews, as the public list answers it.
    comment: CursorPage<PublicView>,
}

/// GET /api/home/uk/review/ (`?ProductsId=id` narrows it to one drink): what the reviews page opens with.
pub async fn show_summary(
    State(state): State<AppState>,
    Query(query): Query<ScopeQuery>,
) -> ApiResult<Json<Summary>> {
    let scope = scope_of(query.products_id.as_deref())?;
    let (ratings, connect) = tokio::join!(
        summary::load(&state.db, &state.table, scope),
        content::store::site_info(&state.db, &state.content_table)
    );
    let ratings = ratings?;
    let first = page_of(
        &state,
        List::Shown(scope),
        PageStart::Page(PageNumber::FIRST),
        1,
        PUBLIC_PAGE,
        ratings.total,
    )
    .await?;
    Ok(Json(Summary {
        connect: connect?,
        count: ratings.total,
        ratings,
        comment: first.map(PublicView),
    }))
}
