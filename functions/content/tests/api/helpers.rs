//! `spawn_app`: the content router on its own tables, with an admin and a customer signed in.

use http::Method;
use serde_json::Value;
use testkit::{Client, Harness, Reply};
/// The shop's address in the tests' site info: feedback goes here.
pub fn shop_address() -> String {
    testkit::new_email("shop")
}

pub struct TestApp {
    pub client: Client,
    /// The router's state, for what a test reaches beside the routes (the terms' version at checkout).
    pub state: content::AppState,
    pub admin: String,
    pub customer: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "ContentFunction",
        &[],
        &["ContentTable", "CatalogTable", "UsersTable"],
    )
    .await;
    let config =
        content::Config::from_env(&harness.lookup()).expect("content config from the template");
    let state = content::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::ses(&harness.sdk),
    );
    let signed_in = harness.sign_in(&state.auth.users).await;
    TestApp {
        client: Client::new(content::router(state.clone())),
        state,
        admin: signed_in.admin,
        customer: signed_in.customer,
    }
}

impl TestApp {
    pub async fn get(&self, uri: &str) -> Reply {
        self.client.get(uri).await
    }

    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }
}
