//! Small helpers for mapping DynamoDB items, so each entity's mapping reads as a list of fields.

use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::HashMap;

pub type Item = HashMap<String, AttributeValue>;

/// An item's key (`pk`, `sk`), for a write to the item it was read as.
pub fn key_of(item: &Item) -> Item {
    ["pk", "sk"]
        .iter()
        .filter_map(|name| Some(((*name).to_owned(), item.get(*name)?.clone())))
        .collect()
}

/// Every table's one general index (`gsi1pk`, `gsi1sk`): the lists of a kind, in their order.
pub const INDEX: &str = "gsi1";

/// An item that does not have the shape its mapping expects: a fault of ours, never of the caller.
#[derive(Debug)]
pub struct ItemError(pub String);

impl std::fmt::Display for ItemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed item: {}", self.0)
    }
}

impl std::error::Error for ItemError {}

impl From<ItemError> for crate::ApiError {
    fn from(error: ItemError) -> Self {
        crate::ApiError::internal(error)
    }
}

pub fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

pub fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

pub fn b(value: bool) -> AttributeValue {
    AttributeValue::Bool(value)
}

/// A list of strings; DynamoDB string sets cannot be empty, so lists are used.
pub fn string_list(values: &[String]) -> AttributeValue {
    AttributeValue::L(values.iter().cloned().map(AttributeValue::S).collect())
}

pub fn get_s(item: &Item, key: &str) -> Result<String, ItemError> {
    match item.get(key) {
        Some(AttributeValue::S(value)) => Ok(value.clone()),
        _ => Err(ItemError(format!("{key} is not a string"))),
    }
}

/// A string that may be missing (older items, optional fields).
pub fn get_s_or_default(item: &Item, key: &str) -> String {
    match item.get(key) {
        Some(AttributeValue::S(value)) => value.clone(),
        _ => String::new(),
    }
}

pub fn get_n<T: std::str::FromStr>(item: &Item, key: &str) -> Result<T, ItemError> {
    match item.get(key) {
        Some(AttributeValue::N(value)) => value
            .parse()
            .map_err(|_| ItemError(format!("{key} is not a number in range"))),
        _ => Err(ItemError(format!("{key} is not a number"))),
    }
}

pub fn get_bool(item: &Item, key: &str) -> bool {
    matches!(item.get(key), Some(AttributeValue::Bool(true)))
}

pub fn get_string_list(item: &Item, key: &str) -> Vec<String> {
    match item.get(key) {
        Some(AttributeValue::L(values)) => values
            .iter()
            .filter_map(|value| value.as_s().ok().cloned())
            .collect(),
        Some(AttributeValue::Ss(values)) => values.clone(),
        _ => Vec::new(),
    }
}

/// Whether an SDK error is a failed condition: the caller turns that into a 404, 409 or 422.
pub fn is_condition_failed<R>(
    error: &aws_sdk_dynamodb::error::SdkError<impl ConditionFailure, R>,
) -> bool {
    error
        .as_service_error()
        .map(ConditionFailure::is_condition_failed)
        .unwrap_or(false)
}

/// A conditional write's outcome: whether it was applied (`false` when its condition failed); any other
/// error is the caller's.
pub fn applied<T, E, R>(
    result: Result<T, aws_sdk_dynamodb::error::SdkError<E, R>>,
) -> Result<bool, crate::ApiError>
where
    E: ConditionFailure + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    match result {
        Ok(_) => Ok(true),
        Err(error) if is_condition_failed(&error) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// The operations whose errors can report a failed condition.
pub trait ConditionFailure {
    fn is_condition_failed(&self) -> bool;
}

impl ConditionFailure for aws_sdk_dynamodb::operation::put_item::PutItemError {
    fn is_condition_failed(&self) -> bool {
        self.is_conditional_check_failed_exception()
    }
}

impl ConditionFailure for aws_sdk_dynamodb::operation::delete_item::DeleteItemError {
    fn is_condition_failed(&self) -> bool {
        self.is_conditional_check_failed_exception()
    }
}

impl ConditionFailure for aws_sdk_dynamodb::operation::update_item::UpdateItemError {
    fn is_condition_failed(&self) -> bool {
        self.is_conditional_check_failed_exception()
    }
}

/// The items of `keys` that exist in `table`, read consistently: `BatchGetItem` takes at most 100 keys a
/// call, and what DynamoDB leaves unprocessed (a busy table) is asked for again, a few times; still left
/// after that is an error rather than a silent gap. In no particular order.
pub async fn batch_get(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: Vec<Item>,
) -> Result<Vec<Item>, crate::ApiError> {
    const ROUNDS: usize = 8;
    let mut found = Vec::with_capacity(keys.len());
    for chunk in keys.chunks(100) {
        let mut left = chunk.to_vec();
        for _ in 0..ROUNDS {
            if left.is_empty() {
                break;
            }
            let wanted = aws_sdk_dynamodb::types::KeysAndAttributes::builder()
                .set_keys(Some(std::mem::take(&mut left)))
                .consistent_read(true)
                .build()
                .map_err(crate::ApiError::internal)?;
            let reply = db
                .batch_get_item()
                .request_items(table, wanted)
                .send()
                .await?;
            if let Some(items) = reply.responses().and_then(|r| r.get(table)) {
                found.extend(items.iter().cloned());
            }
            if let Some(unprocessed) = reply.unprocessed_keys().and_then(|u| u.get(table)) {
                left = unprocessed.keys().to_vec();
            }
        }
        if !left.is_empty() {
            return Err(crate::ApiError::internal(format!(
                "{table}: {} items were not read: the table keeps throttling",
                left.len()
            )));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_back_as_written() {
        let item: Item = HashMap::from([
            ("name".to_owned(), s("Cola")),
            ("stock".to_owned(), n(12)),
            ("on".to_owned(), b(true)),
            ("image".to_owned(), string_list(&["a.png".to_owned()])),
        ]);
        assert_eq!(get_s(&item, "name").unwrap(), "Cola");
        assert_eq!(get_n::<u32>(&item, "stock").unwrap(), 12);
        assert!(get_bool(&item, "on"));
        assert!(!get_bool(&item, "missing"));
        assert_eq!(get_string_list(&item, "image"), vec!["a.png"]);
        assert!(get_s(&item, "stock").is_err());
        assert_eq!(get_s_or_default(&item, "missing"), "");
    }
}
