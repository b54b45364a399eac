//! The catalogue table's answer to the data rights: one address's back-in-stock alerts (pending and
//! confirmed, found by the index key made from the whole address) and its alert requests' window.

use crate::alerts::{alerts_of, RATE_SCOPE};
use shared::dynamo::{key_of, INDEX};
use shared::personal::{self, Record, Section, Tally};
use shared::ApiError;

/// The address's alerts, as the person reads them: which drink, and whether it waits for its confirmation.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    let mut records: Vec<Record> = personal::on_index(
        db,
        table,
        INDEX,
        "gsi1pk",
        &alerts_of(email),
    )
    .await?
    .iter()
    .map(|item| {
        let pending = personal::text(item, "sk").starts_with("PENDING#");
        Record::new(
            Section::Alerts,
            serde_json::json!({
                "drink": personal::text(item, "pk").trim_start_matches("ALERT#"),
                "state": if pending { "waiting for your confirmation" } else { "confirmed" },
                "since": personal::text(item, "createdAt"),
            }),
        )
    })
    .collect();
    records.extend(
        personal::window(
            db,
            table,
            shared::rate::email_window(RATE_SCOPE, email),
            "back-in-stock requests",
        )
        .await?,
    );
    Ok(records)
}

/// Deletes the address's alerts and its window.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Tally, ApiError> {
    let mut deleted = 0;
    for item in personal::on_index(db, table, INDEX, "gsi1pk", &alerts_of(email)).await? {
        deleted += u32::from(personal::delete_exact(db, table, key_of(&item)).await?);
    }
    deleted += u32::from(
        personal::delete_exact(db, table, shared::rate::email_window(RATE_SCOPE, email)).await?,
    );
    Ok(Tally::deleted(deleted))
}
