//! The content table's answer to the data rights: the address's contact-form messages (found by the
//! `person` tag they are written with) and its messages' window (by its exact key). The trader's own facts
//! (the site record's contact address) are the shop's, not a customer's, and are never touched here.

use crate::feedback::rate_key;
use shared::dynamo::get_s_or_default;
use shared::personal::{self, Record, Section, Tally};
use shared::ApiError;

/// The address's messages, as sent.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    let mut records: Vec<Record> = personal::items_of(db, table, email)
        .await?
        .iter()
        .map(|item| {
            Record::new(
                Section::ContactMessages,
                serde_json::json!({
                    "sentAt": get_s_or_default(item, "createdAt"),
                    "name": get_s_or_default(item, "fullname"),
                    "email": get_s_or_default(item, "email"),
                    "phone": get_s_or_default(item, "phone"),
                    "message": get_s_or_default(item, "message"),
                }),
            )
        })
        .collect();
    records.extend(personal::window(db, table, rate_key(email), "contact messages").await?);
    Ok(records)
}

/// Deletes the address's messages and window.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Tally, ApiError> {
    let deleted = personal::delete_tagged(db, table, email).await?
        + u32::from(personal::delete_exact(db, table, rate_key(email)).await?);
    Ok(Tally::deleted(deleted))
}

/// Tags the messages written before the `person` tag.
pub async fn backfill(db: &aws_sdk_dynamodb::Client, table: &str) -> Result<u32, ApiError> {
    personal::backfill(db, table, |item| {
        (personal::text(item, "pk").starts_with("FEEDBACK#")
            && personal::text(item, "sk") == "FEEDBACK")
            .then(|| personal::text(item, "email").to_owned())
    })
    .await
}
