//! What a table holds about one e-mail address, for the data rights (UK GDPR arts. 15, 17 and 20): every
//! item whose keys name the address, or whose `email` or `to` is it. The auth function reads these for a
//! customer's export and acts on them for an erasure (each kind of item as its owner says: see the
//! `erasure` functions of orders, reviews and subscription). Finding them scans the table: erasures are
//! rare, and a scan cannot miss an item an index was never written for.

use crate::dynamo::Item;
use crate::ApiError;
use aws_sdk_dynamodb::types::AttributeValue;

/// Every item of `table` that names `email` (already normalised, as the shop stores addresses).
pub async fn items_naming(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Item>, ApiError> {
    let mut found = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .scan()
            .table_name(table)
            .filter_expression(
                "contains(pk, :e) OR contains(sk, :e) OR email = :e OR #to = :e \
                 OR contains(gsi1pk, :e) OR contains(gsi2sk, :e)",
            )
            .expression_attribute_names("#to", "to")
            .expression_attribute_values(":e", AttributeValue::S(email.to_owned()))
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        found.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            return Ok(found);
        }
    }
}

/// An item's key, for a write to it (kept here too: the owners' erasure code writes by it).
pub use crate::dynamo::key_of;

/// Deletes one item by its key.
pub async fn delete(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    item: &Item,
) -> Result<(), ApiError> {
    db.delete_item()
        .table_name(table)
        .set_key(Some(key_of(item)))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

/// The item's own value of `name` when it is a string.
pub fn text<'a>(item: &'a Item, name: &str) -> &'a str {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map_or("", String::as_str)
}

/// An item as plain JSON for a person to read: its storage keys and index attributes left out, numbers as
/// numbers, sets and lists as arrays.
pub fn readable(item: &Item) -> serde_json::Value {
    serde_json::Value::Object(
        item.iter()
            .filter(|(name, _)| !is_storage_key(name))
            .map(|(name, value)| (name.clone(), json(value)))
            .collect(),
    )
}

fn is_storage_key(name: &str) -> bool {
    matches!(name, "pk" | "sk" | "version") || name.starts_with("gsi")
}

fn json(value: &AttributeValue) -> serde_json::Value {
    use serde_json::Value;
    match value {
        AttributeValue::S(text) => Value::String(text.clone()),
        AttributeValue::N(number) => number
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| number.parse::<f64>().map(Value::from))
            .unwrap_or_else(|_| Value::String(number.clone())),
        AttributeValue::Bool(flag) => Value::Bool(*flag),
        AttributeValue::Null(_) => Value::Null,
        AttributeValue::L(list) => Value::Array(list.iter().map(json).collect()),
        AttributeValue::M(map) => readable(map),
        AttributeValue::Ss(set) => Value::from(set.clone()),
        AttributeValue::Ns(set) => Value::from(set.clone()),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamo::{n, s};

    #[test]
    fn a_readable_item_leaves_out_its_storage_keys() {
        let item = Item::from([
            ("pk".to_owned(), s("ORDER#1")),
            ("sk".to_owned(), s("ORDER")),
            ("gsi1pk".to_owned(), s("CUSTOMER#a@b.example")),
            ("version".to_owned(), n(3)),
            ("totalPence".to_owned(), n(899)),
            ("fullname".to_owned(), s("Layla")),
            (
                "history".to_owned(),
                AttributeValue::L(vec![AttributeValue::M(Item::from([(
                    "status".to_owned(),
                    s("paid"),
                )]))]),
            ),
        ]);
        assert_eq!(
            readable(&item),
            serde_json::json!({"totalPence": 899, "fullname": "Layla", "history": [{"status": "paid"}]})
        );
    }
}
