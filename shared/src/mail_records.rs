//! The mail table's answer to the data rights: which of its items are about one address, and erasing them.
//! Every item the mail table keeps about a person carries the `person` tag (an outbox mail, a mailing's
//! delivery record, a bounce or complaint); the day's per-address budget counters are found by their exact
//! keys, for the days they live.

use crate::dynamo::Item;
use crate::personal::{self, Record, Section};
use crate::ApiError;

/// The mails the shop keeps that are about `email`, for the person to read (never the budget counters:
/// they say only how many mails went today, and go by themselves in two days).
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    Ok(personal::items_of(db, table, email)
        .await?
        .iter()
        .map(|item| Record::new(Section::Mail, shown(item)))
        .collect())
}

/// A mail as the person reads it: who to, the subject, when and how far it got (its HTML and headers are
/// the text again and the shop's plumbing).
fn shown(item: &Item) -> serde_json::Value {
    let mut value = personal::readable(item);
    if let Some(fields) = value.as_object_mut() {
        fields.retain(|name, _| !matches!(name.as_str(), "html" | "headers" | "expiresAt"));
    }
    value
}

/// Deletes every mail-table item about `email`: the tagged ones, and the budget counters of today and the
/// two days before (they expire after two). Answers how many went.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
    now: i64,
) -> Result<u32, ApiError> {
    let mut deleted = personal::delete_tagged(db, table, email).await?;
    for key in crate::mail_budget::address_keys(email, now) {
        if personal::delete_exact(db, table, key).await? {
            deleted += 1;
        }
    }
    Ok(deleted)
}

/// Tags the mail-table items written before the `person` tag: an outbox mail by whom it is about, a
/// mailing's delivery record by its reader's address, a bounce or complaint by its address.
pub async fn backfill(db: &aws_sdk_dynamodb::Client, table: &str) -> Result<u32, ApiError> {
    personal::backfill(db, table, |item| {
        let pk = personal::text(item, "pk");
        let sk = personal::text(item, "sk");
        if pk.starts_with("OUTBOX#") {
            let reply_to = personal::text(item, "replyTo");
            Some(
                if reply_to.is_empty() {
                    personal::text(item, "to")
                } else {
                    reply_to
                }
                .to_owned(),
            )
        } else if pk.starts_with("DELIVERY#") {
            Some(sk.to_owned())
        } else if pk.starts_with("FEEDBACK#") {
            sk.split_once('#').map(|(_, email)| email.to_owned())
        } else {
            None
        }
    })
    .await
}
