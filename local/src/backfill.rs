//! Tags the items written before the `person` index existed, table by table through each owner's rule:
//! the local gateway runs it on a kept store at start, and `make backfill-person STAGE=...` runs the same on
//! a deployed stage (the `backfill-person` binary, with the operator's credentials). Idempotent.

use shared::ApiError;

/// The tables whose owners tag personal items: reviews, codes, content and mail (the others find an
/// address's items by keys made from it).
pub struct Tables {
    pub reviews: String,
    pub codes: String,
    pub content: String,
    pub mail: String,
}

/// How many items each table's backfill tagged.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tagged {
    pub reviews: u32,
    pub codes: u32,
    pub content: u32,
    pub mail: u32,
}

impl Tagged {
    pub fn total(&self) -> u32 {
        self.reviews + self.codes + self.content + self.mail
    }
}

pub async fn run(db: &aws_sdk_dynamodb::Client, tables: &Tables) -> Result<Tagged, ApiError> {
    Ok(Tagged {
        reviews: reviews::personal::backfill(db, &tables.reviews).await?,
        codes: discounts::personal::backfill(db, &tables.codes).await?,
        content: content::personal::backfill(db, &tables.content).await?,
        mail: shared::mail_records::backfill(db, &tables.mail).await?,
    })
}
