//! Customer reviews: shoppers write them (no login needed), everyone reads them with the rating summary,
//! admins list them with the reviewer's e-mail, hide, show and delete them, and see the ones shoppers
//! reported. A review is verified only when its writer proved to be a buyer of the drink (`proof`). The
//! summary's counters move in the same transaction as the review they count, so they can never drift from
//! the reviews themselves.

mod moderation;
pub mod personal;
pub mod proof;
mod read;
mod review;
mod summary;
pub mod write;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::outbox::Outbox;
use shared::rate::RateStore;
use shared::routes::{Access, ApiRoutes, RouteSpec};
use std::sync::Arc;

pub use review::{ADMIN_PAGE, PUBLIC_PAGE};
pub use write::{LIMIT_PER_EMAIL, LIMIT_PER_IP};

pub struct Config {
    pub table: String,
    /// The catalogue, read to check that a review names a real drink (and to keep its name).
    pub catalog_table: String,
    /// The content table, read for the site info the summary answers as `connect`.
    pub content_table: String,
    /// The orders, read (the customer's own, through their index, or the one a review link names) to
    /// tell whether a reviewer bought the drink: the "verified" badge.
    pub orders_table: String,
    pub auth: AuthConfig,
    /// Signs the review links: `MAIL_LINK_KEY`, a secret the orders function shares (it makes the links of
    /// the delivered e-mail).
    pub mail_link_key: Vec<u8>,
    /// The shop's address, for the confirmation link (`SITE_URL`).
    pub site_url: String,
    pub shop_name: String,
}

impl Config {
    /// `REVIEWS_TABLE`, `CATALOG_TABLE`, `CONTENT_TABLE`, `ORDERS_TABLE`, the auth settings,
    /// `MAIL_LINK_KEY` (a secret), `SITE_URL` and `SHOP_NAME`; the outbox's `MAIL_TABLE` and
    /// `MAIL_QUEUE_URL` are read by `AppState::new`'s caller (`Outbox::from_env`).
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "REVIEWS_TABLE")?,
            catalog_table: required(env, "CATALOG_TABLE")?,
            content_table: required(env, "CONTENT_TABLE")?,
            orders_table: required(env, "ORDERS_TABLE")?,
            auth: AuthConfig::from_env(env)?,
            mail_link_key: shared::secrets::symmetric_key(env, "MAIL_LINK_KEY")?,
            site_url: shared::config::site_url(env)?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<Auth>,
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
    /// The drink a review names is read through `catalog::store`, the site info through `content::store`.
    catalog_table: Arc<str>,
    content_table: Arc<str>,
    orders_table: Arc<str>,
    /// Confirmation mails go through the outbox, in the review's own transaction.
    outbox: Outbox,
    links: Arc<proof::Links>,
    site_url: Arc<str>,
    shop_name: Arc<str>,
    /// The per-address windows of reports, kept in the reviews table.
    rates: RateStore,
}

