//! Which drinks an address has paid for: what a review's "verified" badge asks (functions/reviews), by
//! address or, for a "review what you bought" link, by the order the link names. Read
//! through the customer's own orders (`gsi1`, `CUSTOMER#email`), paid ones only (paid, shipped, delivered: a
//! cancelled, expired or refunded order is no purchase), projected to their lines. The orders crate owns
//! how an order is stored, so the question is answered here rather than by a copy of that format.

use crate::order::{order_key, Line, Order, Status};
use shared::dynamo::{get_s_or_default, s, Item};
use shared::ApiError;

/// Whether `email` (as orders store it: normalised) has a paid order containing `product`. Orders are
/// written before any review that asks, so every order found was placed before the review.
pub async fn has_bought(
    db: &aws_sdk_dynamodb::Client,
    orders_table: &str,
    email: &str,
    product: &str,
) -> Result<bool, ApiError> {
    let mut start: Option<Item> = None;
    loop {
        let page = db
            .query()
            .table_name(orders_table)
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :customer")
            .filter_expression("#status IN (:paid, :shipped, :delivered)")
            .projection_expression("#lines")
            .expression_attribute_names("#status", "status")
            .expression_attribute_names("#lines", "lines")
            .expression_attribute_values(":customer", s(format!("CUSTOMER#{email}")))
            .expression_attribute_values(":paid", s(Status::Paid.as_str()))
            .expression_attribute_values(":shipped", s(Status::Shipped.as_str()))
            .expression_attribute_values(":delivered", s(Status::Delivered.as_str()))
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        let bought = page.items().iter().any(|order| {
            serde_json::from_str::<Vec<Line>>(&get_s_or_default(order, "lines"))
                .is_ok_and(|lines| lines.iter().any(|line| line.product == product))
        });
        if bought {
            return Ok(true);
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(false),
        }
    }
}

/// Who bought drink `product` in order `order_id`, for a review written through that order's link: the
/// buyer's address and name, and the drink's name on the order. `None` when the order does not exist, is
/// not paid (or was refunded), or does not contain the drink.
pub async fn buyer_of(
    db: &aws_sdk_dynamodb::Client,
    orders_table: &str,
    order_id: &str,
    product: &str,
) -> Result<Option<Buyer>, ApiError> {
    let found = db
        .get_item()
        .table_name(orders_table)
        .set_key(Some(order_key(order_id)))
        .consistent_read(true)
        .send()
        .await?;
    let Some(item) = found.item() else {
        return Ok(None);
    };
    let order = Order::from_item(item)?;
    if !matches!(
        order.status,
        Status::Paid | Status::Shipped | Status::Delivered
    ) {
        return Ok(None);
    }
    Ok(order
        .lines
        .iter()
        .find(|line| line.product == product)
        .map(|line| Buyer {
            email: order.email.clone(),
            fullname: order.fullname.clone(),
            drink: line.name.clone(),
        }))
}

/// The buyer an order's review link stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buyer {
    pub email: String,
    pub fullname: String,
    /// The drink's name as the order has it.
    pub drink: String,
}
