//! The admin's list of orders, newest first, a page at a time: a page's answer carries a `cursor` (its
//! last order's place, created then id) in `result.next`, and `?cursor=` reads the next page from the
//! `ORDERS` date index without reading the pages before it. `?pageNumber=n` alone still answers page n for
//! the spec's clients (reading past the pages before it). A search (an id, a number, an e-mail, words of a
//! name) reads what it finds and is cut into pages the same way.
//!
//! There is no count of orders to read, so `pages` says what is known: the page answered, and one more
//! while a next page exists.

use crate::index::query_page;
use crate::manage::{orders_of, shown, with_money};
use crate::money::{self, Audience, OrderMoney, ShownOrder};
use crate::order::{order_key, Order};
use crate::AppState;
use axum::extract::State;
use serde::Deserialize;
use shared::auth::Admin;
use shared::dynamo::{s, Item};
use shared::extract::Query;
use shared::paging::{CursorPage, PageStart};
use shared::validation::{without_controls, Lines};
use shared::{ApiError, ApiResult, Json};

pub const ADMIN_PAGE: usize = 20;

/// An order's place as a cursor spells it: its creation time (RFC 3339, UTC), `#`, its id; blank is none.
const CURSOR_PATTERN: &str = r"^\s*$|^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

/// The index partition every order is listed in, with its place as the sort key.
const INDEX: (&str, &str, &str) = ("gsi2", "gsi2pk", "ORDERS");

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SearchQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    page_number: Option<String>,
    /// An order id, a customer's e-mail, or words of the customer's name.
    #[schemars(
        regex(pattern = shared::text_schema::text_or_blank(Lines::One, 1, None)),
        length(max = 100)
    )]
    search: Option<String>,
    /// Where the previous page ended (its `result.next.cursor`): the page after it.
    #[serde(default)]
    #[schemars(regex(pattern = CURSOR_PATTERN))]
    cursor: Option<String>,
}

/// Exactly what `CURSOR_PATTERN` spells.
fn is_cursor(text: &str) -> bool {
    let Some((at, id)) = text.split_once('#') else {
        return false;
    };
    let shape = |text: &str, template: &str| {
        text.len() == template.len()
            && text.bytes().zip(template.bytes()).all(|(c, t)| match t {
                b'9' => c.is_ascii_digit(),
                b'x' => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
                _ => c == t,
            })
    };
    shape(at, "9999-99-99T99:99:99Z") && shape(id, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
}

/// Newest first; `search` finds an order id, an order number (`PD-10001` or `10001`), a customer's e-mail,
/// or words of the customer's name. Without a search, one page of the date index is read.
pub async fn list_orders(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Json<CursorPage<ShownOrder>>> {
    let (start, number) = PageStart::parse(
        query.page_number.as_deref(),
        query.cursor.as_deref(),
        is_cursor,
    )?;
    let search = query.search.unwrap_or_default();
    if search.chars().count() > 100 {
        return Err(ApiError::bad_request(
            "search must be at most 100 characters",
        ));
    }
    // A query's faults are 400s, as the length's is.
    without_controls("search", &search, Lines::One)
        .map_err(|e| ApiError::bad_request(e.message()))?;
    let search = search.trim().to_lowercase();
    let read = if search.is_empty() {
        newest(&state, &start).await?
    } else {
        let found = found(&state, &search).await?;
        let from = match &start {
            PageStart::After(cursor) => found
                .iter()
                .position(|(o, _)| o.place().as_str() < cursor.as_str())
                .unwrap_or(found.len()),
            PageStart::Page(_) => start.skip(ADMIN_PAGE),
        };
        found.into_iter().skip(from).take(ADMIN_PAGE + 1).collect()
    };
    let page = CursorPage::cut(read, number, ADMIN_PAGE, number, |(o, _)| o.place());
    Ok(Json(CursorPage {
        product: shown(page.product, Audience::Admin)?,
        pages: page.pages,
        result: page.result,
    }))
}

/// The page `start` names of every order, and the order after it (to know whether a next page exists).
async fn newest(state: &AppState, start: &PageStart) -> Result<Vec<(Order, OrderMoney)>, ApiError> {
    let (index, partition, value) = INDEX;
    let after = match start {
        PageStart::After(place) => {
            let id = place.split_once('#').map_or("", |(_, id)| id);
            let mut key: Item = order_key(id);
            key.insert(partition.to_owned(), s(value));
            key.insert(format!("{index}sk"), s(place));
            Some(key)
        }
        PageStart::Page(_) => None,
    };
    let skip = start.skip(ADMIN_PAGE);
    let mut items = query_page(state, INDEX, after, skip + ADMIN_PAGE + 1).await?;
    items.drain(..skip.min(items.len()));
    with_money(&items)
}

/// What a search finds, newest first.
async fn found(state: &AppState, search: &str) -> Result<Vec<(Order, OrderMoney)>, ApiError> {
    if let Some(found) = money::find(state, search).await? {
        return Ok(vec![found]);
    }
    if search.contains('@') {
        return orders_of(state, search).await;
    }
    let (index, partition, value) = INDEX;
    let all = with_money(&crate::index::query_all(state, index, partition, value).await?)?;
    Ok(match crate::order::parse_number(search) {
        Some(number) => all
            .into_iter()
            .filter(|(o, _)| o.number == Some(number))
            .collect(),
        None => {
            let words: Vec<&str> = search.split_whitespace().collect();
            all.into_iter()
                .filter(|(o, _)| {
                    let name = o.fullname.to_lowercase();
                    words.iter().all(|w| name.contains(w))
                })
                .collect()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_is_a_utc_time_and_an_order_id() {
        let id = "0b7e2c1a-9f0e-4d7b-8a51-3c2d1e0f9a8b";
        assert!(is_cursor(&format!("2026-12-02T10:00:00Z#{id}")));
        assert!(!is_cursor(&format!("2026-12-02T10:00:00+01:00#{id}")));
        assert!(!is_cursor(&format!("yesterday#{id}")));
        assert!(!is_cursor("2026-12-02T10:00:00Z#not-an-id"));
        assert!(!is_cursor(&format!(
            "2026-12-02T10:00:00Z#{}",
            id.to_uppercase()
        )));
        assert!(!is_cursor(id));
    }
}
