//! Subscriptions: shoppers sign up to the shop's mail lists, admins see the lists and subscribers and send
//! a bulk mailing to chosen lists (a job the sender function works through), and every e-mail carries a
//! signed link that unsubscribes its reader, in one click from the mail client too. Bounces and complaints
//! SES reports come back through `feedback`.

pub mod feedback;
mod lists;
pub mod mailer;
pub mod mailing;
mod subscriber;
mod unsubscribe;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::outbox::{Outbox, Queue};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use lists::MailLists;
pub use subscriber::{stored_subscriber, LIMIT_PER_EMAIL, LIMIT_PER_IP};
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
    /// The outbox and delivery records (`MAIL_TABLE`) and the mail queue (`MAIL_QUEUE_URL`).
    pub mail_table: String,
    pub mail_queue_url: String,
}

impl Config {
    /// `SUBSCRIPTION_TABLE`, the auth settings, `MAIL_FROM`, `SHOP_NAME`, `SITE_URL`, `SUBSCRIPTION_LISTS`,
    /// `UNSUBSCRIBE_KEY` (a secret, `UNSUBSCRIBE_KEY_SECRET_ID` in template.yaml), `MAIL_TABLE` and
    /// `MAIL_QUEUE_URL`.
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
            mail_table: required(env, "MAIL_TABLE")?,
            mail_queue_url: required(env, "MAIL_QUEUE_URL")?,
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
    /// Welcome mails go through the outbox; mailings' jobs through its queue.
    pub outbox: Outbox,
    /// The shop's own address, for the `mailto:` unsubscribe header.
    pub mail_from: Arc<str>,
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        ses: aws_sdk_sesv2::Client,
        sqs: aws_sdk_sqs::Client,
    ) -> Self {
        AppState {
            store: Store::new(dynamodb.clone(), config.table.clone()),
            auth: config.auth.into_auth(dynamodb.clone()),
            outbox: Outbox::new(
                dynamodb.clone(),
                config.mail_table,
                Queue::new(sqs, config.mail_queue_url),
            ),
            mail_from: config.mail_from.as_str().into(),
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
    pub(crate) fn base_url(&self) -> &str {
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
        .get("/api/subscription/mailings/", Admin, mailing::list_mailings)
        .get(
            "/api/subscription/mailings/{id}",
            Admin,
            mailing::get_mailing,
        )
        .get(
            "/api/subscription/unsubscribe/",
            Public,
            unsubscribe::unsubscribe,
        )
        .post(
            "/api/subscription/unsubscribe/",
            Public,
            unsubscribe::unsubscribe_one_click,
        )
}

/// Adds `count` subscribers on exactly `lists` to the list counts: for loading subscribers in bulk with
/// `stored_subscriber` (the mail benchmark, tests), which bypasses sign-up.
pub async fn add_to_list_counts(
    state: &AppState,
    lists: &[String],
    count: i64,
) -> Result<(), shared::ApiError> {
    state
        .db
        .transact_write_items()
        .transact_items(subscriber::count_update(&state.table, lists, count)?)
        .send()
        .await
        .map(drop)
        .map_err(shared::ApiError::internal)
}

/// The id the shop gives the subscriber with this address (as in admin URLs).
pub fn subscriber_id(email: &str) -> Result<String, shared::ApiError> {
    Ok(subscriber::id_of(
        &shared::validation::Email::parse_normalised(email)?,
    ))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
