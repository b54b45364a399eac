//! `spawn_app`: the auth router on its own users table, reading login codes from the emulator's SES.

use axum::body::Body;
use axum::Router;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use shared::auth::AuthKeys;
use shared::emulator::{create_table, Emulator, LocalNames, Template};
use std::collections::BTreeMap;
use tower::ServiceExt;

pub const TEST_SECRET: &str = "auth-tests-secret-at-least-32-characters";
pub const ADMIN: &str = "boss@example.com";

pub struct TestApp {
    pub router: Router,
    pub state: auth::AppState,
    pub keys: AuthKeys,
    pub table: String,
}

pub async fn spawn_app() -> TestApp {
    shared::lambda::init_tracing();
    let emulator = Emulator::for_tests();
    let sdk = emulator.sdk_config().await;
    let template = Template::load_default().expect("template.yaml parses");
    let names = LocalNames::unique();
    let function = template
        .function("AuthFunction")
        .expect("template declares AuthFunction");
    let overrides = BTreeMap::from([
        ("JWT_SECRET".to_owned(), TEST_SECRET.to_owned()),
        (
            "ADMIN_EMAILS".to_owned(),
            format!("{ADMIN}, Other.Boss@Example.com"),
        ),
    ]);
    let env = names.function_env(&template, &function, &overrides);
    let lookup = |name: &str| env.get(name).cloned();
    let config = auth::Config::from_env(&lookup).expect("auth config from the template");
    let table = config.auth.users_table.clone();
    let dynamodb = shared::aws::dynamodb(&sdk);
    create_table(&dynamodb, &template, "UsersTable", &table)
        .await
        .expect("users table");
    let ses = shared::aws::ses(&sdk);
    let _ = ses
        .create_email_identity()
        .email_identity("example.com")
        .send()
        .await;
    let keys = AuthKeys::from_env(&lookup).unwrap();
    let state = auth::AppState::new(config, dynamodb, ses);
    TestApp {
        router: shared::routes::with_json_fallbacks(auth::router(state.clone())),
        state,
        keys,
        table,
    }
}

pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
}

/// A fresh address for one test.
pub fn new_email(label: &str) -> String {
    format!(
        "{label}.{}@example.com",
        &uuid::Uuid::new_v4().simple().to_string()[..10]
    )
}

impl TestApp {
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
        let response = self.router.clone().oneshot(request.unwrap()).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap()
        };
        Reply { status, body }
    }

    pub async fn ask_code(&self, email: &str) -> Reply {
        self.call(
            Method::POST,
            "/api/user/login/",
            None,
            Some(json!({ "email": email })),
        )
        .await
    }

    pub async fn verify(&self, email: &str, code: &str) -> Reply {
        self.call(
            Method::POST,
            "/api/user/verify/",
            None,
            Some(json!({ "email": email, "code": code })),
        )
        .await
    }

    /// Asks for a code, reads it from the outbox, and logs in: the token.
    pub async fn log_in(&self, email: &str) -> String {
        assert_eq!(self.ask_code(email).await.status, StatusCode::OK);
        let code = latest_code(email).expect("a code was e-mailed");
        let reply = self.verify(email, &code).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body["token"].as_str().unwrap().to_owned()
    }
}

/// The mails the emulator's SES sent to `email`, oldest first, as (subject, body).
pub fn mails_to(email: &str) -> Vec<(String, String)> {
    let data: Value =
        serde_json::from_str(&Emulator::for_tests().get("/moto-api/data.json").unwrap()).unwrap();
    data["ses"]["Message"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| {
            m["destinations"]["ToAddresses"]
                .as_array()
                .is_some_and(|to| to.iter().any(|t| t == email))
        })
        .map(|m| {
            (
                m["subject"].as_str().unwrap_or_default().to_owned(),
                m["body"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The six digits at the end of the newest login mail's subject.
pub fn latest_code(email: &str) -> Option<String> {
    let (subject, _) = mails_to(email).pop()?;
    let code: String = subject
        .chars()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    code.chars().all(|c| c.is_ascii_digit()).then_some(code)
}

/// Some other six digits.
pub fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}
