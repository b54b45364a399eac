//! A table of simple entities (the catalog's drinks and categories, the content function's pages and
//! links). Every entity is one item keyed `pk = KIND#id, sk = KIND`; the `gsi1` index lists a kind in
//! display order (`gsi1pk = KIND-LIST`, `gsi1sk` = the order key), so no read needs a Scan.
//! Writes carry a `version` and are conditional on it: two admins saving the same drink cannot silently
//! overwrite each other.

use crate::dynamo::{get_n, is_condition_failed, n, s, Item, ItemError};
use crate::ApiError;
use aws_sdk_dynamodb::types::AttributeValue;
use std::sync::Arc;

pub use crate::dynamo::INDEX;

/// An entity stored in the catalog table.
pub trait Entity: Sized {
    /// Key prefix and `sk`, e.g. `PRODUCT`.
    const KIND: &'static str;
    /// What a person calls it, for messages.
    const NOUN: &'static str;
    fn id(&self) -> &str;
    fn version(&self) -> u64;
    /// The position in the kind's list (`gsi1sk`).
    fn order_key(&self) -> String;
    /// The entity's own attributes (keys and version are added by the store).
    fn to_attributes(&self) -> Item;
    fn from_item(item: &Item) -> Result<Self, ItemError>;
}

/// The order key of an entity listed by its admin-set position, then by name (case aside), then by id so
/// equal names keep one order.
pub fn ordered_by_position(sort: u32, name: &str, id: &str) -> String {
    format!("{sort:07}#{}#{id}", name.to_lowercase())
}

#[derive(Clone)]
pub struct Store {
    client: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

fn key<E: Entity>(id: &str) -> Item {
    entity_key::<E>(id)
}

/// The key of entity `id` of kind `E`: for the owner's store module, which hands it (or a write built on
/// it) to the functions that join its table's writes, so no other crate spells `KIND#id` itself.
pub fn entity_key<E: Entity>(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("{}#{id}", E::KIND))),
        ("sk".to_owned(), s(E::KIND)),
    ])
}

fn list_key<E: Entity>() -> String {
    format!("{}-LIST", E::KIND)
}

impl Store {
    pub fn new(client: aws_sdk_dynamodb::Client, table: impl Into<Arc<str>>) -> Self {
        Store {
            client,
            table: table.into(),
        }
    }

