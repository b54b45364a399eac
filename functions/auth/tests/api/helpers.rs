//! `spawn_app`: the auth router on its own users table, reading login codes from the emulator's SES.

use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::auth::AuthKeys;
pub use testkit::Reply;
use testkit::{mails_to, Client, Harness};

pub use testkit::new_email;

pub struct TestApp {
    pub client: Client,
    /// Addresses in `ADMIN_EMAILS` (the second written in upper case there).
    pub admin_email: String,
    pub other_admin: String,
    pub state: auth::AppState,
    pub keys: AuthKeys,
    pub table: String,
}

/// Signs in with a code, from a viewer address when one is given.
pub async fn verify_from(client: &Client, ip: Option<&str>, email: &str, code: &str) -> Reply {
    let body = Some(json!({ "email": email, "code": code }));
    match ip {
        Some(ip) => {
            client
                .call_from(ip, Method::POST, "/api/user/verify/", body)
                .await
        }
        None => {
            client
                .call(Method::POST, "/api/user/verify/", None, body)
                .await
        }
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}

/// `spawn_app` with more settings in the function's environment.
pub async fn spawn_app_with(settings: &[(&str, &str)]) -> TestApp {
    // Fresh admin addresses per test: the emulator's outbox is shared, and two tests logging in as the
    // same address could read each other's codes.
    let admin_email = new_email("boss");
    let other_admin = new_email("other.boss");
    let admins = format!("{admin_email}, {}", other_admin.to_uppercase());
    let harness = Harness::new(
        "AuthFunction",
        &[&[("ADMIN_EMAILS", admins.as_str())], settings].concat(),
        &[
            "UsersTable",
            // The tables a customer's data rights reach.
            "OrdersTable",
            "ReviewsTable",
            "SubscriptionTable",
            "CodesTable",
            "ContentTable",
            "MailTable",
            "CatalogTable",
        ],
    )
    .await;
    let config = auth::Config::from_env(&harness.lookup()).expect("auth config from the template");
    let table = config.auth.users_table.clone();
    let state = auth::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::ses(&harness.sdk),
    );
    TestApp {
        client: Client::new(auth::router(state.clone())),
        admin_email,
        other_admin,
        state,
        keys: harness.keys(),
        table,
    }
}

impl TestApp {
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.client.call(method, uri, token, body).await
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

    /// The live login codes' items of `email`.
    pub async fn code_items(&self, email: &str) -> Vec<shared::dynamo::Item> {
        self.state
            .auth
            .users
            .client()
            .query()
            .table_name(&self.table)
            .key_condition_expression("pk = :pk AND begins_with(sk, :code)")
            .expression_attribute_values(":pk", shared::dynamo::s(format!("LOGIN#{email}")))
            .expression_attribute_values(":code", shared::dynamo::s("CODE#"))
            .consistent_read(true)
            .send()
            .await
            .unwrap()
            .items
            .unwrap_or_default()
    }

    /// Asks for a code from viewer address `ip`.
    pub async fn ask_code_from(&self, ip: &str, email: &str) -> Reply {
        self.client
            .call_from(
                ip,
                Method::POST,
                "/api/user/login/",
                Some(json!({ "email": email })),
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

pub use testkit::mails_to as mails;

/// The code in the newest login mail: the only paragraph of six digits in its body (never the subject).
pub fn latest_code(email: &str) -> Option<String> {
    let (_, body) = mails_to(email).pop()?;
    body.split('>')
        .filter_map(|part| part.split('<').next())
        .map(str::trim)
        .find(|text| text.len() == 6 && text.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
}

/// Some other six digits.
pub fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}
