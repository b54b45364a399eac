//! The subscription table's answer to the data rights. Every item it keeps about an address has a key made
//! from the address: the subscriber and a sign-up waiting for its confirmation under the address's id (a
//! hash of the whole address), and the sign-ups' window under the address itself. An erasure takes the
//! subscriber off every list (the counts follow, as on unsubscribing) and deletes the rest.

use crate::links::id_of;
use crate::signup::{pending_key, RATE_SCOPE};
use crate::subscriber::{self, Subscriber};
use aws_sdk_dynamodb::types::{Delete, TransactWriteItem};
use shared::dynamo::{get_s_or_default, get_string_list, s, Item};
use shared::personal::{self, Record, Section, Tally};
use shared::store::Entity;
use shared::validation::Email;
use shared::ApiError;

fn subscriber_key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{}#{id}", Subscriber::KIND))),
        ("sk".to_owned(), s(Subscriber::KIND)),
    ])
}

/// The address's subscription, a sign-up waiting for its confirmation, and its window.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    let id = id_of(&Email::parse_normalised(email)?);
    let mut records = Vec::new();
    if let Some(item) = personal::get(db, table, subscriber_key(&id)).await? {
        records.push(Record::new(
            Section::Subscriptions,
            serde_json::json!({
                "name": get_s_or_default(&item, "fullname"),
                "email": get_s_or_default(&item, "email"),
                "lists": get_string_list(&item, "lists"),
                "since": get_s_or_default(&item, "createdAt"),
                "state": "subscribed",
            }),
        ));
    }
    if let Some(item) = personal::get(db, table, pending_key(&id)).await? {
        records.push(Record::new(
            Section::Subscriptions,
            serde_json::json!({
                "name": get_s_or_default(&item, "fullname"),
                "email": get_s_or_default(&item, "email"),
                "lists": get_string_list(&item, "lists"),
                "state": "waiting for your confirmation",
            }),
        ));
    }
    records.extend(
        personal::window(
            db,
            table,
            shared::rate::email_window(RATE_SCOPE, email),
            "sign-ups",
        )
        .await?,
    );
    Ok(records)
}

/// Unsubscribes the address from everything and deletes what else names it: how many subscriptions went,
/// and the other items deleted.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<(u32, Tally), ApiError> {
    let id = id_of(&Email::parse_normalised(email)?);
    let mut subscriptions = 0;
    if let Some(item) = personal::get(db, table, subscriber_key(&id)).await? {
        let known = Subscriber::from_item(&item).map_err(ApiError::internal)?;
        let delete = Delete::builder()
            .table_name(table)
            .set_key(Some(subscriber_key(&id)))
            .condition_expression("attribute_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        let written = db
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .transact_items(subscriber::count_update(table, &known.lists, -1)?)
            .send()
            .await;
        match written {
            Ok(_) => subscriptions += 1,
            // Gone meanwhile (an unsubscribe, or the first run of this erasure): its counts went with it.
            Err(error)
                if error
                    .as_service_error()
                    .is_some_and(|e| e.is_transaction_canceled_exception()) => {}
            Err(error) => return Err(ApiError::internal(error)),
        }
    }
    let mut tally = Tally::default();
    tally.deleted += u32::from(personal::delete_exact(db, table, pending_key(&id)).await?);
    tally.deleted += u32::from(
        personal::delete_exact(db, table, shared::rate::email_window(RATE_SCOPE, email)).await?,
    );
    Ok((subscriptions, tally))
}
