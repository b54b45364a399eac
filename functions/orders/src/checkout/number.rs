//! The order's number (`PD-10001`): the next value of a counter written in the order's own transaction, so
//! a number is used exactly when its order exists and none is skipped or reused.

use crate::AppState;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use shared::dynamo::{n, s, Item};
use shared::ApiError;

/// The order-number counter's item.
fn counter_key() -> Item {
    Item::from([
        ("pk".to_owned(), s("COUNTER#ORDER-NUMBER")),
        ("sk".to_owned(), s("COUNTER")),
    ])
}

/// The last order number given, read consistently (`None` before the first order).
pub async fn last_number(state: &AppState) -> Result<Option<u64>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(counter_key()))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found
        .item()
        .and_then(|item| shared::dynamo::get_n::<u64>(item, "last").ok()))
}

/// Moves the counter from `last` (as read) to the order's number, only if nobody moved it meanwhile.
pub fn number_update(
    table: &str,
    last: Option<u64>,
    number: u64,
) -> Result<TransactWriteItem, ApiError> {
    let update = Update::builder()
        .table_name(table)
        .set_key(Some(counter_key()))
        .update_expression("SET #last = :number")
        .expression_attribute_names("#last", "last")
        .expression_attribute_values(":number", n(number));
    let update = match last {
        Some(last) => update
            .condition_expression("#last = :read")
            .expression_attribute_values(":read", n(last)),
        None => update.condition_expression("attribute_not_exists(#last)"),
    };
    Ok(TransactWriteItem::builder()
        .update(update.build().map_err(ApiError::internal)?)
        .build())
}
