//! Reading a whole partition of one of the orders table's indexes, page by page: below every module that
//! lists orders or work items, so none of them imports another for it.

use crate::AppState;
use shared::dynamo::{s, Item};
use shared::ApiError;

/// Every item of an index partition, newest first.
pub async fn query_all(
    state: &AppState,
    index: &str,
    partition: &str,
    value: &str,
) -> Result<Vec<Item>, ApiError> {
    query_page(state, (index, partition, value), None, usize::MAX).await
}

/// Up to `count` items of the index partition `(index, partition attribute, value)`, newest first, after
/// the item whose key is `after` (from the newest when `None`): the reads stop once `count` are found.
pub async fn query_page(
    state: &AppState,
    (index, partition, value): (&str, &str, &str),
    after: Option<Item>,
    count: usize,
) -> Result<Vec<Item>, ApiError> {
    let mut found = Vec::with_capacity(count.min(1024));
    let mut start = after;
    while found.len() < count {
        let wanted = i32::try_from(count - found.len()).unwrap_or(i32::MAX);
        let page = state
            .db
            .query()
            .table_name(&state.tables.orders)
            .index_name(index)
            .key_condition_expression("#p = :v")
            .expression_attribute_names("#p", partition)
            .expression_attribute_values(":v", s(value))
            .scan_index_forward(false)
            .limit(wanted)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        found.extend(page.items().iter().cloned());
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    found.truncate(count);
    Ok(found)
}