impl AppState {
    pub fn new(config: Config, dynamodb: aws_sdk_dynamodb::Client, outbox: Outbox) -> Self {
        AppState {
            outbox,
            links: Arc::new(proof::Links::new(&config.mail_link_key)),
            site_url: config.site_url.into(),
            shop_name: config.shop_name.into(),
            rates: RateStore {
                client: dynamodb.clone(),
                table: config.table.as_str().into(),
            },
            auth: config.auth.into_auth(dynamodb.clone()),
            catalog_table: config.catalog_table.into(),
            content_table: config.content_table.into(),
            orders_table: config.orders_table.into(),
            db: dynamodb,
            table: config.table.into(),
        }
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
        .post("/api/reviews/create/", Public, write::create_review)
        .summary("Writes a review, shown at once and verified only when proven (a few an hour per e-mail address and per network)")
        .post("/api/reviews/x/", Public, write::check_review)
        .summary("Checks a review as writing it would, storing nothing")
        .get("/api/reviews/invitation/", Public, proof::show_invitation)
        .summary("The name and drink a delivered e-mail's review link fills the form with")
        // 422: a link that is not valid, or expired.
        .fails(&[422])
        .post("/api/reviews/confirm/", Public, proof::confirm_review)
        .summary("Confirms a review from the link mailed to its address: verified when that address bought the drink")
        // 409: changed meanwhile.
        .fails(&[409])
        .post("/api/reviews/report/{id}", Public, moderation::report_review)
        .summary("Reports a shown review to the shop, with a reason")
        .limit_per_address(moderation::REPORT_LIMIT)
        .fails(&[404])
        .get("/api/reviews/reported/", Admin, moderation::list_reported)
        .summary("The reviews shoppers reported and no admin settled, most recently reported first")
        .post("/api/reviews/hide/{id}", Admin, moderation::hide_review)
        .summary("Hides a review from the shop (its lists and counts) and settles its reports")
        .fails(&[404, 409])
        .post("/api/reviews/unhide/{id}", Admin, moderation::unhide_review)
        .summary("Shows a hidden review again, or keeps a shown one, and settles its reports")
        .fails(&[404, 409])
        .get("/api/reviews", Admin, read::list_reviews)
        .summary("The shown reviews (or, with hidden=true, the hidden ones), newest first, with the reviewers' e-mails")
        .delete("/api/reviews/delete/{id}", Admin, write::delete_review)
        .summary("Deletes a review: it goes to the bin for 30 days")
        .fails(&[409])
        .get("/api/reviews/bin/", Admin, write::list_binned_reviews)
        .summary("The reviews deleted in the last 30 days, newest first")
        .post("/api/reviews/restore/{id}", Admin, write::restore_review)
        .summary("Brings a deleted review back, with its stars in the counts")
        .fails(&[409])
        .get(
            "/api/home_uk/palestine/comment/reviews",
            Public,
            read::list_public_reviews,
        )
        .summary("Reviews, newest first: all, or one drink's")
        .get("/api/home/uk/review/", Public, read::show_summary)
        .summary("The rating summary and the first page of reviews: all, or one drink's")
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::Sqs,
];

/// The function as its Lambda (`main.rs`) and the local gateway both build it: its configuration read
/// from `env`, its state from the clients it uses (the mail outbox's queue too), and its router.
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, shared::config::ConfigError> {
    let config = Config::from_env(env)?;
    let outbox = Outbox::from_env(env, clients.dynamodb(), clients.sqs())?;
    Ok(router(AppState::new(config, clients.dynamodb(), outbox)))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    let rates = state.rates.clone();
    api()
        .into_router()
        .layer(axum::Extension(rates))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    fn document() -> Value {
        shared::openapi::function_document("reviews", super::routes())
    }

    #[test]
    fn a_review_is_written_under_a_rate_limit_and_read_without_the_email() {
        let document = document();
        let create = &document["paths"]["/api/reviews/create/"]["post"];
        assert!(create["responses"]["429"]["headers"]["Retry-After"].is_object());
        assert_eq!(
            create["responses"]["201"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/Review"
        );
        let schemas = &document["components"]["schemas"];
        assert!(schemas["Review"]["properties"].get("email").is_none());
        assert!(schemas["AdminReview"]["properties"]["email"].is_object());
        // The address is asked only of a writer neither signed in nor holding a delivered e-mail's link.
        assert_eq!(
            schemas["ReviewInput"]["required"],
            json!(["rating", "comment", "fullname", "products"])
        );
        let confirm = &document["paths"]["/api/reviews/confirm/"]["post"];
        assert!(confirm.get("security").is_none());
    }

    #[test]
    fn the_summary_reads_no_page_number() {
        let document = document();
        let names = |path: &str| -> Vec<String> {
            document["paths"][path]["get"]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|parameter| parameter["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names("/api/home/uk/review/"), ["ProductsId"]);
        assert_eq!(
            names("/api/home_uk/palestine/comment/reviews"),
            ["ProductsId", "cursor", "pageNumber"]
        );
        assert_eq!(names("/api/reviews"), ["cursor", "hidden", "pageNumber"]);
    }
}
