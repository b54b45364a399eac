//! Whose account a sign-in opens: created on the first login by code (an address in `ADMIN_EMAILS` seeds
//! the first admin), the existing one for a passkey, refused when it was closed; the signed-in user's own
//! account for their profile; and the local gateway's demo admin.

use super::store;
use super::user::User;
use crate::AppState;
use shared::auth::Role;
use shared::ApiError;

/// Blocked (deleted) users get the same answer as unknown ones when they try to log in.
const BLOCKED: &str = "This account was closed: ask the shop to open it again";

/// Makes `email` an admin named `fullname` unless it has an account already (which is kept as it is): the
/// local gateway's demo admin, written as the auth function writes every user.
pub async fn ensure_admin(
    db: &aws_sdk_dynamodb::Client,
    users_table: &str,
    email: &str,
    fullname: &str,
) -> Result<(), ApiError> {
    let mut admin = User::new(email, Role::Admin);
    admin.fullname = fullname.to_owned();
    store::insert(db, users_table, &admin).await.map(drop)
}

/// The user behind a verified code, created on their first login. An address in `ADMIN_EMAILS` becomes an
/// admin only when its account is created here while the shop has no admin at all: the setting seeds the
/// first admin, it never promotes anyone once an admin exists. An existing account keeps the role admins
/// gave it, so a demoted admin stays demoted, and a deleted (blocked) one stays out.
pub async fn sign_in(state: &AppState, email: &str, listed_admin: bool) -> Result<User, ApiError> {
    // Only a listed address reads more than its own record, and only until its account exists.
    let role = if !listed_admin {
        Role::Customer
    } else if let Some(user) = store::find(state, email).await? {
        return existing_login(user);
    } else if store::admin_exists(state).await? {
        Role::Customer
    } else {
        Role::Admin
    };
    let mut fresh = User::new(email, role);
    fresh.token_version = store::version_after_erasure(state, email).await?;
    if store::insert(state.db(), state.table(), &fresh).await? {
        return Ok(fresh);
    }
    let user = store::find(state, email)
        .await?
        .ok_or_else(|| ApiError::conflict("Try again"))?;
    existing_login(user)
}

/// The account of `email` for a sign-in that does not create one (a passkey's): `None` when there is none,
/// 403 when it was closed.
pub async fn account(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    store::find(state, email)
        .await?
        .map(existing_login)
        .transpose()
}

fn existing_login(user: User) -> Result<User, ApiError> {
    if user.blocked {
        return Err(ApiError::forbidden(BLOCKED));
    }
    Ok(user)
}

/// The signed-in user's own open account: 401 once it is gone or closed.
pub async fn existing(state: &AppState, email: &str) -> Result<User, ApiError> {
    store::find(state, email)
        .await?
        .filter(|user| !user.blocked)
        .ok_or_else(|| ApiError::unauthorized(shared::error::PERSON_GONE))
}
