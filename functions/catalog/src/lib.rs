//! The catalog: products, categories, the home page's drink lists and search. The router is the same in
//! Lambda, in the local gateway and in the tests.

mod categories;
mod category;
pub mod food;
mod home;
mod products;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{required, ConfigError, Lookup};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use std::sync::Arc;

pub use category::Category;
pub use products::{return_stock, take_stock, Product};
pub use shared::store::{Entity, Store};

/// The function's settings.
pub struct Config {
    pub table: String,
    pub auth: AuthConfig,
}

impl Config {
    /// `CATALOG_TABLE` and the auth settings (see `AuthConfig::from_env`).
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "CATALOG_TABLE")?,
            auth: AuthConfig::from_env(env)?,
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<Auth>,
}

impl AppState {
    pub fn new(config: Config, dynamodb: aws_sdk_dynamodb::Client) -> Self {
        AppState {
            auth: config.auth.into_auth(dynamodb.clone()),
            store: Store::new(dynamodb, config.table),
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
        .summary("Delete a drink")
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
        .summary("The shop's drinks, 12 a page, optionally of one category")
        .get(
            "/api/home/search/uk/palestinedrinks",
            Public,
            home::search_drinks,
        )
        .summary("Drinks whose name, pack or descriptions hold every word searched, 12 a page")
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
