//! Reading reviews: the public list (all, or one drink's), the admin's list with e-mails, and the summary
//! the reviews page opens with. Each page is one Query on a date index read newest first, stopping at the
//! page's last review; the page count comes from the summary's counter, not from reading every review.

use crate::review::{self, AdminView, PublicView, Review, ADMIN_PAGE, PUBLIC_PAGE};
use crate::summary::{self, Ratings, Scope};
use crate::AppState;
use axum::extract::State;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::dynamo::{s, Item};
use shared::extract::Query;
use shared::paging::{NextPage, Page, PageNumber, PageQuery, PageResult};
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

/// Page `page` of `scope`'s reviews, newest first, `per_page` a page.
async fn page_of(
    state: &AppState,
    scope: Scope<'_>,
    page: PageNumber,
    per_page: usize,
    total: u64,
) -> Result<Page<Review>, ApiError> {
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    let pages = total.div_ceil(per_page).max(1);
    let skip = (page.get() as usize - 1).saturating_mul(per_page);
    let product = if skip >= total {
        Vec::new()
    } else {
        let mut newest = newest(state, scope, skip + per_page).await?;
        newest.drain(..skip.min(newest.len()));
        newest
    };
    let next = (page.get() as usize) < pages;
    Ok(Page {
        product,
        pages: pages as u32,
        result: PageResult {
            next: next.then(|| NextPage {
                page: page.get() + 1,
            }),
        },
    })
}

/// The `count` newest reviews of `scope` (fewer if there are fewer).
async fn newest(state: &AppState, scope: Scope<'_>, count: usize) -> Result<Vec<Review>, ApiError> {
    let (index, partition, value) = match scope {
        Scope::All => ("gsi1", "gsi1pk", review::LIST.to_owned()),
        Scope::Product(id) => ("gsi2", "gsi2pk", review::product_list(id)),
    };
    let mut found = Vec::with_capacity(count);
    let mut start: Option<Item> = None;
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

fn map_page<T>(page: Page<Review>, view: impl Fn(Review) -> T) -> Page<T> {
    Page {
        product: page.product.into_iter().map(view).collect(),
        pages: page.pages,
        result: page.result,
    }
}

/// GET /api/reviews?pageNumber=n (admin): every review, newest first, with the reviewer's e-mail.
pub async fn list_reviews(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<AdminView>>> {
    let page = query.page()?;
    let total = summary::load(&state.db, &state.table, Scope::All)
        .await?
        .total;
    let reviews = page_of(&state, Scope::All, page, ADMIN_PAGE, total).await?;
    Ok(Json(map_page(reviews, AdminView)))
}

/// GET /api/home_uk/palestine/comment/reviews?pageNumber=n&ProductsId=id: newest first, never an e-mail.
pub async fn list_public_reviews(
    State(state): State<AppState>,
    Query(query): Query<ReviewsQuery>,
) -> ApiResult<Json<Page<PublicView>>> {
    let page = PageNumber::parse(query.page_number.as_deref())?;
    let scope = query.scope()?;
    let total = summary::load(&state.db, &state.table, scope).await?.total;
    let reviews = page_of(&state, scope, page, PUBLIC_PAGE, total).await?;
    Ok(Json(map_page(reviews, PublicView)))
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
    comment: Page<PublicView>,
}

/// GET /api/home/uk/review/ (`?ProductsId=id` narrows it to one drink): what the reviews page opens with.
pub async fn show_summary(
    State(state): State<AppState>,
    Query(query): Query<ScopeQuery>,
) -> ApiResult<Json<Summary>> {
    let scope = scope_of(query.products_id.as_deref())?;
    let (ratings, connect) = tokio::join!(
        summary::load(&state.db, &state.table, scope),
        state.content.get::<content::SiteInfo>(content::SITE_ID)
    );
    let ratings = ratings?;
    let first = page_of(&state, scope, PageNumber::FIRST, PUBLIC_PAGE, ratings.total).await?;
    Ok(Json(Summary {
        connect: connect?,
        count: ratings.total,
        ratings,
        comment: map_page(first, PublicView),
    }))
}
