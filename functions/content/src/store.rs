//! The content table's door for other functions: the site info's key, the reads others make of it (the
//! trader's facts the checkout prices and mails with, the site info the reviews summary answers), the
//! version of the terms an order is sold under (kept by `versions`, which may append one), and the image
//! names the images function appends to the site info and to link entries. Keys are spelled in this crate
//! alone (a test in the local gateway holds every crate to it), and template.yaml's grants on the table name
//! these operations. `shared::trader` stays the parsed type, since `shared` cannot read a function's table.

use crate::entries::{Entry, Link};
use crate::site::{SiteInfo, SITE_ID};
use shared::dynamo::Item;
use shared::store::{entity_key, Appended, Store};
use shared::trader::Trader;
use shared::ApiError;

pub use crate::versions::current_terms_version;

/// The site info record's key.
pub fn site_key() -> Item {
    entity_key::<SiteInfo>(SITE_ID)
}

/// The trader's facts as the site info holds them now (`fallback_name` until an admin has created it).
pub async fn trader(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    fallback_name: &str,
) -> Result<Trader, ApiError> {
    let output = db
        .get_item()
        .table_name(table)
        .set_key(Some(site_key()))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(Trader::from_item(
        &output.item.unwrap_or_default(),
        fallback_name,
    ))
}

/// The site info as stored, `None` until an admin has created it.
pub async fn site_info(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Option<SiteInfo>, ApiError> {
    Store::new(db.clone(), table.to_owned())
        .get::<SiteInfo>(SITE_ID)
        .await
}

/// The content items that show images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pictured {
    /// The site info (one item, [`SITE_ID`]).
    Site,
    Link,
}

/// Appends uploaded image names to the site info's or a link entry's `image` list, at most `max` in all:
/// the update touches the list and the version only.
pub async fn attach_images(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    what: Pictured,
    id: &str,
    names: &[String],
    max: usize,
) -> Result<Appended, ApiError> {
    let store = Store::new(db.clone(), table.to_owned());
    match what {
        Pictured::Site => store.append_images::<SiteInfo>(id, names, max).await,
        Pictured::Link => store.append_images::<Entry<Link>>(id, names, max).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::dynamo::s;

    #[test]
    fn the_site_info_is_one_item() {
        assert_eq!(site_key()["pk"], s("SITE#main"));
        assert_eq!(site_key()["sk"], s("SITE"));
    }
}
