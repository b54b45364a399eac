//! The content lists an admin keeps: about texts, who-we-are texts, policies and link entries. One shape
//! (`_id, name, des, link, image, sort`), one set of handlers, a marker type per kind.

use crate::policies::{fill_settings, Standard, STANDARD_TEXTS_REVISED};
use crate::rules;
use crate::AppState;
use axum::extract::State;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize, Serializer};
use shared::auth::Admin;
use shared::delivery::Delivery;
use shared::dynamo::{
    get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item, ItemError,
};
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::store::{new_id, not_found, version_of, Entity};
use shared::trader::Trader;
use shared::validation::{bounded_lines, without_controls, Lines, Name, UploadName};
use shared::{ApiError, ApiResult, Json};
use std::borrow::Cow;
use std::marker::PhantomData;

pub trait Kind: Send + Sync + 'static {
    const KIND: &'static str;
    const NOUN: &'static str;
    /// The kind's name in the OpenAPI document's schemas (`AboutInput`, `NewAboutInput`).
    const SCHEMA: &'static str;
    /// Link entries point somewhere; the others need no link.
    const NEEDS_LINK: bool = false;
    const MAX_DES: usize = 5_000;
    /// Entries the shop always has, served with their standard text until an admin saves their own.
    const STANDARD: &'static [Standard] = &[];
    /// Texts that may name the delivery terms (`{deliveryFee}`, `{freeDeliveryFrom}`), filled in as served,
    /// and whose every save is kept as a version (`versions.rs`).
    const POLICY: bool = false;
}

pub struct About;
pub struct WhoWeAre;
pub struct Policy;
pub struct Link;

impl Kind for About {
    const KIND: &'static str = "ABOUT";
    const NOUN: &'static str = "about text";
    const SCHEMA: &'static str = "About";
}

impl Kind for WhoWeAre {
    const KIND: &'static str = "WHOWEARE";
    const NOUN: &'static str = "who-we-are text";
    const SCHEMA: &'static str = "WhoWeAre";
}

impl Kind for Policy {
    const KIND: &'static str = "POLICY";
    const NOUN: &'static str = "policy";
    const SCHEMA: &'static str = "Policy";
    const MAX_DES: usize = 50_000;
    const STANDARD: &'static [Standard] = crate::policies::STANDARD;
    const POLICY: bool = true;
}

impl Kind for Link {
    const KIND: &'static str = "LINK";
    const NOUN: &'static str = "link";
    const SCHEMA: &'static str = "Link";
    const NEEDS_LINK: bool = true;
}

pub struct Entry<K> {
    pub id: String,
    pub name: String,
    pub des: String,
    pub link: String,
    pub image: Vec<String>,
    pub sort: u32,
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
    kind: PhantomData<K>,
}

/// An about text, who-we-are text, policy or link entry as the API answers it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "Entry")]
struct EntryJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    name: &'a str,
    des: &'a str,
    link: &'a str,
    image: &'a [String],
    sort: u32,
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    #[serde(rename = "updatedAt")]
    updated_at: &'a str,
}

impl<K> Serialize for Entry<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        EntryJson {
            id: &self.id,
            name: &self.name,
            des: &self.des,
            link: &self.link,
            image: &self.image,
            sort: self.sort,
            created_at: &self.created_at,
            updated_at: &self.updated_at,
        }
        .serialize(serializer)
    }
}

impl<K> JsonSchema for Entry<K> {
    fn schema_name() -> Cow<'static, str> {
        EntryJson::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        EntryJson::json_schema(generator)
    }
}

