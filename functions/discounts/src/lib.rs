//! Discount codes: admins keep them (rate, limits, the promotion shown with them); shoppers check one
//! before paying; the orders function spends a use inside its order transaction, through `store`.

mod code;
pub mod mailbox;
pub mod personal;
pub mod store;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{required, ConfigError, Lookup};
use shared::rate::{AddressLimit, RateStore};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use code::{card_mark, normalise_code, use_mark, use_marker, DiscountCode};

pub struct Config {
    pub table: String,
    pub auth: AuthConfig,
}

impl Config {
    /// `CODES_TABLE` and the auth settings.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "CODES_TABLE")?,
            auth: AuthConfig::from_env(env)?,
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<Auth>,
    /// The per-address lookup windows, kept in the codes table.
    pub rates: RateStore,
}

impl AppState {
    pub fn new(config: Config, dynamodb: aws_sdk_dynamodb::Client) -> Self {
        AppState {
            rates: RateStore {
                client: dynamodb.clone(),
                table: config.table.as_str().into(),
            },
            store: Store::new(dynamodb.clone(), config.table),
            auth: config.auth.into_auth(dynamodb),
        }
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

/// Code lookups per viewer address: enough to try a few codes, far too few to guess them.
pub const LOOKUP_LIMIT: AddressLimit = AddressLimit {
    scope: "CODE-LOOKUP",
    limit: 30,
    seconds: 60 * 60,
    refusal: "Many codes were tried from your network in the last hour",
};

fn api() -> ApiRoutes<AppState> {
    use Access::Admin;
    ApiRoutes::new()
        .get("/api/code/", Admin, code::list_codes)
        .summary("Every discount code, newest first")
        .post("/api/code/create/", Admin, code::create_code)
        .summary("Create a discount code")
        .fails(&[409])
        .put("/api/code/update/{_id}", Admin, code::update_code)
        .summary("Change a discount code (its text stays)")
        .fails(&[409])
        .delete("/api/code/delete/{id}", Admin, code::delete_code)
        .summary("Delete a discount code: it goes to the bin for 30 days")
        .get("/api/code/bin/", Admin, code::list_binned_codes)
        .summary("The discount codes deleted in the last 30 days, newest first")
        .post("/api/code/restore/{id}", Admin, code::restore_code)
        .summary("Bring a deleted discount code back")
        .fails(&[409])
        .post("/api/code/customer/", Access::Public, code::check_code)
        .summary("Check a code before paying")
        .limit_per_address(LOOKUP_LIMIT)
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[shared::clients::Service::DynamoDb];

/// The function as its Lambda (`main.rs`) and the local gateway both build it: its configuration read
/// from `env`, its state from the clients it uses, and its router.
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, shared::config::ConfigError> {
    let config = Config::from_env(env)?;
    Ok(router(AppState::new(config, clients.dynamodb())))
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
    use serde_json::json;

    #[test]
    fn the_document_states_the_codes_rules() {
        let document = shared::openapi::function_document("discounts", crate::routes());
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["NewCodeInput"]["required"],
            json!(["code", "discount"])
        );
        assert!(schemas["CodeInput"].get("required").is_none());
        let check = &document["paths"]["/api/code/customer/"]["post"];
        assert!(check["responses"]["429"]["headers"]["Retry-After"].is_object());
        assert!(check.get("security").is_none());
        let create = &document["paths"]["/api/code/create/"]["post"];
        assert!(create["responses"]["201"].is_object());
        assert!(create["responses"]["409"].is_object());
    }
}
