//! `spawn_app`: the catalog router on its own tables in the emulator, with admin and customer tokens.

use axum::body::Body;
use http::{Method, Request, StatusCode};
use serde_json::Value;
use shared::auth::{AuthKeys, Role};
use testkit::{put_user, Client, Harness};

pub use testkit::Reply;

pub struct TestApp {
    pub client: Client,
    pub state: catalog::AppState,
    pub keys: AuthKeys,
    pub admin: String,
    pub customer: String,
    /// The reviews function's table, where the drinks' rating counters live.
    pub reviews_table: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "CatalogFunction",
        &[],
        &["CatalogTable", "UsersTable", "MailTable", "ReviewsTable"],
    )
    .await;
    let config =
        catalog::Config::from_env(&harness.lookup()).expect("catalog config from the template");
    let keys = harness.keys();
    let reviews_table = config.reviews_table.clone().expect("REVIEWS_TABLE");
    let state = catalog::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::sqs(&harness.sdk),
    );
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, "shopper@example.com", Role::Customer).await;
    TestApp {
        client: Client::new(catalog::router(state.clone())),
        state,
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
        customer: keys
            .issue("shopper@example.com", Role::Customer, 600)
            .unwrap(),
        keys,
        reviews_table,
    }
}

impl TestApp {
    pub async fn send(&self, request: Request<Body>) -> Reply {
        self.client.send(request).await
    }

    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.client.call(method, uri, token, body).await
    }

    pub async fn get(&self, uri: &str) -> Reply {
        self.client.get(uri).await
    }

    /// Creates a drink as the admin and answers its JSON.
    pub async fn create_drink(&self, body: Value) -> Value {
        let reply = self
            .call(
                Method::POST,
                "/api/product/create/",
                Some(&self.admin),
                Some(body),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    /// Counts reviews of `stars` for a drink as the reviews function does: on its summary item.
    pub async fn rate(&self, id: &str, stars: &[u64]) {
        use shared::dynamo::n;
        self.state
            .store
            .client()
            .update_item()
            .table_name(&self.reviews_table)
            .set_key(Some(shared::ratings::summary_key(Some(id))))
            .update_expression("ADD #total :count, #sum :sum")
            .expression_attribute_names("#total", shared::ratings::TOTAL)
            .expression_attribute_names("#sum", shared::ratings::STAR_SUM)
            .expression_attribute_values(":count", n(stars.len()))
            .expression_attribute_values(":sum", n(stars.iter().sum::<u64>()))
            .send()
            .await
            .expect("rating counted");
    }

    /// The names of the drinks a list or search answered, in order.
    pub fn names(list: &Value) -> Vec<String> {
        list["product"]
            .as_array()
            .expect("a list of drinks")
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    }

    pub async fn product_count(&self) -> usize {
        self.get("/api/product/")
            .await
            .body
            .as_array()
            .unwrap()
            .len()
    }
}

pub fn drink(name: &str, price: f64) -> Value {
    serde_json::json!({"name": name, "price": price, "qty": "24 x 330ml", "des": "Made in small batches",
        "TheNumber": 50})
}