impl<K: Kind> Entity for Entry<K> {
    const KIND: &'static str = K::KIND;
    const NOUN: &'static str = K::NOUN;

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        shared::store::ordered_by_position(self.sort, &self.name, &self.id)
    }

    fn to_attributes(&self) -> Item {
        Item::from([
            ("id".to_owned(), s(&self.id)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("link".to_owned(), s(&self.link)),
            ("image".to_owned(), string_list(&self.image)),
            ("sort".to_owned(), n(self.sort)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ])
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        Ok(Entry {
            id: get_s(item, "id")?,
            name: get_s(item, "name")?,
            des: get_s_or_default(item, "des"),
            link: get_s_or_default(item, "link"),
            image: get_string_list(item, "image"),
            sort: get_n(item, "sort").unwrap_or(0),
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
            kind: PhantomData,
        })
    }
}

/// A link is a web address or a path inside the shop.
pub fn check_link(raw: &str) -> Result<String, ApiError> {
    let link = without_controls("link", raw, Lines::One)?.trim();
    // A path in the shop starts with one `/`: `//host` and `/\host` are other sites to a browser
    // (protocol-relative), so a link that looked like a shop path would lead away from the shop.
    let shop_path = link.starts_with('/') && !link[1..].starts_with(['/', '\\']);
    let shaped = link.starts_with("https://") || link.starts_with("http://") || shop_path;
    // At most 500 characters as sent, as the document's maxLength counts them.
    if !shaped || link.chars().any(char::is_whitespace) || raw.chars().count() > 500 {
        return Err(ApiError::invalid(
            "link must be a web address (https://...) or a path in the shop (/...)",
        ));
    }
    Ok(link.to_owned())
}

/// What an admin sends for an entry; every field optional on update. The kinds' limits differ (`des`'s
/// length, whether `link` may be blank), so each kind's body is described by `EntryBody`.
#[derive(Deserialize, JsonSchema)]
pub struct EntryInput {
    #[schemars(regex(pattern = rules::name()), length(max = 120))]
    name: Option<String>,
    #[schemars(regex(pattern = rules::lines()))]
    des: Option<String>,
    /// A web address (https://...) or a path in the shop (/...), at most 500 bytes.
    #[schemars(length(max = 500))]
    link: Option<String>,
    #[schemars(with = "Option<Vec<UploadName>>", length(max = 10))]
    image: Option<Vec<String>>,
    /// The entry's place in its list, smallest first.
    #[schemars(range(max = u32::MAX))]
    sort: Option<u32>,
}

/// The body of kind K's create (`CREATE`) or update route, for the OpenAPI document: `EntryInput` with
/// the kind's limits, and on create the fields it insists on.
pub struct EntryBody<K, const CREATE: bool>(PhantomData<K>);

impl<K: Kind, const CREATE: bool> JsonSchema for EntryBody<K, CREATE> {
    fn schema_name() -> Cow<'static, str> {
        let new = if CREATE { "New" } else { "" };
        format!("{new}{}Input", K::SCHEMA).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = EntryInput::json_schema(generator);
        let required = match (CREATE, K::NEEDS_LINK) {
            (true, true) => "; `name` and `link` are required",
            (true, false) => "; `name` is required",
            (false, _) => "",
        };
        schema.insert(
            "description".to_owned(),
            format!("An entry ({}) as an admin sends it{required}.", K::NOUN).into(),
        );
        rules::set_property(&mut schema, "des", "maxLength", K::MAX_DES.into());
        let link = if K::NEEDS_LINK {
            rules::link()
        } else {
            rules::link_or_blank()
        };
        rules::set_property(&mut schema, "link", "pattern", link.into());
        match (CREATE, K::NEEDS_LINK) {
            (true, true) => rules::requiring(schema, &["name", "link"]),
            (true, false) => rules::requiring(schema, &["name"]),
            (false, _) => schema,
        }
    }
}

impl EntryInput {
    fn apply<K: Kind>(self, mut entry: Entry<K>) -> Result<Entry<K>, ApiError> {
        if let Some(name) = &self.name {
            if name.chars().count() > 120 {
                return Err(ApiError::invalid("name must be at most 120 characters"));
            }
            entry.name = Name::parse(name)?.into_inner();
        }
        if let Some(des) = &self.des {
            entry.des = bounded_lines("des", des, K::MAX_DES)?;
        }
        match &self.link {
            Some(link)
                if without_controls("link", link, Lines::One)?
                    .trim()
                    .is_empty()
                    && !K::NEEDS_LINK =>
            {
                entry.link = String::new()
            }
            Some(link) => entry.link = check_link(link)?,
            None => {}
        }
        if let Some(images) = &self.image {
            if images.len() > 10 {
                return Err(ApiError::invalid("image holds at most 10 names"));
            }
            entry.image = UploadName::parse_all(images)?;
        }
        if let Some(sort) = self.sort {
            entry.sort = sort;
        }
        Ok(entry)
    }
}

impl<K: Kind> Entry<K> {
    fn blank(id: String) -> Entry<K> {
        let now = shared::time::now_iso();
        Entry {
            id,
            name: String::new(),
            des: String::new(),
            link: String::new(),
            image: Vec::new(),
            sort: 0,
            created_at: now.clone(),
            updated_at: now,
            version: 1,
            kind: PhantomData,
        }
    }

    /// A standard entry as served before an admin saves their own version; last updated when its wording
    /// last changed.
    fn standard(standard: &Standard, trader: &Trader, delivery: &Delivery) -> Entry<K> {
        Entry {
            name: standard.name.to_owned(),
            des: standard.text(trader, delivery),
            sort: standard.sort,
            created_at: STANDARD_TEXTS_REVISED.to_owned(),
            updated_at: STANDARD_TEXTS_REVISED.to_owned(),
            ..Entry::blank(standard.id.to_owned())
        }
    }

    /// The entry as served: a policy's delivery terms filled in.
    fn served(mut self, delivery: &Delivery) -> Entry<K> {
        if K::POLICY {
            self.des = fill_settings(&self.des, delivery);
        }
        self
    }
}

fn find_standard<K: Kind>(id: &str) -> Option<&'static Standard> {
    K::STANDARD.iter().find(|s| s.id == id)
}

