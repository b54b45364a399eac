//! The public lists the storefront reads: the home page, the drinks list and search.

use crate::category::Category;
use crate::products::Product;
use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::extract::Query;
use shared::paging::{Page, PageNumber};
use shared::text_schema::Lines;
use shared::validation::without_controls;
use shared::{ApiError, ApiResult, Json};

/// Featured drinks on the home page.
const FEATURED: usize = 8;
/// Drinks per page of the shop and of search results.
pub const PAGE_SIZE: usize = 12;
const MAX_SEARCH: usize = 100;

#[derive(Serialize, schemars::JsonSchema)]
pub struct Home {
    product: Vec<Product>,
    category: Vec<Category>,
}

pub async fn show_home(State(state): State<AppState>) -> ApiResult<Json<Home>> {
    let (products, categories) = tokio::join!(
        state.store.list::<Product>(),
        state.store.list::<Category>()
    );
    let mut product = products?;
    // Stable: default drinks first, each group still in the admin's order.
    product.sort_by_key(|p| !p.is_default);
    product.truncate(FEATURED);
    Ok(Json(Home {
        product,
        category: categories?,
    }))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct DrinksQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// Only the drinks of this category (`_id`).
    category: Option<String>,
}

pub async fn list_drinks(
    State(state): State<AppState>,
    Query(query): Query<DrinksQuery>,
) -> ApiResult<Json<Page<Product>>> {
    let page = PageNumber::parse(query.page_number.as_deref())?;
    let category = query
        .category
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let drinks = state
        .store
        .list::<Product>()
        .await?
        .into_iter()
        .filter(|p| category.is_none() || p.category.as_deref() == category)
        .collect();
    Ok(Json(Page::of(drinks, page, PAGE_SIZE)))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SearchQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// Words that must all appear in a drink's name, pack or descriptions.
    #[schemars(regex(pattern = shared::text_schema::text_or_blank(Lines::One, 1, None)), length(max = 100))]
    search: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct SearchResult {
    comment: Page<Product>,
}

pub async fn search_drinks(
    State(state): State<AppState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Json<SearchResult>> {
    let page = PageNumber::parse(query.page_number.as_deref())?;
    let text = query.search.unwrap_or_default();
    if text.chars().count() > MAX_SEARCH {
        return Err(ApiError::bad_request(format!(
            "search must be at most {MAX_SEARCH} characters"
        )));
    }
    // A query's faults are 400s, as the length's is.
    without_controls("search", &text, Lines::One)
        .map_err(|e| ApiError::bad_request(e.message()))?;
    let terms: Vec<String> = text
        .to_lowercase()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let found = state
        .store
        .list::<Product>()
        .await?
        .into_iter()
        .filter(|p| p.matches(&terms))
        .collect();
    Ok(Json(SearchResult {
        comment: Page::of(found, page, PAGE_SIZE),
    }))
}
