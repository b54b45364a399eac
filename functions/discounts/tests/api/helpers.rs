//! `spawn_app`: the discounts router on its own tables, with an admin signed in.

use http::Method;
use serde_json::Value;
use shared::auth::Role;
use testkit::{put_user, Client, Harness, Reply};

pub struct TestApp {
    pub client: Client,
    pub admin: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new("DiscountsFunction", &[], &["CodesTable", "UsersTable"]).await;
    let config =
        discounts::Config::from_env(&harness.lookup()).expect("discounts config from the template");
    let keys = harness.keys();
    let state = discounts::AppState::new(config, shared::aws::dynamodb(&harness.sdk));
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    TestApp {
        client: Client::new(discounts::router(state)),
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
    }
}

impl TestApp {
    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }

    pub async fn check(&self, code: &str) -> Value {
        self.client
            .call(
                Method::POST,
                "/api/code/customer/",
                None,
                Some(serde_json::json!({ "code": code })),
            )
            .await
            .body
    }
}
