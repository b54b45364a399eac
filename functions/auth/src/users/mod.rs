//! Users: created on their first login, with a profile they edit and a role admins change. Each user has a
//! token version that every protected request checks: logging out, a role change or a deletion raises it
//! and so ends all of that user's tokens at once. A deleted user is kept as a blocked tombstone, so they
//! cannot log back in until an admin gives them a role again.
//!
//! Each handler is a short list of named steps: the request is read and checked (`input`), the account is
//! found or opened (`accounts`), one conditional write changes it (`store`, the only module that spells the
//! users table's keys and expressions), and the user is answered as the API shows them (`user`).

mod accounts;
mod input;
mod store;
mod user;

pub use accounts::ensure_admin;
pub(crate) use accounts::{account, sign_in};
#[cfg(test)]
pub(crate) use input::optional_field;
use input::{ProfileInput, RoleInput};
pub(crate) use store::remember_erased;
pub use user::{User, UserInfo};

use crate::AppState;
use axum::extract::State;
use shared::auth::{Admin, Customer};
use shared::extract::{Path, Query};
use shared::json::Message;
use shared::paging::{Page, PageQuery};
use shared::{ApiError, ApiResult, Json};

/// Users per page of the admin list.
pub const PAGE_SIZE: usize = 20;

fn person_gone() -> ApiError {
    ApiError::unauthorized(shared::error::PERSON_GONE)
}

fn no_such_user() -> ApiError {
    ApiError::not_found(input::NO_SUCH_USER)
}

pub async fn show_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<UserInfo>> {
    Ok(Json(accounts::existing(&state, &me.email).await?.info()))
}

/// Writes only the profile's own fields, on condition that the user still exists and is not blocked: a
/// save racing a role change or a delete can neither undo the one nor resurrect the other.
pub async fn update_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
    Json(input): Json<ProfileInput>,
) -> ApiResult<Json<UserInfo>> {
    let write = input.write()?;
    let user = store::write_profile(&state, &me.email, &write)
        .await?
        .ok_or_else(person_gone)?;
    Ok(Json(user.info()))
}

/// Ends every token of the caller: their token version moves on, so no token issued before counts.
pub async fn log_out(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Message>> {
    if !store::end_tokens(&state, &me.email).await? {
        return Err(person_gone());
    }
    Ok(Message::new("You are logged out on every device"))
}

/// Newest first.
pub async fn list_users(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<UserInfo>>> {
    let page = query.page()?;
    let all = store::listed(&state)
        .await?
        .iter()
        .map(User::info)
        .collect();
    Ok(Json(Page::of(all, page, PAGE_SIZE)))
}

pub async fn change_role(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
    Json(input): Json<RoleInput>,
) -> ApiResult<Json<UserInfo>> {
    let email = input::target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid(
            "You cannot change your own role: ask another admin",
        ));
    }
    let user = store::set_role(&state, email.as_str(), input.role)
        .await?
        .ok_or_else(no_such_user)?;
    Ok(Json(user.info()))
}

pub async fn delete_user(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> ApiResult<Json<Message>> {
    let email = input::target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid("You cannot delete your own account here"));
    }
    if !store::close(&state, email.as_str()).await? {
        return Err(no_such_user());
    }
    Ok(Message::new("The user was deleted"))
}
