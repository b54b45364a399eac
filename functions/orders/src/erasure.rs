//! An erasure (UK GDPR art. 17) in the orders table. Orders are accounting records, kept for the period the
//! law asks: the person is taken out of them (name, e-mail, phone, address and its parts, message, viewer
//! address) and their lines, totals and VAT stay. Everything else naming the address (the results' customer
//! entry, the open-unpaid counter, rate windows) is deleted.

use shared::dynamo::{s, Item};
use shared::ApiError;

/// What an erased customer's orders say instead of their name and address.
pub const ERASED: &str = "Erased customer";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erased {
    Anonymised,
    Deleted,
}

/// Acts on one item of the orders table that names the erased address.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    item: &Item,
) -> Result<Erased, ApiError> {
    if shared::erasure::text(item, "sk") != "ORDER" {
        shared::erasure::delete(db, table, item).await?;
        return Ok(Erased::Deleted);
    }
    db.update_item()
        .table_name(table)
        .set_key(Some(shared::erasure::key_of(item)))
        .update_expression(
            "SET fullname = :erased, fullnameLower = :lower, email = :blank, phone = :blank, \
             address = :erased, message = :blank, gsi1pk = :gone \
             REMOVE client, addressLine1, addressLine2, town, postcode",
        )
        .expression_attribute_values(":erased", s(ERASED))
        .expression_attribute_values(":lower", s(ERASED.to_lowercase()))
        .expression_attribute_values(":blank", s(""))
        .expression_attribute_values(":gone", s("ERASED"))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(Erased::Anonymised)
}
