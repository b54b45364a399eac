//! An erasure (UK GDPR art. 17) in the reviews table: a review stays, its words and stars being no one's
//! personal data once the author is taken out (the name becomes "Former customer", the e-mail goes); any
//! other item naming the address (rate windows) is deleted.

use shared::dynamo::{s, Item};
use shared::ApiError;

/// The name an erased author's reviews show.
pub const FORMER_CUSTOMER: &str = "Former customer";

/// Acts on one item of the reviews table that names the erased address; true when a review was kept.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    item: &Item,
) -> Result<bool, ApiError> {
    if !shared::erasure::text(item, "pk").starts_with(&format!("{}#", crate::review::KIND)) {
        shared::erasure::delete(db, table, item).await?;
        return Ok(false);
    }
    db.update_item()
        .table_name(table)
        .set_key(Some(shared::erasure::key_of(item)))
        .update_expression("SET fullname = :former, email = :blank")
        .expression_attribute_values(":former", s(FORMER_CUSTOMER))
        .expression_attribute_values(":blank", s(""))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(true)
}
