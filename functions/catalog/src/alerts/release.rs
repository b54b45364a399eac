//! Releasing a drink's alerts once it has stock again (an admin's edit, or stock given back by a cancelled
//! or expired order): each waiting address gets one e-mail through the mail queue and leaves the list. Each
//! alert's delete and its mail's outbox item are one transaction, so two releases at once mail nobody
//! twice.

use super::mail::{alert_mail, AlertMail};
use crate::product::Product;
use crate::store::alerts::{self as alert_store, Transacted};
use shared::outbox::{Outbox, Pending};
use shared::ApiError;

/// Alerts released in one transaction: each is two writes (the alert's delete, the mail's outbox item).
const BATCH: usize = 25;

/// When drink `id` has stock, mails every address waiting for it, once, and clears them. Called after any
/// write that can give a drink stock back (an admin's edit, a cancelled or expired order). The count mailed.
pub async fn release(
    db: &aws_sdk_dynamodb::Client,
    catalog_table: &str,
    outbox: &Outbox,
    how: &AlertMail<'_>,
    id: &str,
) -> Result<usize, ApiError> {
    let store = shared::store::Store::new(db.clone(), catalog_table.to_owned());
    let Some(product) = store.get::<Product>(id).await? else {
        return Ok(0);
    };
    if product.stock == 0 {
        return Ok(0);
    }
    let mut sent = 0;
    // A batch refused because another release took some of its alerts is read again; one refused over
    // and over is not a race, and is answered as the error it is.
    let mut refused = 0;
    loop {
        let batch = alert_store::waiting(db, catalog_table, id, Some(BATCH as i32)).await?;
        if batch.is_empty() {
            return Ok(sent);
        }
        let mut items = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        for alert in &batch {
            let (put, handle) = outbox.put(&alert_mail(how, &product, &alert.email))?;
            items.push(alert_store::take(catalog_table, alert)?);
            items.push(put);
            pending.push(handle);
        }
        match alert_store::transact(db, items).await? {
            Transacted::Written => {
                refused = 0;
                sent += pending.len();
                for mail in pending {
                    outbox.enqueue(mail).await;
                }
            }
            // Another release took some of these meanwhile: they are its to mail; read again.
            Transacted::Raced(_) if refused < 5 => refused += 1,
            Transacted::Raced(error) => return Err(error),
        }
    }
}
