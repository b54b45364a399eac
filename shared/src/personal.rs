//! How an address's items are found in any table, for the data rights (UK GDPR arts. 15, 17 and 20): every
//! item that names a person carries the person's normalised address, whole, in `person`, and every table
//! that holds personal data has the sparse index `person` on it (keys only). An address's items are read by
//! that exact key, never by a substring or a scan: `bo@example.org` finds nothing of `jimbo@example.org`.
//!
//! The owner of each table decides which of its items name a person and tags them when it writes them
//! (`tag`); it answers "this address's items" and "erase this address" for its own table through these
//! reads. The tag is removed from an item the erasure keeps without the person (an anonymised order), so a
//! second run of an erasure cut short finds only what the first left.

use crate::dynamo::{s, Item};
use crate::ApiError;
use aws_sdk_dynamodb::types::AttributeValue;

/// The attribute, and the index named after it, that hold the address an item names.
pub const PERSON: &str = "person";

/// The index every table with personal data has: `person` (hash), keys only.
pub const INDEX: &str = "person";

/// Marks `item` as naming `email` (already normalised, as the shop stores addresses).
pub fn tag(item: &mut Item, email: &str) {
    item.insert(PERSON.to_owned(), s(email));
}

/// `item` tagged with `email`, for writes built in one expression.
pub fn tagged(mut item: Item, email: &str) -> Item {
    tag(&mut item, email);
    item
}

/// The keys (`pk`, `sk`) of every item of `table` that names `email`, read from the index by its exact key.
pub async fn keys_of(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Item>, ApiError> {
    Ok(query_all(db, table, Some(INDEX), PERSON, email)
        .await?
        .iter()
        .map(crate::dynamo::key_of)
        .collect())
}

/// Deletes every item of `table` tagged with `email`, each only while it still is: how many went.
pub async fn delete_tagged(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<u32, ApiError> {
    let mut deleted = 0;
    for key in keys_of(db, table, email).await? {
        deleted += u32::from(delete(db, table, &key, email).await?);
    }
    Ok(deleted)
}

/// The address's window of a limit at `key`, if it has one, as its export names it (`name`).
pub async fn window(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    key: Item,
    name: &str,
) -> Result<Option<Record>, ApiError> {
    Ok(get(db, table, key)
        .await?
        .map(|item| Record::limit(name, &item)))
}

/// Every item of `table` that names `email`, whole: the index's keys, then the items by those keys (100 at a
/// time, as DynamoDB's batch read allows). An item that has just lost its tag (erased meanwhile) is left out.
pub async fn items_of(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Item>, ApiError> {
    let keys = keys_of(db, table, email).await?;
    let mut items = crate::dynamo::batch_get(db, table, keys).await?;
    items.retain(|item| text(item, PERSON) == email);
    items.sort_by(|a, b| (text(a, "pk"), text(a, "sk")).cmp(&(text(b, "pk"), text(b, "sk"))));
    Ok(items)
}

/// Tags every item of `table` that names a person but was written before the tag existed: `who` is the
/// table owner's rule for whom an item names. A one-off over the whole table (`make backfill-person`, and
/// the local gateway on a kept store), so it may scan; it writes only items without a tag, conditionally,
/// and a second run changes nothing. Answers how many it tagged.
pub async fn backfill(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    who: impl Fn(&Item) -> Option<String>,
) -> Result<u32, ApiError> {
    let mut tagged = 0;
    let mut start = None;
    loop {
        let page = db
            .scan()
            .table_name(table)
            .filter_expression("attribute_not_exists(#person)")
            .expression_attribute_names("#person", PERSON)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        for item in page.items.unwrap_or_default() {
            let Some(email) = who(&item)
                .map(|e| e.trim().to_lowercase())
                .filter(|e| e.contains('@'))
            else {
                continue;
            };
            let written = db
                .update_item()
                .table_name(table)
                .set_key(Some(crate::dynamo::key_of(&item)))
                .update_expression("SET #person = :e")
                .condition_expression("attribute_exists(pk) AND attribute_not_exists(#person)")
                .expression_attribute_names("#person", PERSON)
                .expression_attribute_values(":e", s(&email))
                .send()
                .await;
            match written {
                Ok(_) => tagged += 1,
                Err(error) if crate::dynamo::is_condition_failed(&error) => {}
                Err(error) => return Err(ApiError::internal(error)),
            }
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return Ok(tagged);
        }
    }
}

/// The item at `key`, read consistently: for the items whose key is made from the address itself.
pub async fn get(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    key: Item,
) -> Result<Option<Item>, ApiError> {
    Ok(db
        .get_item()
        .table_name(table)
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .map_err(ApiError::internal)?
        .item)
}

/// Every item of the partition `pk`, whole: for a partition that is the address's own (`LOGIN#{email}`).
pub async fn partition(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    pk: &str,
) -> Result<Vec<Item>, ApiError> {
    query_all(db, table, None, "pk", pk).await
}

/// Every item whose index `index` has the hash key `attribute = value`, exactly (`gsi1pk =
/// CUSTOMER#{email}`): for an owner whose own index already names the address whole.
pub async fn on_index(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    index: &str,
    attribute: &str,
    value: &str,
) -> Result<Vec<Item>, ApiError> {
    query_all(db, table, Some(index), attribute, value).await
}

async fn query_all(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    index: Option<&str>,
    attribute: &str,
    value: &str,
) -> Result<Vec<Item>, ApiError> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .query()
            .table_name(table)
            .set_index_name(index.map(str::to_owned))
            .key_condition_expression("#key = :value")
            .expression_attribute_names("#key", attribute)
            .expression_attribute_values(":value", s(value))
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        items.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            return Ok(items);
        }
    }
}

