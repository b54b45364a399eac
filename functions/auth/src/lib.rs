//! Passwordless login: a code by e-mail, exchanged for a token. Also the shopper's profile and the
//! admins' user list. The users table belongs to this function; others only read it (shared::auth::Users).

mod codes;
mod users;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::validation::Email;
use std::sync::Arc;

pub use codes::CodeKey;

pub struct Config {
    pub auth: AuthConfig,
    pub mail_from: String,
    pub shop_name: String,
    /// Addresses that become admins on their first login while the shop has no admin (`ADMIN_EMAILS`,
    /// comma-separated): they seed the first admins, they never re-promote anyone.
    pub admin_emails: Vec<String>,
    code_key: Vec<u8>,
}

impl Config {
    /// `USERS_TABLE`, the token settings with `TOKEN_SIGNING_KEY` (a secret: only this function signs),
    /// `LOGIN_CODE_KEY` (a secret), `MAIL_FROM`, `ADMIN_EMAILS` and `SHOP_NAME`.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let admin_emails = optional(env, "ADMIN_EMAILS", "")
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| {
                Email::parse_normalised(e)
                    .map(Email::into_inner)
                    .map_err(|_| ConfigError::Invalid {
                        name: "ADMIN_EMAILS",
                        reason: format!("{e:?} is not an e-mail address"),
                    })
            })
            .collect::<Result<_, _>>()?;
        let auth = AuthConfig::from_env(env)?;
        if !auth.keys.can_sign() {
            return Err(ConfigError::Missing("TOKEN_SIGNING_KEY"));
        }
        Ok(Config {
            auth,
            mail_from: required(env, "MAIL_FROM")?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
            admin_emails,
            code_key: shared::secrets::symmetric_key(env, "LOGIN_CODE_KEY")?,
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<Auth>,
    pub mailer: Mailer,
    pub codes: Arc<CodeKey>,
    pub shop_name: Arc<str>,
    pub admin_emails: Arc<[String]>,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        ses: aws_sdk_sesv2::Client,
    ) -> Self {
        AppState {
            codes: Arc::new(CodeKey::new(&config.code_key)),
            auth: config.auth.into_auth(dynamodb),
            mailer: Mailer::new(ses, config.mail_from),
            shop_name: config.shop_name.into(),
            admin_emails: config.admin_emails.into(),
        }
    }

    fn db(&self) -> &aws_sdk_dynamodb::Client {
        self.auth.users.client()
    }

    fn table(&self) -> &str {
        self.auth.users.table()
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Customer, Public};
    ApiRoutes::new()
        .post("/api/user/login/", Public, codes::request_code)
        .post("/api/user/verify/", Public, codes::verify_code)
        .get("/api/user/profile/", Customer, users::show_profile)
        .put("/api/user/profile/", Customer, users::update_profile)
        .post("/api/user/logout/", Customer, users::log_out)
        .get("/api/user/lists", Admin, users::list_users)
        .put("/api/user/role/{email}", Admin, users::change_role)
        .delete("/api/user/delete/{email}", Admin, users::delete_user)
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
