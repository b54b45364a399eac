//! The catalog table's door for other functions: the keys of its drinks and categories, and the only reads
//! and writes another crate may make on it. The checkout joins the stock updates to its order transaction,
//! an order that gives stock back joins the give-back (to the drink, or to its copy in the bin) and mails the
//! drink's waiting alerts; the storefront's server asks whether a drink exists; the reviews function reads
//! the drink a review names; the sitemap lists the drinks; the images function appends image names. Keys
//! are spelled in this crate alone (a test in the local gateway holds every crate to it), so a change of
//! layout is a change here, and template.yaml's grants on the table name these operations. The
//! back-in-stock alerts' own items, which only this crate reads and writes, are `alerts`.

use crate::category::Category;
use crate::product::Product;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use shared::dynamo::{n, Item};
use shared::store::{entity_key, Appended, Entity, Store};
use shared::ApiError;
use std::collections::HashMap;

pub(crate) mod alerts;

pub use crate::alerts::{release as release_alerts, AlertLinks, AlertMail};

/// The key of drink `id`.
pub fn product_key(id: &str) -> Item {
    entity_key::<Product>(id)
}

/// The key of category `id`.
pub fn category_key(id: &str) -> Item {
    entity_key::<Category>(id)
}

/// Whether a drink with this id is in the catalogue (read consistently, only its key): the storefront's
/// server answers an unknown drink's page with 404.
pub async fn drink_exists(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
) -> Result<bool, ApiError> {
    let found = db
        .get_item()
        .table_name(table)
        .set_key(Some(product_key(id)))
        .projection_expression("pk")
        .consistent_read(true)
        .send()
        .await?;
    Ok(found.item.is_some())
}

/// One drink as stored (read consistently), or `None`.
pub async fn product(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
) -> Result<Option<Product>, ApiError> {
    Store::new(db.clone(), table.to_owned())
        .get::<Product>(id)
        .await
}

/// Every drink, in the admin's order (the list index; no Scan).
pub async fn all_products(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<Product>, ApiError> {
    Store::new(db.clone(), table.to_owned())
        .list::<Product>()
        .await
}

/// The drinks of `ids` that exist, by id, read consistently in batches (a basket's drinks, priced at
/// checkout from what is stored now).
pub async fn products_by_id(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    ids: &[String],
) -> Result<HashMap<String, Product>, ApiError> {
    let mut found = HashMap::new();
    if ids.is_empty() {
        return Ok(found);
    }
    let keys: Vec<Item> = ids.iter().map(|id| product_key(id)).collect();
    for item in shared::dynamo::batch_get(db, table, keys).await? {
        let product = Product::from_item(&item)?;
        found.insert(product.id.clone(), product);
    }
    Ok(found)
}

/// The write that takes `qty` units of a drink out of stock in an order transaction: never below zero.
/// The version moves too, so an admin's stale edit of the drink cannot put the units back.
pub fn take_stock(table: &str, id: &str, qty: u32) -> Result<TransactWriteItem, ApiError> {
    stock_update(
        table,
        id,
        "SET stock = stock - :qty ADD version :one",
        Some("stock >= :qty"),
        qty,
    )
}

/// Puts `qty` units back (a cancelled order).
pub fn return_stock(table: &str, id: &str, qty: u32) -> Result<TransactWriteItem, ApiError> {
    stock_update(
        table,
        id,
        "SET stock = stock + :qty ADD version :one",
        None,
        qty,
    )
}

/// Where units an order gives back belong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockHome {
    /// The drink is on sale: its stock.
    Live,
    /// The drink is in the bin: the stock of the copy kept there, so restoring it restores them.
    Binned,
    /// The drink was deleted for good: there is nowhere to put them.
    Gone,
}

/// Where stock given back to drink `id` goes, read now (consistently).
pub async fn stock_home(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
    now: i64,
) -> Result<StockHome, ApiError> {
    if drink_exists(db, table, id).await? {
        return Ok(StockHome::Live);
    }
    Ok(
        match shared::recycle_bin::find(db, table, &binned_pk(id), now).await? {
            Some(_) => StockHome::Binned,
            None => StockHome::Gone,
        },
    )
}

/// Puts `qty` units back on the copy of deleted drink `id` kept in the bin.
pub fn return_stock_to_bin(table: &str, id: &str, qty: u32) -> Result<TransactWriteItem, ApiError> {
    shared::recycle_bin::adjust_in_bin(table, &binned_pk(id), "stock", i64::from(qty))
}

/// The `pk` the bin files a drink under (its own).
fn binned_pk(id: &str) -> String {
    format!("{}#{id}", Product::KIND)
}

fn stock_update(
    table: &str,
    id: &str,
    expression: &str,
    condition: Option<&str>,
    qty: u32,
) -> Result<TransactWriteItem, ApiError> {
    let condition = match condition {
        Some(extra) => format!("attribute_exists(pk) AND {extra}"),
        None => "attribute_exists(pk)".to_owned(),
    };
    let update = Update::builder()
        .table_name(table)
        .set_key(Some(product_key(id)))
        .update_expression(expression)
        .condition_expression(condition)
        .expression_attribute_values(":qty", n(qty))
        .expression_attribute_values(":one", n(1))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// The catalogue's items that show images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pictured {
    Drink,
    Category,
}

/// Appends uploaded image names to a drink's or a category's `image` list, at most `max` in all: the
/// update touches the list and the version only, never a price or the stock.
pub async fn attach_images(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    what: Pictured,
    id: &str,
    names: &[String],
    max: usize,
) -> Result<Appended, ApiError> {
    let store = Store::new(db.clone(), table.to_owned());
    match what {
        Pictured::Drink => store.append_images::<Product>(id, names, max).await,
        Pictured::Category => store.append_images::<Category>(id, names, max).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::dynamo::s;

    #[test]
    fn a_drinks_key_and_its_bin_entry_name_the_same_item() {
        assert_eq!(product_key("d1")["pk"], s("PRODUCT#d1"));
        assert_eq!(product_key("d1")["sk"], s("PRODUCT"));
        assert_eq!(category_key("c1")["pk"], s("CATEGORY#c1"));
        assert_eq!(binned_pk("d1"), "PRODUCT#d1");
    }
}
