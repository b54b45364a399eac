//! Which drinks an address has paid for: what a review's "verified" badge asks (functions/reviews). Read
//! through the customer's own orders (`gsi1`, `CUSTOMER#email`), paid ones only (paid, shipped, delivered: a
//! cancelled, expired or refunded order is no purchase), projected to their lines. The orders crate owns
//! how an order is stored, so the question is answered here rather than by a copy of that format.

use crate::order::{Line, Status};
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
