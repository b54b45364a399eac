//! A category as stored, and the check a drink's write makes against it. Below both the categories' and
//! the drinks' routes, so neither imports the other for it.

use crate::AppState;
use serde::Serialize;
use shared::dynamo::{get_s, get_s_or_default, get_string_list, s, string_list, Item, ItemError};
use shared::store::{version_of, Entity};
use shared::ApiError;

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Category {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub des: String,
    pub image: Vec<String>,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "updatedAt")]
    pub updated_at: String,
    #[serde(skip)]
    pub version: u64,
}

impl Entity for Category {
    const KIND: &'static str = "CATEGORY";
    const NOUN: &'static str = "category";

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        format!("{}#{}", self.name.to_lowercase(), self.id)
    }

    fn to_attributes(&self) -> Item {
        Item::from([
            ("id".to_owned(), s(&self.id)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("image".to_owned(), string_list(&self.image)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ])
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        Ok(Category {
            id: get_s(item, "id")?,
            name: get_s(item, "name")?,
            des: get_s_or_default(item, "des"),
            image: get_string_list(item, "image"),
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
        })
    }
}

/// A product may only point at a category that exists.
pub async fn check_exists(state: &AppState, id: Option<&str>) -> Result<(), ApiError> {
    match id {
        Some(id) if state.store.get::<Category>(id).await?.is_none() => {
            Err(ApiError::invalid("category: no category has this id"))
        }
        _ => Ok(()),
    }
}
