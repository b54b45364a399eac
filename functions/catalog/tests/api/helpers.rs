//! `spawn_app`: the catalog router on its own table in the emulator, with admin and customer tokens.

use axum::body::Body;
use axum::Router;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use shared::auth::{AuthKeys, Role};
use shared::emulator::{create_table, Emulator, LocalNames, Template};
use shared::testing::put_user;
use std::collections::BTreeMap;
use tower::ServiceExt;

pub const TEST_SECRET: &str = "catalog-tests-secret-at-least-32-chars";

pub struct TestApp {
    pub router: Router,
    pub state: catalog::AppState,
    pub keys: AuthKeys,
    pub admin: String,
    pub customer: String,
}

pub async fn spawn_app() -> TestApp {
    shared::lambda::init_tracing();
    let emulator = Emulator::for_tests();
    let sdk = emulator.sdk_config().await;
    let template = Template::load_default().expect("template.yaml parses");
    let names = LocalNames::unique();
    let function = template
        .function("CatalogFunction")
        .expect("template declares CatalogFunction");
    let overrides = BTreeMap::from([("JWT_SECRET".to_owned(), TEST_SECRET.to_owned())]);
    let env = names.function_env(&template, &function, &overrides);
    let lookup = |name: &str| env.get(name).cloned();
    let config = catalog::Config::from_env(&lookup).expect("catalog config from the template");
    let dynamodb = shared::aws::dynamodb(&sdk);
    create_table(&dynamodb, &template, "CatalogTable", &config.table)
        .await
        .expect("catalog table created");
    create_table(&dynamodb, &template, "UsersTable", &config.auth.users_table)
        .await
        .expect("users table created");
    let keys = AuthKeys::from_env(&lookup).unwrap();
    let state = catalog::AppState::new(config, dynamodb);
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, "shopper@example.com", Role::Customer).await;
    TestApp {
        router: shared::routes::with_json_fallbacks(catalog::router(state.clone())),
        state,
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
        customer: keys
            .issue("shopper@example.com", Role::Customer, 600)
            .unwrap(),
        keys,
    }
}

pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
}

impl TestApp {
    pub async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)))
        };
        Reply { status, body }
    }

    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = match body {
            Some(body) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        };
        self.send(request.unwrap()).await
    }

    pub async fn get(&self, uri: &str) -> Reply {
        self.call(Method::GET, uri, None, None).await
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
