//! Changes to an existing account, each one conditional write: a profile save, the end of every token, a
//! role given (which reopens a closed account), and the tombstone a deletion leaves. Each answers `None` (or
//! `false`) when its condition found no such account, and writes nothing then.

use super::item::from_item;
use crate::users::user::User;
use crate::AppState;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemOutput};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};
use shared::auth::{user_key, Role};
use shared::dynamo::{is_condition_failed, n, s};
use shared::ApiError;

/// What a profile save writes besides `updatedAt`: attributes set, each to its text, and attributes removed.
#[derive(Debug, Default, PartialEq)]
pub struct ProfileWrite {
    pub set: Vec<(&'static str, String)>,
    pub remove: Vec<&'static str>,
}

/// Writes only the profile's own fields, on condition that the user still exists and is not blocked: a
/// save racing a role change or a delete can neither undo the one nor resurrect the other.
pub async fn write_profile(
    state: &AppState,
    email: &str,
    write: &ProfileWrite,
) -> Result<Option<User>, ApiError> {
    let mut sets = vec!["updatedAt = :now".to_owned()];
    let mut values = vec![(":now".to_owned(), s(shared::time::now_iso()))];
    for (name, value) in &write.set {
        sets.push(format!("{name} = :{name}"));
        values.push((format!(":{name}"), s(value)));
    }
    let mut expression = format!("SET {}", sets.join(", "));
    if !write.remove.is_empty() {
        expression.push_str(&format!(" REMOVE {}", write.remove.join(", ")));
    }
    let updated = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .update_expression(expression)
        .condition_expression("attribute_exists(pk) AND attribute_not_exists(blocked)")
        .set_expression_attribute_values(Some(values.into_iter().collect()))
        .return_values(ReturnValue::AllNew)
        .send()
        .await;
    updated_user(updated)
}

/// Ends every token of `email`: the token version moves on, so no token issued before counts.
pub async fn end_tokens(state: &AppState, email: &str) -> Result<bool, ApiError> {
    let ended = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .update_expression("ADD tokenVersion :one")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":one", n(1))
        .send()
        .await;
    match ended {
        Err(error) if is_condition_failed(&error) => Ok(false),
        Err(error) => Err(error.into()),
        Ok(_) => Ok(true),
    }
}

/// Gives `email` the role `role`. The role and the token version move together (old tokens carry the old
/// role), and a blocked user is let back in: giving a role is how an admin reopens a closed account.
pub async fn set_role(state: &AppState, email: &str, role: Role) -> Result<Option<User>, ApiError> {
    let now = shared::time::now_iso();
    let updated = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .update_expression(
            "SET #role = :role, updatedAt = :now, gsi1pk = :users, \
             gsi1sk = if_not_exists(gsi1sk, :listed) ADD tokenVersion :one REMOVE blocked",
        )
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_names("#role", "role")
        .expression_attribute_values(":role", s(role.as_str()))
        .expression_attribute_values(":now", s(&now))
        .expression_attribute_values(":users", s("USERS"))
        .expression_attribute_values(":listed", s(format!("{now}#{email}")))
        .expression_attribute_values(":one", n(1))
        .return_values(ReturnValue::AllNew)
        .send()
        .await;
    updated_user(updated)
}

/// Closes `email`'s open account. A tombstone, not a delete: the address stays blocked (no new account at
/// its next login), its profile is wiped, it leaves the list, and its tokens end.
pub async fn close(state: &AppState, email: &str) -> Result<bool, ApiError> {
    let deleted = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .update_expression(
            "SET blocked = :yes, updatedAt = :now, fullname = :empty, phone = :empty, address = :empty \
             ADD tokenVersion :one REMOVE gsi1pk, gsi1sk, addressLine1, addressLine2, town, postcode",
        )
        .condition_expression("attribute_exists(pk) AND attribute_not_exists(blocked)")
        .expression_attribute_values(":yes", AttributeValue::Bool(true))
        .expression_attribute_values(":now", s(shared::time::now_iso()))
        .expression_attribute_values(":empty", s(""))
        .expression_attribute_values(":one", n(1))
        .send()
        .await;
    match deleted {
        Err(error) if is_condition_failed(&error) => Ok(false),
        Err(error) => Err(error.into()),
        Ok(_) => Ok(true),
    }
}

/// The user an `UpdateItem` (returning all new attributes) wrote, or `None` when its condition found no
/// such user.
fn updated_user(
    updated: Result<UpdateItemOutput, SdkError<UpdateItemError, HttpResponse>>,
) -> Result<Option<User>, ApiError> {
    match updated {
        Ok(output) => {
            let item = output
                .attributes()
                .ok_or_else(|| ApiError::internal("no item"))?;
            Ok(Some(from_item(item)?))
        }
        Err(error) if is_condition_failed(&error) => Ok(None),
        Err(error) => Err(error.into()),
    }
}
