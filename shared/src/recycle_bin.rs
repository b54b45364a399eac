//! The bin: what an admin deletes (a drink, a discount code, a review) is moved here for 30 days, from which
//! an admin can restore it as it was. An entry lives in the deleted item's own table, keyed
//! `pk = BIN#<the item's pk>, sk = BIN`, and holds the whole item as stored; `gsi1` lists a kind's entries
//! newest first (`gsi1pk = BIN-LIST#<kind>`), and `expiresAt` lets the table's TTL remove it after 30 days.
//! Entries past that time are neither listed nor restored, whether or not the TTL has run yet.
//!
//! Moving in and out is one transaction with the item's own writes (a review's counts, say), so an item is
//! always in exactly one place. An entry copies the item's `email`, so a customer's erasure finds it too.

use crate::dynamo::{get_n, get_s, key_of, n, s, Item, INDEX};
use crate::ApiError;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use serde::Serialize;

/// How long a deleted item can be restored.
pub const DAYS: i64 = 30;
const SK: &str = "BIN";

/// Whether `item` is a bin entry (of whatever kind the table keeps).
pub fn is_entry(item: &crate::dynamo::Item) -> bool {
    item.get("sk")
        .and_then(|sk| sk.as_s().ok())
        .map(String::as_str)
        == Some(SK)
}

fn iso(unix: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .map(crate::time::iso)
        .unwrap_or_default()
}

/// An entry as the admin's bin screen lists it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "BinEntry")]
pub struct Entry {
    /// The deleted item's id, as its restore path takes it.
    #[serde(rename = "_id")]
    pub id: String,
    /// What the admin called it: a drink's name, a code, a review's title and author.
    pub label: String,
    /// When it was deleted (ISO 8601, UTC).
    pub deleted_at: String,
    /// When it leaves the bin for good (ISO 8601, UTC).
    pub expires_at: String,
}

fn list_key(kind: &str) -> String {
    format!("BIN-LIST#{kind}")
}

fn entry_key(original_pk: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{SK}#{original_pk}"))),
        ("sk".to_owned(), s(SK)),
    ])
}

/// The two writes that move `item` (as read, at its `version` when it has one) into the bin: a delete that
/// fails if the item changed or went since it was read, and the entry. `kind` groups the bin's lists
/// (`PRODUCT`, `CODE`, `REVIEW`), `id` is what restoring takes, `label` what the admin sees.
pub fn move_in(
    table: &str,
    item: &Item,
    kind: &str,
    id: &str,
    label: &str,
    now: i64,
) -> Result<[TransactWriteItem; 2], ApiError> {
    let pk = get_s(item, "pk").map_err(ApiError::internal)?;
    let mut delete = Delete::builder()
        .table_name(table)
        .set_key(Some(key_of(item)))
        .condition_expression("attribute_exists(pk)");
    if let Some(version) = item.get("version") {
        delete = delete
            .condition_expression("version = :read")
            .expression_attribute_values(":read", version.clone());
    }
    let deleted_at = iso(now);
    let mut entry = entry_key(&pk);
    entry.extend([
        ("gsi1pk".to_owned(), s(list_key(kind))),
        // Newest first when read backwards; the pk keeps two deletions in one second apart.
        ("gsi1sk".to_owned(), s(format!("{deleted_at}#{pk}"))),
        ("kind".to_owned(), s(kind)),
        ("id".to_owned(), s(id)),
        ("label".to_owned(), s(label)),
        ("deletedAt".to_owned(), s(deleted_at)),
        ("expiresAt".to_owned(), n(now + DAYS * 86_400)),
        ("item".to_owned(), AttributeValue::M(item.clone())),
    ]);
    if let Some(email) = item.get("email") {
        entry.insert("email".to_owned(), email.clone());
    }
    // A binned copy of a person's item is still theirs: their export and erasure find it by the same tag.
    if let Some(person) = item.get(crate::personal::PERSON) {
        entry.insert(crate::personal::PERSON.to_owned(), person.clone());
    }
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(entry))
        .build()
        .map_err(ApiError::internal)?;
    Ok([
        TransactWriteItem::builder()
            .delete(delete.build().map_err(ApiError::internal)?)
            .build(),
        TransactWriteItem::builder().put(put).build(),
    ])
}