    /// The client and table, for the writes of the table's other kinds of item.
    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// The whole list of a kind, in display order. A small brand has tens of drinks, so one Query with
    /// follow-up pages is the right size; paging for the client happens after.
    pub async fn list<E: Entity>(&self) -> Result<Vec<E>, ApiError> {
        let mut all = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&*self.table)
                .index_name(INDEX)
                .key_condition_expression("gsi1pk = :list")
                .expression_attribute_values(":list", s(list_key::<E>()))
                .set_exclusive_start_key(start.take())
                .send()
                .await?;
            for item in page.items() {
                all.push(E::from_item(item)?);
            }
            match page.last_evaluated_key() {
                Some(last) if !last.is_empty() => start = Some(last.clone()),
                _ => return Ok(all),
            }
        }
    }

    pub async fn get<E: Entity>(&self, id: &str) -> Result<Option<E>, ApiError> {
        self.stored::<E>(id)
            .await?
            .as_ref()
            .map(E::from_item)
            .transpose()
            .map_err(Into::into)
    }

    /// An entity's item as stored (keys, list index and version included), read consistently.
    async fn stored<E: Entity>(&self, id: &str) -> Result<Option<Item>, ApiError> {
        let found = self
            .client
            .get_item()
            .table_name(&*self.table)
            .set_key(Some(key::<E>(id)))
            .consistent_read(true)
            .send()
            .await?;
        Ok(found.item)
    }

    /// Writes a new entity; its id must be new.
    pub async fn insert<E: Entity>(&self, entity: &E) -> Result<(), ApiError> {
        let result = self
            .client
            .put_item()
            .table_name(&*self.table)
            .set_item(Some(self.item(entity, 1)))
            .condition_expression("attribute_not_exists(pk)")
            .send()
            .await;
        match result {
            Err(error) if is_condition_failed(&error) => Err(ApiError::conflict(format!(
                "A {} with this id already exists",
                E::NOUN
            ))),
            other => other.map(drop).map_err(Into::into),
        }
    }

    /// Replaces an entity read at `entity.version()`; fails with 409 if someone saved it since, 404 if it
    /// was deleted since.
    pub async fn replace<E: Entity>(&self, entity: &E) -> Result<(), ApiError> {
        let result = self
            .client
            .put_item()
            .table_name(&*self.table)
            .set_item(Some(self.item(entity, entity.version() + 1)))
            .condition_expression("version = :read")
            .expression_attribute_values(":read", n(entity.version()))
            .send()
            .await;
        match result {
            Err(error) if is_condition_failed(&error) => match self.get::<E>(entity.id()).await? {
                None => Err(not_found::<E>()),
                Some(_) => Err(ApiError::conflict(format!(
                    "This {} was changed by someone else meanwhile: reload and try again",
                    E::NOUN
                ))),
            },
            other => other.map(drop).map_err(Into::into),
        }
    }

    pub async fn delete<E: Entity>(&self, id: &str) -> Result<(), ApiError> {
        let result = self
            .client
            .delete_item()
            .table_name(&*self.table)
            .set_key(Some(key::<E>(id)))
            .condition_expression("attribute_exists(pk)")
            .send()
            .await;
        match result {
            Err(error) if is_condition_failed(&error) => Err(not_found::<E>()),
            other => other.map(drop).map_err(Into::into),
        }
    }

    /// Moves an entity into the bin (`crate::recycle_bin`) instead of deleting it for good: 404 if it is
    /// gone, 409 if someone saved it since it was read here. Answers what was binned.
    pub async fn bin<E: Entity>(
        &self,
        id: &str,
        label: impl FnOnce(&E) -> String,
    ) -> Result<E, ApiError> {
        let item = self.stored::<E>(id).await?.ok_or_else(not_found::<E>)?;
        let entity = E::from_item(&item)?;
        let writes = crate::recycle_bin::move_in(
            &self.table,
            &item,
            E::KIND,
            id,
            &label(&entity),
            crate::time::now_unix(),
        )?;
        crate::recycle_bin::commit(
            &self.client,
            writes.into(),
            &format!(
                "This {} was changed by someone else meanwhile: reload and try again",
                E::NOUN
            ),
        )
        .await?;
        Ok(entity)
    }

    /// A kind's entries in the bin, newest first.
    pub async fn binned<E: Entity>(&self) -> Result<Vec<crate::recycle_bin::Entry>, ApiError> {
        crate::recycle_bin::list(&self.client, &self.table, E::KIND, crate::time::now_unix()).await
    }

    /// Brings an entity back from the bin as it was: 404 if the bin has no such entry (never deleted, or
    /// deleted more than `recycle_bin::DAYS` ago), 409 if another with its id was made meanwhile.
    pub async fn restore<E: Entity>(&self, id: &str) -> Result<E, ApiError> {
        let pk = format!("{}#{id}", E::KIND);
        let binned =
            crate::recycle_bin::find(&self.client, &self.table, &pk, crate::time::now_unix())
                .await?
                .ok_or_else(|| {
                    ApiError::not_found(format!("No {} with this id is in the bin", E::NOUN))
                })?;
        let entity = E::from_item(&binned.item)?;
        crate::recycle_bin::commit(
            &self.client,
            binned.move_out(&self.table)?.into(),
            &format!(
                "A {} with this id exists again, or it was restored meanwhile: reload the bin",
                E::NOUN
            ),
        )
        .await?;
        Ok(entity)
    }

    fn item<E: Entity>(&self, entity: &E, version: u64) -> Item {
        stored_item(entity, version)
    }

    /// Appends `names` to entity `id`'s `image` list unless the list would pass `max`: one conditional
    /// UpdateItem that touches the list and the version only (so it needs no read first, and an admin's
    /// stale edit cannot silently drop the names), answering nothing back. Refused, it reads the item to
    /// tell a missing item from a full list.
    pub async fn append_images<E: Entity>(
        &self,
        id: &str,
        names: &[String],
        max: usize,
    ) -> Result<Appended, ApiError> {
        let listed: Vec<AttributeValue> = names.iter().map(s).collect();
        let room = max.saturating_sub(names.len());
        let updated = self
            .client
            .update_item()
            .table_name(&*self.table)
            .set_key(Some(key::<E>(id)))
            .update_expression(
                "SET image = list_append(if_not_exists(image, :none), :names) ADD version :one",
            )
            .condition_expression(
                "attribute_exists(pk) AND (attribute_not_exists(image) OR size(image) <= :room)",
            )
            .expression_attribute_values(":none", AttributeValue::L(Vec::new()))
            .expression_attribute_values(":names", AttributeValue::L(listed))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":room", n(room as i64))
            .send()
            .await;
        match updated {
            Ok(_) => Ok(Appended::Done),
            Err(error) if is_condition_failed(&error) => {
                let found = self
                    .client
                    .get_item()
                    .table_name(&*self.table)
                    .set_key(Some(key::<E>(id)))
                    .projection_expression("pk")
                    .send()
                    .await?;
                Ok(if found.item().is_some() {
                    Appended::Full
                } else {
                    Appended::Missing
                })
            }
            Err(error) => Err(ApiError::internal(error)),
        }
    }
}

/// What [`Store::append_images`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    Done,
    /// No such item.
    Missing,
    /// The list has too little room left: nothing was appended.
    Full,
}

/// The whole item as the store lays it out (keys, list index, `version`), for a caller that writes it
/// inside a transaction of its own.
pub fn stored_item<E: Entity>(entity: &E, version: u64) -> Item {
    let mut item = entity.to_attributes();
    item.extend(key::<E>(entity.id()));
    item.insert("gsi1pk".to_owned(), s(list_key::<E>()));
    item.insert("gsi1sk".to_owned(), s(entity.order_key()));
    item.insert("version".to_owned(), n(version));
    item
}

pub fn not_found<E: Entity>() -> ApiError {
    ApiError::not_found(format!("No {} has this id", E::NOUN))
}

/// The stored version of an item (1 for the first write).
pub fn version_of(item: &Item) -> Result<u64, ItemError> {
    get_n(item, "version")
}

/// Ids are random (UUID v4): nothing about the catalogue can be guessed from them.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
