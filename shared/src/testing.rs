//! Tokens an attacker or a careless client would send, for the guard tests of every function. Compiled
//! only with the `emulator` feature (tests and the local gateway), never into a Lambda.

use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};

fn claims(email: &str, role: &str, exp_offset: i64) -> serde_json::Value {
    let now = crate::time::now_unix();
    serde_json::json!({"sub": email, "role": role, "iat": now - 60, "exp": now + exp_offset,
        "iss": "shop", "aud": "shop"})
}

/// Signed with the right secret, expired an hour ago.
pub fn expired_token(secret: &[u8], email: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims(email, "admin", -3600),
        &EncodingKey::from_secret(secret),
    )
    .expect("token encodes")
}

/// Well-formed but signed with another secret.
pub fn forged_token(email: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims(email, "admin", 3600),
        &EncodingKey::from_secret(b"an-attacker-secret-an-attacker-secret"),
    )
    .expect("token encodes")
}

/// `alg: none`, no signature.
pub fn unsigned_token(claims: &serde_json::Value) -> String {
    fn b64(input: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in input.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..=chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    }
    format!(
        "{}.{}.",
        b64(br#"{"alg":"none","typ":"JWT"}"#),
        b64(claims.to_string().as_bytes())
    )
}

/// `alg: none` for `email` as an admin.
pub fn unsigned_admin_token(email: &str) -> String {
    unsigned_token(&claims(email, "admin", 3600))
}

/// Every bad token with the status and message it must get.
pub fn bad_tokens(secret: &[u8], email: &str) -> Vec<(String, &'static str)> {
    vec![
        (expired_token(secret, email), "expired"),
        (forged_token(email), "forged"),
        (unsigned_admin_token(email), "alg none"),
        ("not.a.jwt".to_owned(), "garbage"),
    ]
}

/// Stores a user as the auth function would, so tests of other functions can sign people in.
pub async fn put_user(users: &crate::auth::Users, email: &str, role: crate::auth::Role) {
    let mut item = crate::auth::user_key(email);
    item.insert("email".to_owned(), crate::dynamo::s(email));
    item.insert("role".to_owned(), crate::dynamo::s(role.as_str()));
    item.insert("gsi1pk".to_owned(), crate::dynamo::s("USERS"));
    item.insert(
        "gsi1sk".to_owned(),
        crate::dynamo::s(format!("{}#{email}", crate::time::now_iso())),
    );
    item.insert(
        "createdAt".to_owned(),
        crate::dynamo::s(crate::time::now_iso()),
    );
    users
        .client()
        .put_item()
        .table_name(users.table())
        .set_item(Some(item))
        .send()
        .await
        .expect("user stored");
}

#[cfg(feature = "emulator")]
pub use harness::*;

#[cfg(feature = "emulator")]
mod harness {
    //! What every function's integration tests start from: the emulator, the function's environment as
    //! template.yaml declares it (on fresh table names), its tables, and a JSON client for its router.

    use crate::emulator::{create_queues, create_table, Emulator, LocalNames, Template};
    use axum::body::Body;
    use axum::Router;
    use http::{header, Method, Request, StatusCode};
    use http_body_util::BodyExt;
    use serde_json::Value;
    use std::collections::BTreeMap;
    use tower::ServiceExt;

    pub struct Harness {
        pub sdk: aws_config::SdkConfig,
        pub env: BTreeMap<String, String>,
        /// The template's queues, created for this test: logical id to URL.
        pub queues: BTreeMap<String, String>,
    }

    impl Harness {
        /// Creates `tables` (template logical ids) and the template's queues under fresh names and lets SES
        /// send from example.com. Queued jobs that fail come back after a second.
        pub async fn new(
            function: &str,
            secret: &str,
            overrides: &[(&str, &str)],
            tables: &[&str],
        ) -> Self {
            crate::lambda::init_tracing();
            let emulator = Emulator::for_tests();
            let sdk = emulator.sdk_config().await;
            let template = Template::load_default().expect("template.yaml parses");
            let names = LocalNames::unique();
            let definition = template
                .function(function)
                .unwrap_or_else(|| panic!("template.yaml declares {function}"));
            let queues = create_queues(&sdk, &template, &names, Some(1))
                .await
                .expect("queues created");
            let mut vars = BTreeMap::from([("JWT_SECRET".to_owned(), secret.to_owned())]);
            vars.extend(queues.clone());
            vars.extend(
                overrides
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string())),
            );
            let env = names.function_env(&template, &definition, &vars);
            let dynamodb = crate::aws::dynamodb(&sdk);
            for table in tables {
                create_table(&dynamodb, &template, table, &names.table(table))
                    .await
                    .expect("table created");
            }
            let _ = crate::aws::ses(&sdk)
                .create_email_identity()
                .email_identity("example.com")
                .send()
                .await;
            Harness { sdk, env, queues }
        }

        pub fn lookup(&self) -> impl crate::config::Lookup + '_ {
            |name: &str| self.env.get(name).cloned()
        }

        pub fn keys(&self) -> crate::auth::AuthKeys {
            crate::auth::AuthKeys::from_env(&self.lookup()).expect("JWT settings")
        }

        /// Stores the suites' admin (`admin@example.com`) and shopper (`shopper@example.com`) in the users
        /// table and answers a 10-minute token for each.
        pub async fn sign_in(&self, users: &crate::auth::Users) -> SignedIn {
            use crate::auth::Role;
            super::put_user(users, "admin@example.com", Role::Admin).await;
            super::put_user(users, "shopper@example.com", Role::Customer).await;
            let keys = self.keys();
            SignedIn {
                admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
                customer: keys
                    .issue("shopper@example.com", Role::Customer, 600)
                    .unwrap(),
            }
        }
    }

    /// Tokens for the suites' admin and shopper.
    pub struct SignedIn {
        pub admin: String,
        pub customer: String,
    }

    /// A status and a JSON body (`null` when empty).
    #[derive(Debug)]
    pub struct Reply {
        pub status: StatusCode,
        pub body: Value,
    }

    /// Sends requests through a router as API Gateway would, with JSON bodies and bearer tokens.
    #[derive(Clone)]
    pub struct Client {
        pub router: Router,
    }

    impl Client {
        pub fn new(router: Router) -> Self {
            Client {
                router: crate::routes::with_json_fallbacks(router),
            }
        }

        /// JSON bodies are parsed (and must parse); any other body comes back as a JSON string.
        pub async fn send(&self, request: Request<Body>) -> Reply {
            let response = self
                .router
                .clone()
                .oneshot(request)
                .await
                .expect("router answers");
            let status = response.status();
            let is_json = response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/json"));
            let bytes = response
                .into_body()
                .collect()
                .await
                .expect("body")
                .to_bytes();
            let body = if bytes.is_empty() {
                Value::Null
            } else if is_json {
                serde_json::from_slice(&bytes)
                    .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)))
            } else {
                Value::String(String::from_utf8_lossy(&bytes).into_owned())
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
            self.send(request.expect("request builds")).await
        }

        pub async fn get(&self, uri: &str) -> Reply {
            self.call(Method::GET, uri, None, None).await
        }

        /// Feeds an API Gateway event file (after `replace`ments of its placeholders) through the router.
        pub async fn send_event(&self, event_json: &str) -> Reply {
            let request = lambda_http::request::from_str(event_json).expect("the event parses");
            self.send(request.map(|body| Body::from(body.to_vec())))
                .await
        }
    }

    /// The mails the emulator's SES sent to `email`, oldest first, as (subject, body): simple sends, then
    /// raw ones (queued mail), whose body is the HTML part.
    pub fn mails_to(email: &str) -> Vec<(String, String)> {
        raw_mails_to(email)
            .into_iter()
            .fold(simple_mails_to(email), |mut all, raw| {
                all.push((
                    raw.header("Subject").unwrap_or_default().to_owned(),
                    raw.html,
                ));
                all
            })
    }

    fn moto_data() -> Value {
        serde_json::from_str(
            &Emulator::for_tests()
                .get("/moto-api/data.json")
                .expect("moto data"),
        )
        .expect("moto data is JSON")
    }

    /// The raw (MIME) mails the emulator's SES sent to `email`, parsed, oldest first.
    pub fn raw_mails_to(email: &str) -> Vec<crate::mime::Parsed> {
        let data = moto_data();
        data["ses"]["RawMessage"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| {
                m["destinations"]
                    .as_array()
                    .is_some_and(|to| to.iter().any(|t| t == email))
            })
            .map(|m| crate::mime::parse(m["raw_data"].as_str().unwrap_or_default()))
            .collect()
    }

    fn simple_mails_to(email: &str) -> Vec<(String, String)> {
        let data = moto_data();
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

    /// A fresh address for one test.
    pub fn new_email(label: &str) -> String {
        format!(
            "{label}.{}@example.com",
            &uuid::Uuid::new_v4().simple().to_string()[..10]
        )
    }
}
