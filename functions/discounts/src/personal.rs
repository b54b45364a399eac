//! The codes table's answer to the data rights: the marks that an address has used a once-per-address code,
//! found by the `person` tag the checkout writes on them. An erasure deletes them: the person is gone, and an
//! address that signs up again is a new customer.

use shared::dynamo::get_s_or_default;
use shared::personal::{self, Record, Section, Tally};
use shared::ApiError;

/// The codes the address has used, with the order each went with.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    Ok(personal::items_of(db, table, email)
        .await?
        .iter()
        .map(|item| {
            Record::new(
                Section::DiscountCodes,
                serde_json::json!({
                    "code": get_s_or_default(item, "code"),
                    "order": get_s_or_default(item, "orderId"),
                    // A card's marker holds Stripe's fingerprint of the card, never its number.
                    "by": match get_s_or_default(item, "by").as_str() {
                        "card" => "card",
                        _ => "e-mail address",
                    },
                }),
            )
        })
        .collect())
}

/// Deletes the address's marks.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Tally, ApiError> {
    Ok(Tally::deleted(
        personal::delete_tagged(db, table, email).await?,
    ))
}

/// Tags the marks written before the `person` tag: the address is the key's last part.
pub async fn backfill(db: &aws_sdk_dynamodb::Client, table: &str) -> Result<u32, ApiError> {
    personal::backfill(db, table, |item| {
        let pk = personal::text(item, "pk");
        pk.strip_prefix("CODEUSE#")
            .and_then(|rest| rest.rsplit('#').next())
            .map(str::to_owned)
    })
    .await
}
