//! The codes table's door for other functions: a code's key, the read of a code a shopper types, and the
//! writes the orders function joins to its own transactions: a use spent at checkout (on the code's limits),
//! given back when an order is cancelled, expires or is refunded (to the code, or to its copy in the bin),
//! taken again when a refund fails, and the once-per-customer markers (`use_marker`, one per mailbox, and
//! `card_marker`, one per card) put and taken away with them. Keys are spelled in this crate alone (a test in the local gateway holds every crate to it), and
//! template.yaml's grants on the table name these operations.

use crate::code::DiscountCode;
use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem, Update};
use shared::dynamo::{b, n, Item};
use shared::store::{entity_key, Entity, Store};
use shared::ApiError;

pub use crate::code::{card_marker, use_marker};

/// The key of code `code` (its normalised text).
pub fn code_key(code: &str) -> Item {
    entity_key::<DiscountCode>(code)
}

/// The `pk` the bin files a code under (its own).
fn binned_pk(code: &str) -> String {
    format!("{}#{code}", DiscountCode::KIND)
}

/// The code stored under `code` (already normalised), read consistently, or `None`.
pub async fn code(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    code: &str,
) -> Result<Option<DiscountCode>, ApiError> {
    Store::new(db.clone(), table.to_owned())
        .get::<DiscountCode>(code)
        .await
}

fn update(table: &str, code: &str) -> aws_sdk_dynamodb::types::builders::UpdateBuilder {
    Update::builder()
        .table_name(table)
        .set_key(Some(code_key(code)))
}

/// The write that spends one use of `code` in an order transaction, on the code's own limits: it exists,
/// is open, has uses left and has not ended. `once_per_email` is enforced by a second item (`mark_use`).
/// The version moves too, so an admin's stale edit cannot undo the count.
pub fn use_in_transaction(
    table: &str,
    code: &str,
    now: i64,
) -> Result<TransactWriteItem, ApiError> {
    let update = update(table, code)
        .update_expression("ADD uses :one, version :one")
        .condition_expression(
            "attribute_exists(pk) AND #open = :yes AND (attribute_not_exists(maxUses) OR uses < maxUses) \
             AND (attribute_not_exists(endsAt) OR endsAt > :now)",
        )
        .expression_attribute_names("#open", "open")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":yes", b(true))
        .expression_attribute_values(":now", n(now))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// Gives a use back (an order was cancelled).
pub fn release_in_transaction(table: &str, code: &str) -> Result<TransactWriteItem, ApiError> {
    let update = update(table, code)
        .update_expression("ADD uses :minus, version :one")
        .condition_expression("attribute_exists(pk) AND uses > :zero")
        .expression_attribute_values(":minus", n(-1))
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":zero", n(0))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// Takes a use back for an order that stands again (its whole refund failed at the bank after the use had
/// been given back): no limit applies, the order held the use before.
pub fn retake_in_transaction(table: &str, code: &str) -> Result<TransactWriteItem, ApiError> {
    let update = update(table, code)
        .update_expression("ADD uses :one, version :one")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":one", n(1))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// Whether a code an order gives a use back to is still there: live, in the bin (the copy kept there takes
/// the use back, so restoring it restores it), or deleted for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeHome {
    Live,
    Binned,
    Gone,
}

/// Where a use given back to `code` goes, read now (consistently).
pub async fn code_home(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    code: &str,
    now: i64,
) -> Result<CodeHome, ApiError> {
    let found = db
        .get_item()
        .table_name(table)
        .set_key(Some(code_key(code)))
        .projection_expression("pk, uses")
        .consistent_read(true)
        .send()
        .await?;
    if found.item().is_some() {
        return Ok(CodeHome::Live);
    }
    Ok(
        match shared::recycle_bin::find(db, table, &binned_pk(code), now).await? {
            Some(_) => CodeHome::Binned,
            None => CodeHome::Gone,
        },
    )
}

/// Gives a use back to deleted `code`'s copy in the bin.
pub fn release_in_bin(table: &str, code: &str) -> Result<TransactWriteItem, ApiError> {
    shared::recycle_bin::adjust_in_bin(table, &binned_pk(code), "uses", -1)
}

/// Takes a use again on deleted `code`'s copy in the bin (see `retake_in_transaction`).
pub fn retake_in_bin(table: &str, code: &str) -> Result<TransactWriteItem, ApiError> {
    shared::recycle_bin::adjust_in_bin(table, &binned_pk(code), "uses", 1)
}

/// The write that marks `email`'s use of a once-per-e-mail `code` by order `order_id`: refused when the
/// address has used it already, so the order's transaction fails with it.
pub fn mark_use(
    table: &str,
    code: &str,
    email: &str,
    order_id: &str,
) -> Result<TransactWriteItem, ApiError> {
    // Tagged with the buyer's address, so their export and erasure find it (crate::personal).
    put_new(table, crate::use_mark(code, email, order_id))
}

/// The write that marks the card's use of a once-per-customer `code` (`fingerprint`: Stripe's, of the card
/// that pays order `order_id`, bought by `email`): refused when the card has used it already.
pub fn mark_card_use(
    table: &str,
    code: &str,
    fingerprint: &str,
    email: &str,
    order_id: &str,
) -> Result<TransactWriteItem, ApiError> {
    put_new(table, crate::card_mark(code, fingerprint, email, order_id))
}

fn put_new(table: &str, mark: Item) -> Result<TransactWriteItem, ApiError> {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(mark))
        .condition_expression("attribute_not_exists(pk)")
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

/// The writes that take `email`'s marker of `code` away, so the mailbox may use the code again (its order
/// gave the use back): the folded marker, and the one an order marked before addresses were folded. A
/// marker already gone is no failure.
pub fn unmark_use(
    table: &str,
    code: &str,
    email: &str,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    std::iter::once(use_marker(code, email))
        .chain(crate::code::unfolded_marker(code, email))
        .map(|key| delete(table, key))
        .collect()
}

/// The write that takes the card's marker of `code` away (its order gave the use back).
pub fn unmark_card_use(
    table: &str,
    code: &str,
    fingerprint: &str,
) -> Result<TransactWriteItem, ApiError> {
    delete(table, crate::code::card_marker(code, fingerprint))
}

fn delete(table: &str, key: Item) -> Result<TransactWriteItem, ApiError> {
    let delete = Delete::builder()
        .table_name(table)
        .set_key(Some(key))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().delete(delete).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codes_key_and_its_bin_entry_name_the_same_item() {
        assert_eq!(
            code_key("SUMMER10")["pk"],
            shared::dynamo::s("CODE#SUMMER10")
        );
        assert_eq!(code_key("SUMMER10")["sk"], shared::dynamo::s("CODE"));
        assert_eq!(binned_pk("SUMMER10"), "CODE#SUMMER10");
    }
}
