//! The versions of the policies: every text a policy has been served with, kept for good, numbered from 1,
//! so an order can name the terms it was sold under and its page can show exactly those words later. An
//! admin's save of a policy appends a version; the checkout asks for the terms' current version through
//! `current_terms_version`, which appends one when the text served now is not the latest kept (a standard
//! text whose wording or filled-in facts changed since, or a save whose version write failed), so every
//! order's number names the words that were on the page when it was placed.
//!
//! Items: `pk = POLICY-VERSION#<policy id>`, `sk = <version, 6 digits>`; the latest is the first of a
//! Query read backwards. This module alone spells those keys.

use crate::entries::{self, Entry, Policy};
use crate::AppState;
use axum::extract::State;
use serde::Serialize;
use shared::delivery::Delivery;
use shared::dynamo::{get_n, get_s, get_s_or_default, is_condition_failed, n, s, Item, ItemError};
use shared::extract::Path;
use shared::store::Store;
use shared::trader::Trader;
use shared::{ApiError, ApiResult, Json};

/// The standard policy whose version an order records.
pub const TERMS: &str = "terms";
const PREFIX: &str = "POLICY-VERSION#";
/// Saves racing for the same number try again this often.
const ATTEMPTS: usize = 5;

/// Who wrote a version's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The shop's standard text, filled in with the site info.
    Standard,
    /// An admin's own text.
    Admin,
}

/// One kept version of a policy, as the API answers it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "PolicyVersion")]
pub struct Version {
    /// The policy's id (`terms`).
    #[serde(rename = "_id")]
    pub id: String,
    /// 1 for the first kept, counting up.
    pub version: u32,
    pub name: String,
    pub des: String,
    /// When it was kept (ISO 8601 UTC): the day its words were first served.
    #[serde(rename = "savedAt")]
    pub saved_at: String,
    pub source: Source,
}

/// A version in the list, without its text.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "PolicyVersionSummary")]
pub struct Summary {
    pub version: u32,
    pub name: String,
    #[serde(rename = "savedAt")]
    pub saved_at: String,
    pub source: Source,
}

fn partition(id: &str) -> String {
    format!("{PREFIX}{id}")
}

fn sort_key(version: u32) -> String {
    format!("{version:06}")
}

impl Version {
    fn to_item(&self) -> Item {
        Item::from([
            ("pk".to_owned(), s(partition(&self.id))),
            ("sk".to_owned(), s(sort_key(self.version))),
            ("id".to_owned(), s(&self.id)),
            ("version".to_owned(), n(self.version)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("savedAt".to_owned(), s(&self.saved_at)),
            (
                "source".to_owned(),
                s(match self.source {
                    Source::Standard => "standard",
                    Source::Admin => "admin",
                }),
            ),
        ])
    }

    fn from_item(item: &Item) -> Result<Version, ItemError> {
        Ok(Version {
            id: get_s(item, "id")?,
            version: get_n(item, "version")?,
            name: get_s(item, "name")?,
            des: get_s_or_default(item, "des"),
            saved_at: get_s(item, "savedAt")?,
            source: match get_s(item, "source")?.as_str() {
                "admin" => Source::Admin,
                _ => Source::Standard,
            },
        })
    }
}

/// The versions of a policy, newest first (`limit`: at most that many).
async fn query(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
    limit: Option<i32>,
) -> Result<Vec<Version>, ApiError> {
    let mut found = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let page = db
            .query()
            .table_name(table)
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(":pk", s(partition(id)))
            .scan_index_forward(false)
            .set_limit(limit)
            .consistent_read(true)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            found.push(Version::from_item(item)?);
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() && limit.is_none() => start = Some(last.clone()),
            _ => return Ok(found),
        }
    }
}

/// The latest kept version of a policy.
pub async fn latest(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
) -> Result<Option<Version>, ApiError> {
    Ok(query(db, table, id, Some(1)).await?.into_iter().next())
}

/// Keeps `name` and `des` as the policy's newest version unless they are the latest already; answers the
/// version that holds them. Two saves at once each get their own number (the put is conditional on the
/// number being free).
pub async fn keep(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
    name: &str,
    des: &str,
    source: Source,
) -> Result<Version, ApiError> {
    for _ in 0..ATTEMPTS {
        let latest = latest(db, table, id).await?;
        if let Some(latest) = &latest {
            if latest.name == name && latest.des == des {
                return Ok(latest.clone());
            }
        }
        let version = Version {
            id: id.to_owned(),
            version: latest.map_or(1, |v| v.version + 1),
            name: name.to_owned(),
            des: des.to_owned(),
            saved_at: shared::time::now_iso(),
            source,
        };
        let put = db
            .put_item()
            .table_name(table)
            .set_item(Some(version.to_item()))
            .condition_expression("attribute_not_exists(pk)")
            .send()
            .await;
        match put {
            Ok(_) => return Ok(version),
            Err(error) if is_condition_failed(&error) => continue,
            Err(error) => return Err(error.into()),
        }
    }
    Err(ApiError::conflict(
        "The policy was saved by someone else meanwhile: try again",
    ))
}

/// The version of the terms a shopper buying now is sold under: the latest kept, or a new one when the
/// terms served now differ from it. The orders function calls this at checkout and records the number on
/// the order; it reads the terms as this function serves them (an admin's saved text, or the standard
/// text with `trader`'s facts and the delivery terms filled in).
pub async fn current_terms_version(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    trader: &Trader,
    delivery: &Delivery,
) -> Result<u32, ApiError> {
    let store = Store::new(db.clone(), table.to_owned());
    let (name, des, source) = match store.get::<Entry<Policy>>(TERMS).await? {
        Some(saved) => (saved.name, saved.des, Source::Admin),
        None => {
            let standard = entries::standard_text::<Policy>(TERMS, trader, delivery)
                .ok_or_else(|| ApiError::internal("the standard terms are missing"))?;
            (standard.name, standard.des, Source::Standard)
        }
    };
    let des = crate::policies::fill_settings(&des, delivery);
    Ok(keep(db, table, TERMS, &name, &des, source).await?.version)
}

/// GET /api/policy/versions/{id}: a policy's kept versions, newest first.
pub async fn list_versions(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<Summary>>> {
    let versions = query(state.store.client(), state.store.table(), &id, None).await?;
    if versions.is_empty() {
        // A policy the shop has but that was never kept: none yet. An unknown id: 404.
        entries::stored_or_standard::<Policy>(&state, &id).await?;
    }
    Ok(Json(
        versions
            .into_iter()
            .map(|v| Summary {
                version: v.version,
                name: v.name,
                saved_at: v.saved_at,
                source: v.source,
            })
            .collect(),
    ))
}

/// GET /api/policy/versions/{id}/{version}: the words of one kept version.
pub async fn show_version(
    State(state): State<AppState>,
    Path((id, version)): Path<(String, String)>,
) -> ApiResult<Json<Version>> {
    // A number that is no version's (letters, a sign, too many digits) names no version: 404, like one
    // not kept yet.
    let missing = || ApiError::not_found("No version of this policy has this number");
    let version: u32 = version.parse().map_err(|_| missing())?;
    let found = state
        .store
        .client()
        .get_item()
        .table_name(state.store.table())
        .key("pk", s(partition(&id)))
        .key("sk", s(sort_key(version)))
        .send()
        .await?;
    match found.item {
        Some(item) => Ok(Json(Version::from_item(&item)?)),
        None => Err(ApiError::not_found(
            "No version of this policy has this number",
        )),
    }
}
