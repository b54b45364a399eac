//! The catalog: products, categories, the home page's drink lists and search. The router is the same in
//! Lambda, in the local gateway and in the tests.

pub mod alerts;
mod browse;
mod categories;
mod category;
pub mod food;
mod home;
pub mod personal;
pub mod pricing;
mod product;
mod products;
mod search;
mod snapshot;
pub mod statements;
pub mod store;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{required, ConfigError, Lookup};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use std::sync::Arc;

pub use category::Category;
pub use product::Product;
pub use shared::store::{Entity, Store};

/// The function's settings.
pub struct Config {
    pub table: String,
    /// The reviews table, read for each drink's rating counters (`REVIEWS_TABLE`); `None` only where
    /// another function's tests borrow the catalogue's routes, and then the lists carry no ratings.
    pub reviews_table: Option<String>,
    pub auth: AuthConfig,
    /// Back-in-stock mail; `None` only where another function's tests borrow the catalogue's routes.
    pub alerts: Option<AlertSettings>,
}

/// What back-in-stock mail needs: the outbox (`MAIL_TABLE`, `MAIL_QUEUE_URL`), the shop's address and
/// name for its links and words (`SITE_URL`, `SHOP_NAME`), and `MAIL_LINK_KEY` for its stop links.
pub struct AlertSettings {
    pub mail_table: String,
    pub mail_queue_url: String,
    pub site_url: String,
    pub shop_name: String,
    pub link_key: Vec<u8>,
}

impl AlertSettings {
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(AlertSettings {
            mail_table: required(env, "MAIL_TABLE")?,
            mail_queue_url: required(env, "MAIL_QUEUE_URL")?,
            site_url: shared::config::site_url(env)?,
            shop_name: shared::config::optional(env, "SHOP_NAME", "Palestine Drinks"),
            link_key: shared::secrets::symmetric_key(env, "MAIL_LINK_KEY")?,
        })
    }
}

impl Config {
    /// `CATALOG_TABLE`, `REVIEWS_TABLE`, the auth settings (see `AuthConfig::from_env`) and the
    /// back-in-stock mail's.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            alerts: Some(AlertSettings::from_env(env)?),
            reviews_table: Some(required(env, "REVIEWS_TABLE")?),
            ..Config::without_alerts(env)?
        })
    }

    /// The catalogue's routes without back-in-stock mail: for another function's tests that make drinks.
    pub fn without_alerts(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "CATALOG_TABLE")?,
            reviews_table: env.get("REVIEWS_TABLE"),
            auth: AuthConfig::from_env(env)?,
            alerts: None,
        })
    }
}

/// Back-in-stock mail's outbox, links and words.
pub struct Alerts {
    pub outbox: shared::outbox::Outbox,
    pub links: alerts::AlertLinks,
    pub site_url: String,
    pub shop_name: String,
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<Auth>,
    pub alerts: Option<Arc<Alerts>>,
    /// The shopper-facing lists and search read this short-lived copy of the catalogue, not the table.
    pub(crate) catalogue: Arc<snapshot::Snapshots>,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        sqs: aws_sdk_sqs::Client,
    ) -> Self {
        let alerts = config.alerts.map(|settings| {
            Arc::new(Alerts {
                outbox: shared::outbox::Outbox::new(
                    dynamodb.clone(),
                    settings.mail_table,
                    shared::outbox::Queue::new(sqs, settings.mail_queue_url),
                ),
                links: alerts::AlertLinks::new(&settings.link_key),
                site_url: settings.site_url,
                shop_name: settings.shop_name,
            })
        });
        let store = Store::new(dynamodb.clone(), config.table);
        let ratings = config
            .reviews_table
            .map(|table| snapshot::RatingsSource::new(dynamodb.clone(), table));
        AppState {
            alerts,
            auth: config.auth.into_auth(dynamodb),
            catalogue: Arc::new(snapshot::Snapshots::new(store.clone(), ratings)),
            store,
        }
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use shared::openapi::Doc;
    use Access::{Admin, Public};
    ApiRoutes::new()
        .get("/api/product/", Public, products::list_products)
        .summary("Every drink, in the admin's order")
        .get("/api/product/{_id}", Public, products::get_product)
        .summary("One drink")
        .post("/api/product/create/", Admin, products::create_product)
        .summary("Add a drink")
        .describe(Doc::json_body::<products::NewProductInput>)
        .fails(&[409])
        .put("/api/product/update/{_id}", Admin, products::update_product)
        .summary("Change a drink: the fields sent replace the stored ones")
        .fails(&[409])
        .delete("/api/product/delete/{_id}", Admin, products::delete_product)
        .summary("Delete a drink: it goes to the bin for 30 days")
        .get("/api/product/prices/{_id}", Admin, products::show_price_history)
        .summary("A drink's recorded prices, and whether it may show a \"was\" price and why")
        .get("/api/product/bin/", Admin, products::list_binned_products)
        .summary("The drinks deleted in the last 30 days, newest first")
        .post("/api/product/restore/{_id}", Admin, products::restore_product)
        .summary("Bring a deleted drink back from the bin")
        .fails(&[409])
        .post("/api/product/notify/{id}", Public, alerts::sign_up)
        .summary("Asks the address to confirm an e-mail once this sold-out drink is back (double opt-in)")
        .fails(&[409, 429])
        .post("/api/product/notify/confirm/", Public, alerts::confirm_alert)
        .summary("The confirmation page's button: the address waits for the drink")
        .fails(&[409])
        .get("/api/product/notify/stop/", Public, alerts::stop)
        .summary("Stops the address's waiting back-in-stock alerts (the signed link in the alert e-mail)")
        .post("/api/product/notify/stop/", Public, alerts::stop_one_click)
        .summary("The same, posted by mail clients in one click (RFC 8058)")
        .get("/api/product/alerts/", Admin, alerts::waiting_counts)
        .summary("How many addresses wait for each drink")
        .get("/api/category/", Public, categories::list_categories)
        .summary("Every category")
        .post("/api/category/create/", Admin, categories::create_category)
        .summary("Add a category")
        .describe(Doc::json_body::<categories::NewCategoryInput>)
        .fails(&[409])
        .put(
            "/api/category/update/{_id}",
            Admin,
            categories::update_category,
        )
        .summary("Change a category")
        .fails(&[409])
        .delete(
            "/api/category/delete/{_id}",
            Admin,
            categories::delete_category,
        )
        .summary("Delete a category that no drink is in")
        .fails(&[409])
        .get("/api/home/home/uk/", Public, home::show_home)
        .summary("The home page: featured drinks (defaults first, at most 8) and the categories")
        .get("/api/home/drinks/hom/uk/uk/", Public, home::list_drinks)
        .summary("The shop's drinks with their ratings, 12 a page: sorted, and filtered by category, stock and price")
        .get(
            "/api/home/search/uk/palestinedrinks",
            Public,
            home::search_drinks,
        )
        .summary("Drinks whose name, pack, descriptions or category hold every word searched, 12 a page; a misspelt word is corrected (didYouMean)")
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::Sqs,
];

/// The function as its Lambda (`main.rs`) and the local gateway both build it: its configuration read
/// from `env`, its state from the clients it uses, and its router.
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, shared::config::ConfigError> {
    let config = Config::from_env(env)?;
    Ok(router(AppState::new(
        config,
        clients.dynamodb(),
        clients.sqs(),
    )))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
