//! Subscriptions: shoppers sign up to the shop's mail lists, admins see the lists and subscribers and send
//! a bulk mailing to chosen lists, and every e-mail carries a signed link that unsubscribes its reader.

mod lists;
mod mailer;
mod subscriber;
mod unsubscribe;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use lists::MailLists;
pub use subscriber::{LIMIT_PER_EMAIL, LIMIT_PER_IP};
pub use unsubscribe::UnsubscribeKey;

pub struct Config {
    pub table: String,
    pub auth: AuthConfig,
    pub mail_from: String,
    pub shop_name: String,
    /// The shop's address for unsubscribe links (`SITE_URL`, required).
    pub site_url: String,
    /// The mail lists, fixed by configuration (`SUBSCRIPTION_LISTS`, comma-separated).
    pub lists: MailLists,
    /// Signs unsubscribe links: `UNSUBSCRIBE_KEY`, a secret of its own.
    pub unsubscribe: UnsubscribeKey,
}

impl Config {
    /// `SUBSCRIPTION_TABLE`, the auth settings, `MAIL_FROM`, `SHOP_NAME`, `SITE_URL`, `SUBSCRIPTION_LISTS`
    /// and `UNSUBSCRIBE_KEY` (a secret, `UNSUBSCRIBE_KEY_SECRET_ID` in template.yaml).
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let secret = shared::secrets::symmetric_key(env, "UNSUBSCRIBE_KEY")?;
        Ok(Config {
            table: required(env, "SUBSCRIPTION_TABLE")?,
            auth: AuthConfig::from_env(env)?,
            mail_from: required(env, "MAIL_FROM")?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
            site_url: shared::config::site_url(env)?,
            lists: MailLists::parse(&optional(env, "SUBSCRIPTION_LISTS", lists::DEFAULT_LISTS))
                .map_err(|reason| ConfigError::Invalid {
                    name: "SUBSCRIPTION_LISTS",
                    reason,
                })?,
            unsubscribe: UnsubscribeKey::new(&secret),
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<Auth>,
    pub mailer: Mailer,
    pub shop_name: Arc<str>,
    pub site_url: Arc<str>,
    pub lists: Arc<MailLists>,
    pub unsubscribe: Arc<UnsubscribeKey>,
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        ses: aws_sdk_sesv2::Client,
    ) -> Self {
        AppState {
            store: Store::new(dynamodb.clone(), config.table.clone()),
            auth: config.auth.into_auth(dynamodb.clone()),
            mailer: Mailer::new(ses, config.mail_from),
            shop_name: config.shop_name.into(),
            site_url: config.site_url.into(),
            lists: Arc::new(config.lists),
            unsubscribe: Arc::new(config.unsubscribe),
            db: dynamodb,
            table: config.table.into(),
        }
    }

    /// `SITE_URL`: links never follow request headers.
    fn base_url(&self) -> &str {
        &self.site_url
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Public};
    ApiRoutes::new()
        .get("/api/sub/", Admin, lists::list_lists)
        .get("/api/subscription/", Admin, subscriber::list_subscribers)
        .post(
            "/api/subscription/create/",
            Public,
            subscriber::create_subscriber,
        )
        .delete(
            "/api/subscription/delete/{id}",
            Admin,
            subscriber::delete_subscriber,
        )
        .post("/api/subscription/mailer/", Admin, mailer::send_mailing)
        .get(
            "/api/subscription/unsubscribe/",
            Public,
            unsubscribe::unsubscribe,
        )
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
