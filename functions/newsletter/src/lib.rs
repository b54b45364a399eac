//! Subscriptions: shoppers sign up to the shop's mail lists, admins see the lists and subscribers and send
//! a bulk mailing to chosen lists (a job the sender function works through), and every e-mail carries a
//! signed link that unsubscribes its reader, in one click from the mail client too. Bounces and complaints
//! SES reports come back through `feedback`.

pub mod feedback;
mod letter;
mod links;
mod lists;
pub mod mailer;
pub mod mailing;
pub mod personal;
pub mod recount;
mod schema;
pub mod signup;
pub mod store;
mod subscriber;
mod unsubscribe;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::openapi::BodyDoc;
use shared::outbox::{Outbox, Queue};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use links::UnsubscribeKey;
pub use lists::MailLists;
pub use signup::{LIMIT_PER_EMAIL, LIMIT_PER_IP};
pub use subscriber::stored_subscriber;

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
    /// The same secret, from which the sign-up confirmation links' key is derived.
    pub confirm_secret: Vec<u8>,
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
            confirm_secret: secret.clone(),
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
    /// Signs the links that confirm a sign-up (double opt-in).
    pub confirm: Arc<signup::ConfirmKey>,
    /// Welcome mails go through the outbox; mailings' jobs through its queue.
    pub outbox: Outbox,
    /// The shop's own address, for the `mailto:` unsubscribe header.
    pub mail_from: Arc<str>,
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

impl AppState {
    /// The state of both of this crate's Lambdas (the API and the bounce feedback), and of the mail sender
    /// built on it: the configuration read from `env`, the clients it uses.
    pub fn build(
        env: &impl Lookup,
        clients: &shared::clients::Clients,
    ) -> Result<Self, ConfigError> {
        let config = Config::from_env(env)?;
        Ok(AppState::new(
            config,
            clients.dynamodb(),
            clients.ses(),
            clients.sqs(),
        ))
    }

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
            confirm: Arc::new(signup::ConfirmKey::new(&config.confirm_secret)),
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

/// The document of a link followed from an e-mail: a browser gets a page, a refusal too; a client whose
/// Accept names application/json gets `{message}` instead.
fn link_page(doc: &mut shared::openapi::Doc, done: &'static str, refused: &'static str) {
    let page = Some(BodyDoc {
        media: "text/html",
        schema: shared::openapi::schema::<String>,
    });
    doc.errors.remove(&400);
    doc.reply(200, done, page);
    doc.reply(400, refused, page);
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Public};
    ApiRoutes::new()
        .get("/api/sub/", Admin, lists::list_lists)
        .summary("The mail lists, each with how many subscribers it has")
        .get("/api/subscription/", Admin, subscriber::list_subscribers)
        .summary("The subscribers, newest first, 20 a page")
        .post(
            "/api/subscription/create/",
            Public,
            signup::create_subscriber,
        )
        .summary("Asks an address to confirm joining mail lists (double opt-in; the same answer for every address)")
        .get(
            "/api/subscription/confirm/",
            Public,
            signup::open_confirmation,
        )
        .summary("An older confirmation link: leads to the storefront's confirmation page, confirming nothing")
        .answers_empty(303, "To the storefront's confirmation page, with the token")
        .describe(|doc| {
            doc.errors.remove(&400);
        })
        .post(
            "/api/subscription/confirm/",
            Public,
            signup::confirm_subscription,
        )
        .summary("The confirmation page's button: the address joins its lists (double opt-in)")
        // 409: two clicks at once; the other one joined.
        .fails(&[409])
        .delete(
            "/api/subscription/delete/{id}",
            Admin,
            subscriber::delete_subscriber,
        )
        .summary("Removes a subscriber from every list")
        // 409: a sign-up kept changing them meanwhile.
        .fails(&[409])
        .post("/api/subscription/mailer/", Admin, mailer::send_mailing)
        .summary("Queues a bulk mailing to every subscriber of the chosen lists")
        .answers::<mailer::MailingQueued>(202, "Queued: the sender function sends it")
        .get(
            "/api/subscription/recipients/",
            Admin,
            mailer::count_mailing_recipients,
        )
        .summary("How many subscribers a mailing to the given lists would reach, each counted once")
        // 422: no list chosen.
        .fails(&[422])
        .get("/api/subscription/mailings/", Admin, mailing::list_mailings)
        .summary("The mailings and their progress, newest first, 20 a page")
        .get(
            "/api/subscription/mailings/{id}",
            Admin,
            mailing::get_mailing,
        )
        .summary("One mailing and its progress")
        .get(
            "/api/subscription/unsubscribe/",
            Public,
            unsubscribe::unsubscribe,
        )
        .summary("The unsubscribe link of every e-mail: removes its reader from every list")
        .describe(|doc| {
            link_page(
                doc,
                "A page saying the reader is unsubscribed (`{message}` instead to a client whose Accept \
                 names application/json)",
                "A page saying the link is not valid: no token, or a forged one (`{message}` to a client \
                 whose Accept names application/json)",
            )
        })
        // 409: a sign-up kept changing the subscriber meanwhile.
        .fails(&[409])
        .post(
            "/api/subscription/unsubscribe/",
            Public,
            unsubscribe::unsubscribe_one_click,
        )
        .summary("One-click unsubscribe (RFC 8058), posted by mail clients to the same link")
        .fails(&[409])
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
    Ok(links::id_of(&shared::validation::Email::parse_normalised(
        email,
    )?))
}

/// The services this crate's clients are for: its Lambdas build them while their settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::Ses,
    shared::clients::Service::Sqs,
];

/// The API function as its Lambda (`main.rs`) and the local gateway both build it.
pub fn build(
    env: &impl Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, ConfigError> {
    Ok(router(AppState::build(env, clients)?))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn every_route_is_described() {
        let document = shared::openapi::function_document("newsletter", crate::routes());
        let paths = &document["paths"];
        let mailer = &paths["/api/subscription/mailer/"]["post"]["responses"]["202"];
        assert_eq!(
            mailer["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/MailingQueued"
        );
        let link = &paths["/api/subscription/unsubscribe/"]["get"];
        assert!(link["responses"]["200"]["content"]["text/html"].is_object());
        assert!(link["responses"]["400"]["content"]["text/html"].is_object());
        assert_eq!(link["parameters"][0]["required"], true);
        let one_click = &paths["/api/subscription/unsubscribe/"]["post"];
        assert_eq!(
            one_click["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
                ["$ref"],
            "#/components/schemas/OneClickUnsubscribe"
        );
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["MailingInput"]["required"],
            json!(["MailList", "data"])
        );
        assert_eq!(
            schemas["MailingStatus"]["enum"],
            json!(["queued", "sending", "sent", "failed"])
        );
        let sign_up = &paths["/api/subscription/create/"]["post"]["responses"];
        assert!(sign_up["201"].is_object() && sign_up["429"].is_object());
    }
}