/// The standard entry of that id as served now, when the kind has one.
pub(crate) fn standard_text<K: Kind>(
    id: &str,
    trader: &Trader,
    delivery: &Delivery,
) -> Option<Entry<K>> {
    find_standard::<K>(id).map(|standard| Entry::standard(standard, trader, delivery))
}

/// Keeps a policy's saved words as its newest version (`versions.rs`). The save stands even if this
/// fails: the checkout keeps the terms' served words itself before it records their version.
async fn keep_version<K: Kind>(state: &AppState, entry: &Entry<K>) {
    if !K::POLICY {
        return;
    }
    let des = fill_settings(&entry.des, &state.delivery);
    if let Err(error) = crate::versions::keep(
        state.store.client(),
        state.store.table(),
        &entry.id,
        &entry.name,
        &des,
        crate::versions::Source::Admin,
    )
    .await
    {
        tracing::error!(policy = %entry.id, %error, "the policy's version was not kept");
    }
}

/// The stored entry, or the standard one of that id when none is stored.
pub(crate) async fn stored_or_standard<K: Kind>(
    state: &AppState,
    id: &str,
) -> ApiResult<(Entry<K>, bool)> {
    if let Some(entry) = state.store.get::<Entry<K>>(id).await? {
        return Ok((entry, true));
    }
    match find_standard::<K>(id) {
        Some(standard) => Ok((
            Entry::standard(standard, &state.trader().await?, &state.delivery),
            false,
        )),
        None => Err(not_found::<Entry<K>>()),
    }
}

pub async fn list<K: Kind>(State(state): State<AppState>) -> ApiResult<Json<Vec<Entry<K>>>> {
    Ok(Json(all::<K>(&state).await?))
}

/// Every entry of the kind in order: the stored ones and the standard ones not stored.
pub async fn all<K: Kind>(state: &AppState) -> ApiResult<Vec<Entry<K>>> {
    let mut entries = state.store.list::<Entry<K>>().await?;
    let missing: Vec<&Standard> = K::STANDARD
        .iter()
        .filter(|s| !entries.iter().any(|e| e.id == s.id))
        .collect();
    if !missing.is_empty() {
        let trader = state.trader().await?;
        entries.extend(
            missing
                .iter()
                .map(|s| Entry::standard(s, &trader, &state.delivery)),
        );
        entries.sort_by_key(|e| e.order_key());
    }
    Ok(entries
        .into_iter()
        .map(|entry| entry.served(&state.delivery))
        .collect())
}

pub async fn show<K: Kind>(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Entry<K>>> {
    Ok(Json(
        stored_or_standard::<K>(&state, &id)
            .await?
            .0
            .served(&state.delivery),
    ))
}

pub async fn create<K: Kind>(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<EntryInput>,
) -> ApiResult<Created<Entry<K>>> {
    if input.name.is_none() {
        return Err(ApiError::invalid("name is required"));
    }
    if K::NEEDS_LINK && input.link.is_none() {
        return Err(ApiError::invalid("link is required"));
    }
    let entry = input.apply(Entry::<K>::blank(new_id()))?;
    state.store.insert(&entry).await?;
    keep_version(&state, &entry).await;
    Ok(Created(entry))
}

pub async fn update<K: Kind>(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<EntryInput>,
) -> ApiResult<Json<Entry<K>>> {
    let (base, stored) = stored_or_standard::<K>(&state, &id).await?;
    let mut entry = input.apply(base)?;
    entry.updated_at = shared::time::now_iso();
    if stored {
        state.store.replace(&entry).await?;
        entry.version += 1;
    } else {
        // A standard entry's first save stores it under its fixed id.
        state.store.insert(&entry).await?;
    }
    keep_version(&state, &entry).await;
    Ok(Json(entry))
}

pub async fn delete<K: Kind>(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let (_, stored) = stored_or_standard::<K>(&state, &id).await?;
    if !stored {
        return Err(ApiError::conflict(format!(
            "The shop must show this {}: edit it instead",
            K::NOUN
        )));
    }
    state.store.delete::<Entry<K>>(&id).await?;
    if find_standard::<K>(&id).is_some() {
        return Ok(Message::new(format!(
            "The {} was deleted: the standard text shows again",
            K::NOUN
        )));
    }
    Ok(Message::new(format!("The {} was deleted", K::NOUN)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_web_addresses_or_shop_paths() {
        assert_eq!(
            check_link(" https://example.com/a ").unwrap(),
            "https://example.com/a"
        );
        assert!(check_link("/shop/drinks/").is_ok());
        assert!(check_link("/").is_ok());
        for bad in [
            "javascript:alert(1)",
            "example.com",
            "https://a b",
            "",
            "//evil.example",
            " //evil.example/drinks",
            "/\\evil.example",
        ] {
            assert!(check_link(bad).is_err(), "{bad}");
        }
    }
}
