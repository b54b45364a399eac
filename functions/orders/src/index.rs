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
    let mut all = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(&state.tables.orders)
            .index_name(index)
            .key_condition_expression("#p = :v")
            .expression_attribute_names("#p", partition)
            .expression_attribute_values(":v", s(value))
            .scan_index_forward(false)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        all.extend(page.items().iter().cloned());
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(all),
        }
    }
}