/// A kind's entries still in the bin, newest first.
pub async fn list(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    kind: &str,
    now: i64,
) -> Result<Vec<Entry>, ApiError> {
    let mut entries = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .query()
            .table_name(table)
            .index_name(INDEX)
            .key_condition_expression("gsi1pk = :list")
            .expression_attribute_values(":list", s(list_key(kind)))
            .scan_index_forward(false)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        for item in page.items() {
            if let Some(entry) = entry_of(item, now)? {
                entries.push(entry);
            }
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return Ok(entries);
        }
    }
}

fn entry_of(item: &Item, now: i64) -> Result<Option<Entry>, ApiError> {
    let expires = get_n::<i64>(item, "expiresAt").map_err(ApiError::internal)?;
    if expires <= now {
        return Ok(None);
    }
    let text = |name| get_s(item, name).map_err(ApiError::internal);
    Ok(Some(Entry {
        id: text("id")?,
        label: text("label")?,
        deleted_at: text("deletedAt")?,
        expires_at: iso(expires),
    }))
}

/// An item that is in the bin, ready to go back.
pub struct Binned {
    /// The item as it was stored when it was deleted.
    pub item: Item,
    entry: Item,
}

impl Binned {
    /// The two writes that restore it: the item back (refused if its key is taken again meanwhile) and the
    /// entry gone (refused if someone else restored it first).
    pub fn move_out(&self, table: &str) -> Result<[TransactWriteItem; 2], ApiError> {
        let put = Put::builder()
            .table_name(table)
            .set_item(Some(self.item.clone()))
            .condition_expression("attribute_not_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        let delete = Delete::builder()
            .table_name(table)
            .set_key(Some(key_of(&self.entry)))
            .condition_expression("attribute_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        Ok([
            TransactWriteItem::builder().put(put).build(),
            TransactWriteItem::builder().delete(delete).build(),
        ])
    }
}

/// A write that adds `by` to a number field of the item kept in the bin (stock an order gives back to a
/// deleted drink, a use it gives back to a deleted code), so restoring the item restores it with the change.
/// Refused if the entry has gone meanwhile (restored or expired and removed); never takes the field below 0.
pub fn adjust_in_bin(
    table: &str,
    original_pk: &str,
    field: &str,
    by: i64,
) -> Result<TransactWriteItem, ApiError> {
    let update = aws_sdk_dynamodb::types::Update::builder()
        .table_name(table)
        .set_key(Some(entry_key(original_pk)))
        .update_expression("SET #item.#field = #item.#field + :by")
        .condition_expression("attribute_exists(pk) AND #item.#field >= :floor")
        .expression_attribute_names("#item", "item")
        .expression_attribute_names("#field", field)
        .expression_attribute_values(":by", n(by))
        .expression_attribute_values(":floor", n((-by).max(0)))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// The bin's entry for the item keyed `original_pk`, unless there is none or it has expired.
pub async fn find(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    original_pk: &str,
    now: i64,
) -> Result<Option<Binned>, ApiError> {
    let found = db
        .get_item()
        .table_name(table)
        .set_key(Some(entry_key(original_pk)))
        .consistent_read(true)
        .send()
        .await
        .map_err(ApiError::internal)?;
    let Some(entry) = found.item else {
        return Ok(None);
    };
    if entry_of(&entry, now)?.is_none() {
        return Ok(None);
    }
    let Some(AttributeValue::M(item)) = entry.get("item").cloned() else {
        return Err(ApiError::internal("a bin entry without its item"));
    };
    Ok(Some(Binned { item, entry }))
}

/// Runs a move in or out of the bin (with the caller's other writes): a refused condition is a 409 saying
/// what to do, since the item or its entry changed between the read and the move.
pub async fn commit(
    db: &aws_sdk_dynamodb::Client,
    writes: Vec<TransactWriteItem>,
    changed: &str,
) -> Result<(), ApiError> {
    match db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
    {
        Ok(_) => Ok(()),
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception()) =>
        {
            Err(ApiError::conflict(changed))
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}
