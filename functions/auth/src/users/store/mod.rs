//! The users table's user items and every read and write of them, so the handlers name what they do and
//! never spell a key, an expression or an SDK call. How a `User` is stored is `item`; updates of an existing
//! account are `updates`; the marks an erasure leaves are `erased`.

mod erased;
mod item;
mod updates;

pub use erased::{remember_erased, version_after_erasure};
pub use updates::{close, end_tokens, set_role, write_profile, ProfileWrite};

use super::user::User;
use crate::AppState;
use item::{from_item, to_item};
use shared::auth::{user_key, Role};
use shared::dynamo::{is_condition_failed, s, Item};
use shared::ApiError;

/// The account of `email` (a closed one included), read consistently.
pub async fn find(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    let found = state
        .db()
        .get_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .consistent_read(true)
        .send()
        .await?;
    found.item().map(from_item).transpose().map_err(Into::into)
}

/// Writes `user` as a new account: `false`, writing nothing, when the address has one already.
pub async fn insert(
    db: &aws_sdk_dynamodb::Client,
    users_table: &str,
    user: &User,
) -> Result<bool, ApiError> {
    let put = db
        .put_item()
        .table_name(users_table)
        .set_item(Some(to_item(user)))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match put {
        Ok(_) => Ok(true),
        Err(error) if is_condition_failed(&error) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// Every listed user (closed accounts leave the list), newest first.
pub async fn listed(state: &AppState) -> Result<Vec<User>, ApiError> {
    let mut all = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let found = state
            .db()
            .query()
            .table_name(state.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :users")
            .expression_attribute_values(":users", s("USERS"))
            .scan_index_forward(false)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in found.items() {
            all.push(from_item(item)?);
        }
        match found.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(all),
        }
    }
}

/// Whether any user (a closed account aside) is an admin.
pub async fn admin_exists(state: &AppState) -> Result<bool, ApiError> {
    let mut start: Option<Item> = None;
    loop {
        let found = state
            .db()
            .query()
            .table_name(state.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :users")
            .filter_expression(
                "#role = :admin AND (attribute_not_exists(blocked) OR blocked = :open)",
            )
            .expression_attribute_names("#role", "role")
            .expression_attribute_values(":users", s("USERS"))
            .expression_attribute_values(":admin", s(Role::Admin.as_str()))
            .expression_attribute_values(
                ":open",
                aws_sdk_dynamodb::types::AttributeValue::Bool(false),
            )
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        if !found.items().is_empty() {
            return Ok(true);
        }
        match found.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(false),
        }
    }
}
