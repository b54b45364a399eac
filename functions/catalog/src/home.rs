//! The public lists the storefront reads: the home page, the drinks list and search. All three read the
//! kept copy of the catalogue (`snapshot`), never the table per request.

use crate::browse::{Browse, DrinksQuery};
use crate::category::Category;
use crate::search;
use crate::snapshot::Listed;
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
    product: Vec<Listed>,
    category: Vec<Category>,
}

pub async fn show_home(State(state): State<AppState>) -> ApiResult<Json<Home>> {
    let catalogue = state.catalogue.current().await?;
    let mut product = catalogue.drinks.clone();
    // Stable: default drinks first, each group still in the admin's order.
    product.sort_by_key(|d| !d.product.is_default);
    product.truncate(FEATURED);
    Ok(Json(Home {
        product,
        category: catalogue.categories.clone(),
    }))
}

pub async fn list_drinks(
    State(state): State<AppState>,
    Query(query): Query<DrinksQuery>,
) -> ApiResult<Json<Page<Listed>>> {
    let page = PageNumber::parse(query.page_number.as_deref())?;
    let browse = Browse::parse(&query)?;
    let catalogue = state.catalogue.current().await?;
    let drinks = browse
        .apply(&catalogue.drinks)
        .into_iter()
        .cloned()
        .collect();
    Ok(Json(Page::of(drinks, page, PAGE_SIZE)))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SearchQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// Words that must all appear in a drink's name, pack, descriptions or category; a misspelt word is
    /// corrected when nothing matches as typed.
    #[schemars(regex(pattern = shared::text_schema::text_or_blank(Lines::One, 1, None)), length(max = 100))]
    search: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct SearchResult {
    comment: Page<Listed>,
    /// The corrected search whose drinks `comment` holds when nothing matched as typed (`"cola"` for
    /// `"colla"`); `null` when the search matched as typed or nothing was near.
    #[serde(rename = "didYouMean")]
    did_you_mean: Option<String>,
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
    let catalogue = state.catalogue.current().await?;
    let matching = |terms: &[String]| -> Vec<Listed> {
        catalogue
            .drinks
            .iter()
            .filter(|d| d.matches(terms))
            .cloned()
            .collect()
    };
    let mut found = matching(&terms);
    let mut did_you_mean = None;
    if found.is_empty() {
        if let Some(corrected) = correct(&catalogue, &terms) {
            found = matching(&corrected);
            if !found.is_empty() {
                did_you_mean = Some(corrected.join(" "));
            }
        }
    }
    Ok(Json(SearchResult {
        comment: Page::of(found, page, PAGE_SIZE),
        did_you_mean,
    }))
}

/// The search with each word that no drink holds replaced by the catalogue's nearest word; `None` when
/// a word has nothing near (or nothing needed correcting).
fn correct(catalogue: &crate::snapshot::Catalogue, terms: &[String]) -> Option<Vec<String>> {
    let mut changed = false;
    let mut corrected = Vec::with_capacity(terms.len());
    for term in terms {
        let held = catalogue
            .drinks
            .iter()
            .any(|d| d.matches(std::slice::from_ref(term)));
        if held {
            corrected.push(term.clone());
            continue;
        }
        // Punctuation around a word ("lemmon,") is not part of it.
        let word: String = search::words(term).collect::<Vec<_>>().join(" ");
        let suggestion = catalogue.index.suggest(&word)?;
        corrected.push(suggestion.to_owned());
        changed = true;
    }
    changed.then_some(corrected)
}
