//! What a sign-in answers: a fresh bearer token at the user's current token version, and the user as the
//! API shows them. A passkey's sign-in answers the same.

use crate::users::{User, UserInfo};
use crate::AppState;
use serde::Serialize;
use shared::ApiError;

/// A signed-in user: the bearer token for `Authorization` and who it belongs to.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Session {
    token: String,
    #[serde(rename = "userInfo")]
    user_info: UserInfo,
}

impl Session {
    /// A fresh token for `user`, at their current token version.
    pub(crate) fn of(state: &AppState, user: User) -> Result<Self, ApiError> {
        let keys = &state.auth.keys;
        let token = keys.issue_at_version(
            &user.email,
            user.role,
            keys.ttl_for(user.role),
            user.token_version,
        )?;
        Ok(Session {
            token,
            user_info: user.info(),
        })
    }
}