/// Deletes the item at `key` if it exists, answering whether it did: for items whose key is made from the
/// address, which can be no one else's.
pub async fn delete_exact(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    key: Item,
) -> Result<bool, ApiError> {
    let deleted = db
        .delete_item()
        .table_name(table)
        .set_key(Some(key))
        .condition_expression("attribute_exists(pk)")
        .send()
        .await;
    match deleted {
        Ok(_) => Ok(true),
        Err(error) if crate::dynamo::is_condition_failed(&error) => Ok(false),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// What an erasure did in one table: items kept without the person (an order kept for the accounts, a
/// review kept without its author) and items deleted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub kept: u32,
    pub deleted: u32,
}

impl Tally {
    pub fn deleted(deleted: u32) -> Self {
        Tally { kept: 0, deleted }
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.kept += other.kept;
        self.deleted += other.deleted;
    }
}

/// The parts of a person's data export, under names a person understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Profile,
    LoginHistory,
    Passkeys,
    Orders,
    Reviews,
    Subscriptions,
    Alerts,
    ContactMessages,
    DiscountCodes,
    Mail,
    /// The shop's own lists that name the person (the customers who have paid).
    ShopRecords,
    /// The windows that count recent requests against the shop's limits.
    Limits,
}

/// One thing the shop holds about a person, as they will read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub section: Section,
    pub value: serde_json::Value,
}

impl Record {
    pub fn new(section: Section, value: serde_json::Value) -> Self {
        Record { section, value }
    }

    /// A limit's window: which limit and the times counted in it, never its storage key.
    pub fn limit(name: &str, item: &Item) -> Self {
        let mut value = readable(item);
        if let Some(fields) = value.as_object_mut() {
            fields.insert(
                "limit".to_owned(),
                serde_json::Value::String(name.to_owned()),
            );
        }
        Record::new(Section::Limits, value)
    }
}

/// Deletes one item by its key, only while it still names `email` (a second run deletes nothing twice, and an
/// item rewritten for someone else meanwhile is left alone). Answers whether it deleted.
pub async fn delete(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    item: &Item,
    email: &str,
) -> Result<bool, ApiError> {
    let deleted = db
        .delete_item()
        .table_name(table)
        .set_key(Some(crate::dynamo::key_of(item)))
        .condition_expression("#person = :e")
        .expression_attribute_names("#person", PERSON)
        .expression_attribute_values(":e", s(email))
        .send()
        .await;
    match deleted {
        Ok(_) => Ok(true),
        Err(error) if crate::dynamo::is_condition_failed(&error) => Ok(false),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// The item's own value of `name` when it is a string.
pub fn text<'a>(item: &'a Item, name: &str) -> &'a str {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map_or("", String::as_str)
}

/// An item as plain JSON for a person to read: its storage keys, index attributes and the tag left out,
/// numbers as numbers, sets and lists as arrays.
pub fn readable(item: &Item) -> serde_json::Value {
    serde_json::Value::Object(
        item.iter()
            .filter(|(name, _)| !is_storage_key(name))
            .map(|(name, value)| (name.clone(), json(value)))
            .collect(),
    )
}

fn is_storage_key(name: &str) -> bool {
    matches!(name, "pk" | "sk" | "version" | PERSON) || name.starts_with("gsi")
}

fn json(value: &AttributeValue) -> serde_json::Value {
    match value {
        AttributeValue::S(text) => serde_json::Value::String(text.clone()),
        AttributeValue::N(number) => number
            .parse::<i64>()
            .map(serde_json::Value::from)
            .or_else(|_| number.parse::<f64>().map(serde_json::Value::from))
            .unwrap_or_else(|_| serde_json::Value::String(number.clone())),
        AttributeValue::Bool(flag) => serde_json::Value::Bool(*flag),
        AttributeValue::Ss(texts) => texts
            .iter()
            .cloned()
            .map(serde_json::Value::String)
            .collect(),
        AttributeValue::Ns(numbers) => numbers
            .iter()
            .cloned()
            .map(serde_json::Value::String)
            .collect(),
        AttributeValue::L(values) => values.iter().map(json).collect(),
        AttributeValue::M(fields) => serde_json::Value::Object(
            fields
                .iter()
                .map(|(name, value)| (name.clone(), json(value)))
                .collect(),
        ),
        _ => serde_json::Value::Null,
    }
}
