//! The items an order writes beside itself, which both placing it (checkout) and moving it on (payment)
//! touch: its month's sales figures and its Idempotency-Key. Below both, so neither imports the other.

use crate::order::Order;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use shared::dynamo::{n, s, Item};
use shared::ApiError;

/// The item that holds a checkout's Idempotency-Key (and the order it placed).
pub fn idempotency_item_key(key: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("IDEMPOTENCY#{key}"))),
        ("sk".to_owned(), s("KEY")),
    ])
}

/// Adds (`sign` 1) or takes back (`sign` -1) an order in its month's counters.
pub fn sales_update(table: &str, order: &Order, sign: i64) -> Result<TransactWriteItem, ApiError> {
    let month = order.month();
    let update = Update::builder()
        .table_name(table)
        .key("pk", s(format!("SALES#{month}")))
        .key("sk", s("SALES"))
        .update_expression("SET gsi1pk = :sales, gsi1sk = :month ADD totalOrders :orders, totalProductsSold :units, totalPence :pence, vatPence :vat")
        .expression_attribute_values(":sales", s("SALES"))
        .expression_attribute_values(":month", s(month))
        .expression_attribute_values(":orders", n(sign))
        .expression_attribute_values(":units", n(sign * i64::from(order.units())))
        .expression_attribute_values(":pence", n(sign * order.total.pence()))
        .expression_attribute_values(":vat", n(sign * order.vat.map_or(0, |v| v.pence())))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}
