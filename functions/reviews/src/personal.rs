//! The reviews table's answer to the data rights. A review stays after an erasure, its words and stars being
//! no one's personal data once the author is taken out (the name becomes "Former customer", the e-mail and
//! the `person` tag go); the marks of the address's verified reviews, its window and any binned copy of its
//! reviews are deleted. Reviews (and their binned copies) are found by the `person` tag, the marks and the
//! window by keys made from the whole address.

use crate::proof::mark_prefix;
use crate::review::KIND;
use crate::write::RATE_SCOPE;
use shared::dynamo::{get_s_or_default, key_of, s};
use shared::personal::{self, Record, Section, Tally, PERSON};
use shared::ApiError;

/// The name an erased author's reviews show.
pub const FORMER_CUSTOMER: &str = "Former customer";

/// The address's reviews as written, and its window.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    let mut records: Vec<Record> = personal::items_of(db, table, email)
        .await?
        .iter()
        .map(|item| {
            let binned = !personal::text(item, "pk").starts_with(&format!("{KIND}#"));
            let review = match item.get("item").and_then(|inner| inner.as_m().ok()) {
                Some(inner) if binned => inner,
                _ => item,
            };
            Record::new(
                Section::Reviews,
                serde_json::json!({
                    "drink": get_s_or_default(review, "productName"),
                    "rating": shared::dynamo::get_n::<u8>(review, "rating").unwrap_or(0),
                    "comment": get_s_or_default(review, "comment"),
                    "name": get_s_or_default(review, "fullname"),
                    "writtenAt": get_s_or_default(review, "createdAt"),
                    "verified": shared::dynamo::get_bool(review, "verified"),
                    "state": if binned { "deleted by the shop, kept 30 days" }
                        else if shared::dynamo::get_bool(review, "hidden") { "hidden by the shop" }
                        else { "published" },
                }),
            )
        })
        .collect();
    records.extend(
        personal::window(
            db,
            table,
            shared::rate::email_window(RATE_SCOPE, email),
            "reviews written",
        )
        .await?,
    );
    Ok(records)
}

/// Takes the address out of its reviews and deletes the rest.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Tally, ApiError> {
    let mut tally = Tally::default();
    for key in personal::keys_of(db, table, email).await? {
        if personal::text(&key, "pk").starts_with(&format!("{KIND}#")) {
            tally.kept += u32::from(anonymise(db, table, &key, email).await?);
        } else {
            tally.deleted += u32::from(personal::delete(db, table, &key, email).await?);
        }
    }
    for mark in personal::partition(db, table, &mark_prefix(email)).await? {
        tally.deleted += u32::from(personal::delete_exact(db, table, key_of(&mark)).await?);
    }
    tally.deleted += u32::from(
        personal::delete_exact(db, table, shared::rate::email_window(RATE_SCOPE, email)).await?,
    );
    Ok(tally)
}

/// The review at `key` without its author, if it is still the address's.
async fn anonymise(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    key: &shared::dynamo::Item,
    email: &str,
) -> Result<bool, ApiError> {
    let written = db
        .update_item()
        .table_name(table)
        .set_key(Some(key.clone()))
        .update_expression("SET fullname = :former, email = :blank REMOVE #person")
        .condition_expression("#person = :e")
        .expression_attribute_names("#person", PERSON)
        .expression_attribute_values(":former", s(FORMER_CUSTOMER))
        .expression_attribute_values(":blank", s(""))
        .expression_attribute_values(":e", s(email))
        .send()
        .await;
    match written {
        Ok(_) => Ok(true),
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(false),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// Tags the reviews (and binned reviews) written before the `person` tag.
pub async fn backfill(db: &aws_sdk_dynamodb::Client, table: &str) -> Result<u32, ApiError> {
    personal::backfill(db, table, |item| {
        let pk = personal::text(item, "pk");
        let review = pk.starts_with(&format!("{KIND}#")) && personal::text(item, "sk") == KIND;
        (review || shared::recycle_bin::is_entry(item))
            .then(|| personal::text(item, "email").to_owned())
    })
    .await
}
