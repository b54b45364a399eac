//! The catalog table's back-in-stock alerts, beside the drinks they wait for: a pending alert
//! (`ALERT#{drink}` / `PENDING#{email}`, gone by the table's TTL once its link expires) and a confirmed one
//! (`ALERT#{drink}` / `EMAIL#{email}`), both listed on the `gsi1` index under the whole address
//! (`ALERTS-OF#{email}`). Every read and write of them is here, so `crate::alerts` names what it does and
//! never spells a key or an expression.

use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem};
use shared::dynamo::{n, s, Item};
use shared::ApiError;

/// The index key (`gsi1pk`) every alert of one address carries, pending or confirmed: the address whole, so
/// the address's alerts are found by it exactly.
pub fn alerts_of(email: &str) -> String {
    format!("ALERTS-OF#{email}")
}

fn alert_key(product: &str, email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ALERT#{product}"))),
        ("sk".to_owned(), s(format!("EMAIL#{email}"))),
    ])
}

fn pending_key(product: &str, email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ALERT#{product}"))),
        ("sk".to_owned(), s(format!("PENDING#{email}"))),
    ])
}

/// Whether `email` waits for drink `product` already, or was mailed a confirmation for it less than
/// `resend_after` seconds ago that still works (read consistently).
pub async fn asked_already(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    product: &str,
    email: &str,
    now: i64,
    resend_after: i64,
) -> Result<bool, ApiError> {
    let (waiting, earlier) = tokio::try_join!(
        db.get_item()
            .table_name(table)
            .set_key(Some(alert_key(product, email)))
            .consistent_read(true)
            .send(),
        db.get_item()
            .table_name(table)
            .set_key(Some(pending_key(product, email)))
            .consistent_read(true)
            .send(),
    )
    .map_err(ApiError::internal)?;
    let recently_sent = earlier.item().is_some_and(|item| {
        shared::dynamo::get_n::<i64>(item, "sentAt").is_ok_and(|at| now - at < resend_after)
            && shared::dynamo::get_n::<i64>(item, "expiresAt").is_ok_and(|at| at > now)
    });
    Ok(waiting.item().is_some() || recently_sent)
}

/// The write of `email`'s pending alert for drink `product`, its confirmation mailed `now` and good until
/// `expires`.
pub fn pending_put(
    table: &str,
    product: &str,
    email: &str,
    now: i64,
    expires: i64,
) -> Result<TransactWriteItem, ApiError> {
    let mut item = pending_key(product, email);
    item.extend([
        ("email".to_owned(), s(email)),
        ("gsi1pk".to_owned(), s(alerts_of(email))),
        ("gsi1sk".to_owned(), s(format!("PENDING#{product}"))),
        ("createdAt".to_owned(), s(shared::time::now_iso())),
        ("sentAt".to_owned(), n(now)),
        // The table's TTL: an unconfirmed alert goes by itself.
        ("expiresAt".to_owned(), n(expires)),
    ]);
    Ok(TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name(table)
                .set_item(Some(item))
                .build()
                .map_err(ApiError::internal)?,
        )
        .build())
}

/// A sign-up's writes (its windows, and when it mails, the pending alert and the mail), in one transaction.
pub async fn write(
    db: &aws_sdk_dynamodb::Client,
    writes: Vec<TransactWriteItem>,
) -> Result<(), ApiError> {
    db.transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map(drop)
        .map_err(shared::rate::busy_or_internal)
}

/// The writes that confirm `email`'s alert for drink `product`: the pending alert is used once (while its
/// link works), and the address waits for the drink; confirming an alert already waiting changes nothing.
pub fn confirm_writes(
    table: &str,
    product: &str,
    email: &str,
    now: i64,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    let mut item = alert_key(product, email);
    item.extend([
        ("email".to_owned(), s(email)),
        ("gsi1pk".to_owned(), s(alerts_of(email))),
        ("gsi1sk".to_owned(), s(product)),
        ("createdAt".to_owned(), s(shared::time::now_iso())),
    ]);
    let taken = Delete::builder()
        .table_name(table)
        .set_key(Some(pending_key(product, email)))
        .condition_expression("attribute_exists(pk) AND expiresAt > :now")
        .expression_attribute_values(":now", n(now))
        .build()
        .map_err(ApiError::internal)?;
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    Ok(vec![
        TransactWriteItem::builder().delete(taken).build(),
        TransactWriteItem::builder().put(put).build(),
    ])
}

/// What a transaction of alerts came to.
pub enum Transacted {
    Written,
    /// Refused on a condition: another confirmation or release took some of its alerts meanwhile. The
    /// error is the answer when that is not a race.
    Raced(ApiError),
}

/// Runs the alerts' writes `items` in one transaction.
pub async fn transact(
    db: &aws_sdk_dynamodb::Client,
    items: Vec<TransactWriteItem>,
) -> Result<Transacted, ApiError> {
    match db
        .transact_write_items()
        .set_transact_items(Some(items))
        .send()
        .await
    {
        Ok(_) => Ok(Transacted::Written),
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception()) =>
        {
            Ok(Transacted::Raced(ApiError::internal(error)))
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// One alert waiting.
pub struct Waiting {
    key: Item,
    pub email: String,
}

/// The addresses waiting for drink `product` (read consistently): `limit` of them, or all.
pub async fn waiting(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    product: &str,
    limit: Option<i32>,
) -> Result<Vec<Waiting>, ApiError> {
    let mut found = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .query()
            .table_name(table)
            .key_condition_expression("pk = :pk AND begins_with(sk, :waiting)")
            .expression_attribute_values(":pk", s(format!("ALERT#{product}")))
            .expression_attribute_values(":waiting", s("EMAIL#"))
            .consistent_read(true)
            .set_limit(limit)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(ApiError::internal)?;
        for item in page.items.unwrap_or_default() {
            let email = shared::personal::text(&item, "email").to_owned();
            found.push(Waiting {
                key: alert_key(product, &email),
                email,
            });
        }
        start = page.last_evaluated_key;
        if start.is_none() || limit.is_some() {
            return Ok(found);
        }
    }
}

/// The write that clears a waiting alert as its mail is queued: only while it is still there, so two
/// releases at once mail nobody twice.
pub fn take(table: &str, alert: &Waiting) -> Result<TransactWriteItem, ApiError> {
    let delete = Delete::builder()
        .table_name(table)
        .set_key(Some(alert.key.clone()))
        .condition_expression("attribute_exists(pk)")
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().delete(delete).build())
}

/// Removes every alert of `email`, pending or confirmed.
pub async fn stop_all(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<(), ApiError> {
    let mine = db
        .query()
        .table_name(table)
        .index_name("gsi1")
        .key_condition_expression("gsi1pk = :me")
        .expression_attribute_values(":me", s(alerts_of(email)))
        .send()
        .await
        .map_err(ApiError::internal)?;
    for item in mine.items.unwrap_or_default() {
        shared::personal::delete_exact(db, table, shared::dynamo::key_of(&item)).await?;
    }
    Ok(())
}
