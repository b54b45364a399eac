//! `spawn_app`: the content router on its own tables, with an admin and a customer signed in.

use http::Method;
use serde_json::Value;
use shared::auth::Role;
use shared::testing::{put_user, Client, Harness, Reply};

pub const TEST_SECRET: &str = "content-tests-secret-at-least-32-chars";
/// The shop's address in the tests' site info: feedback goes here.
pub fn shop_address() -> String {
    shared::testing::new_email("shop")
}

pub struct TestApp {
    pub client: Client,
    pub admin: String,
    pub customer: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "ContentFunction",
        TEST_SECRET,
        &[],
        &["ContentTable", "CatalogTable", "UsersTable"],
    )
    .await;
    let config =
        content::Config::from_env(&harness.lookup()).expect("content config from the template");
    let keys = harness.keys();
    let state = content::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::ses(&harness.sdk),
    );
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, "shopper@example.com", Role::Customer).await;
    TestApp {
        client: Client::new(content::router(state)),
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
        customer: keys
            .issue("shopper@example.com", Role::Customer, 600)
            .unwrap(),
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
