//! What the tests and the local gateway need and no Lambda does: the emulator bootstrap (`emulator`: moto,
//! localstripe, tables, buckets and queues from template.yaml), every function's test harness (the
//! function's environment on fresh tables, a JSON client for its router), and the tokens an attacker or a
//! careless client would send, for the guard tests. `shared` keeps only what runs in Lambda; this crate is
//! a dev-dependency of every function and a dependency of the local gateway alone.

pub mod emulator;
mod unsigned_token;

use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use std::sync::OnceLock;

pub use crate::unsigned_token::unsigned_token;

/// The token-signing key of this test process: every harness stores it as the auth function's secret and
/// gives its public key to every function, so any suite can issue tokens its router accepts.
pub fn signing_key() -> &'static str {
    static KEY: OnceLock<String> = OnceLock::new();
    KEY.get_or_init(shared::auth::generate_signing_key)
}

/// The public half of `signing_key()`.
pub fn public_key() -> String {
    shared::auth::public_key_of(signing_key()).expect("the test key is valid")
}

fn claims(email: &str, role: &str, exp_offset: i64) -> serde_json::Value {
    let now = shared::time::now_unix();
    serde_json::json!({"sub": email, "role": role, "iat": now - 60, "exp": now + exp_offset,
        "iss": "shop", "aud": "shop"})
}

fn ed_der(signing: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(signing)
        .expect("base64 key")
}

/// Signed with the right key, expired an hour ago.
pub fn expired_token(email: &str) -> String {
    encode(
        &Header::new(Algorithm::EdDSA),
        &claims(email, "admin", -3600),
        &EncodingKey::from_ed_der(&ed_der(signing_key())),
    )
    .expect("token encodes")
}

/// Well-formed but signed with another key.
pub fn forged_token(email: &str) -> String {
    encode(
        &Header::new(Algorithm::EdDSA),
        &claims(email, "admin", 3600),
        &EncodingKey::from_ed_der(&ed_der(&shared::auth::generate_signing_key())),
    )
    .expect("token encodes")
}

/// HS256 keyed with the (public) verification key: the classic algorithm-confusion forgery.
pub fn confused_token(email: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims(email, "admin", 3600),
        &EncodingKey::from_secret(public_key().as_bytes()),
    )
    .expect("token encodes")
}

/// `alg: none` for `email` as an admin.
pub fn unsigned_admin_token(email: &str) -> String {
    unsigned_token(&claims(email, "admin", 3600))
}

/// Every bad token with the status and message it must get.
pub fn bad_tokens(email: &str) -> Vec<(String, &'static str)> {
    vec![
        (expired_token(email), "expired"),
        (forged_token(email), "forged"),
        (confused_token(email), "HS256 with the public key"),
        (unsigned_admin_token(email), "alg none"),
        ("not.a.jwt".to_owned(), "garbage"),
    ]
}

/// Stores a user as the auth function would, so tests of other functions can sign people in.
pub async fn put_user(users: &shared::auth::Users, email: &str, role: shared::auth::Role) {
    let mut item = shared::auth::user_key(email);
    item.insert("email".to_owned(), shared::dynamo::s(email));
    item.insert("role".to_owned(), shared::dynamo::s(role.as_str()));
    item.insert("gsi1pk".to_owned(), shared::dynamo::s("USERS"));
    item.insert(
        "gsi1sk".to_owned(),
        shared::dynamo::s(format!("{}#{email}", shared::time::now_iso())),
    );
    item.insert(
        "createdAt".to_owned(),
        shared::dynamo::s(shared::time::now_iso()),
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

pub use harness::*;

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

    /// The shop's address in every suite (`SITE_URL`).
    pub const SITE_URL: &str = "https://shop.example.co.uk";

    pub struct Harness {
        pub sdk: aws_config::SdkConfig,
        /// The function's settings with its secrets read from the emulator's Secrets Manager.
        pub env: BTreeMap<String, String>,
        /// The template's queues, created for this test: logical id to URL.
        pub queues: BTreeMap<String, String>,
    }

    impl Harness {
        /// Creates `tables` (template logical ids) and the template's queues under fresh names (queued jobs
        /// that fail come back after a second), stores the function's secrets in the
        /// emulator (an override of the secret's plain name, the process's token-signing key, or a fresh
        /// key) and reads them back through `secrets::resolve` as the Lambda would, and lets SES send from
        /// example.com.
        pub async fn new(function: &str, overrides: &[(&str, &str)], tables: &[&str]) -> Self {
            shared::lambda::init_tracing();
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
            let secrets = shared::secrets::client(&sdk);
            let mut vars = BTreeMap::from([
                ("TOKEN_PUBLIC_KEY".to_owned(), super::public_key()),
                ("SITE_URL".to_owned(), SITE_URL.to_owned()),
            ]);
            for name in definition.env.keys() {
                let Some(target) = name.strip_suffix(shared::secrets::SECRET_ID_SUFFIX) else {
                    continue;
                };
                let id = format!("{}/{target}", names.table("secrets"));
                // An override of the plain name (`STRIPE_SECRET_KEY`) is the value the secret holds.
                let given = overrides
                    .iter()
                    .find(|(k, _)| *k == target)
                    .map(|(_, v)| v.to_string());
                crate::emulator::ensure_secret(&secrets, &id, || {
                    given.unwrap_or_else(|| local_secret(target))
                })
                .await
                .expect("secret stored");
                vars.insert(name.clone(), id);
            }
            vars.extend(queues.clone());
            vars.extend(
                overrides
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string())),
            );
            let env = shared::secrets::resolve(
                &secrets,
                names.function_env(&template, &definition, &vars),
            )
            .await
            .expect("the function's secrets resolve")
            .vars()
            .clone();
            let dynamodb = shared::aws::dynamodb(&sdk);
            for table in tables {
                create_table(&dynamodb, &template, table, &names.table(table))
                    .await
                    .expect("table created");
            }
            let _ = shared::aws::ses(&sdk)
                .create_email_identity()
                .email_identity("example.com")
                .send()
                .await;
            Harness { sdk, env, queues }
        }

        pub fn lookup(&self) -> impl shared::config::Lookup + '_ {
            |name: &str| self.env.get(name).cloned()
        }

        /// Keys that sign as the auth function does, whichever function this harness runs.
        pub fn keys(&self) -> shared::auth::AuthKeys {
            let mut env = self.env.clone();
            env.insert(
                "TOKEN_SIGNING_KEY".to_owned(),
                super::signing_key().to_owned(),
            );
            shared::auth::AuthKeys::from_env(&|name: &str| env.get(name).cloned())
                .expect("token settings")
        }

        /// Stores the suites' admin (`admin@example.com`) and shopper (`shopper@example.com`) in the users
        /// table and answers a 10-minute token for each.
        pub async fn sign_in(&self, users: &shared::auth::Users) -> SignedIn {
            use shared::auth::Role;
            super::put_user(users, "admin@example.com", Role::Admin).await;
            super::put_user(users, "shopper@example.com", Role::Customer).await;
            let keys = self.keys();
            SignedIn {
                admin: keys.issue("admin@example.com", Role::Admin, 3600).unwrap(),
                customer: keys
                    .issue("shopper@example.com", Role::Customer, 3600)
                    .unwrap(),
            }
        }
    }

    /// A value for secret `name` in the tests: the process's token-signing key, or a fresh random key.
    pub fn local_secret(name: &str) -> String {
        if name == "TOKEN_SIGNING_KEY" {
            super::signing_key().to_owned()
        } else {
            shared::secrets::random_key()
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
        pub headers: http::HeaderMap,
    }

    /// Sends requests through a router as API Gateway would, with JSON bodies and bearer tokens.
    #[derive(Clone)]
    pub struct Client {
        pub router: Router,
    }

    impl Client {
        pub fn new(router: Router) -> Self {
            Client {
                router: shared::routes::with_json_fallbacks(router),
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
            let headers = response.headers().clone();
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
            Reply {
                status,
                body,
                headers,
            }
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

        /// Sends as a viewer at `ip` through CloudFront: the router behind the origin check a Lambda puts
        /// it behind (shared::edge), with the origin secret and `CloudFront-Viewer-Address` CloudFront adds.
        pub async fn call_from(
            &self,
            ip: &str,
            method: Method,
            uri: &str,
            body: Option<Value>,
        ) -> Reply {
            const ORIGIN: &str = "the-test-origin-secret";
            let router = shared::edge::through_cloudfront(self.router.clone(), ORIGIN);
            let address = match ip.parse::<std::net::IpAddr>() {
                Ok(std::net::IpAddr::V6(_)) => format!("[{ip}]:443"),
                _ => format!("{ip}:443"),
            };
            let request = Request::builder()
                .method(method)
                .uri(uri)
                .header(shared::edge::ORIGIN_VERIFY_HEADER, ORIGIN)
                .header(shared::edge::VIEWER_ADDRESS_HEADER, address)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
                .expect("request builds");
            Client { router }.send(request).await
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

    /// The mails the emulator's SES sent to `email`, oldest first, as (subject, body): the HTML body when
    /// the mail had one, else its text. Read from the wrapper's mail list, not moto's whole state dump.
    pub fn mails_to(email: &str) -> Vec<(String, String)> {
        sent_to(email)
            .into_iter()
            .map(|m| (m.subject, m.html.or(m.text).unwrap_or_default()))
            .collect()
    }

    /// The mails the emulator's SES sent to `email`, oldest first, with every header they were sent with
    /// (queued mail goes out raw, with its List-Unsubscribe headers).
    pub fn raw_mails_to(email: &str) -> Vec<shared::mime::Parsed> {
        sent_to(email)
            .into_iter()
            .map(|m| {
                let mut headers: Vec<(String, String)> = m.headers.into_iter().collect();
                if !headers
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case("subject"))
                {
                    headers.push(("Subject".to_owned(), m.subject));
                }
                shared::mime::Parsed {
                    headers,
                    text: m.text.unwrap_or_default(),
                    html: m.html.unwrap_or_default(),
                }
            })
            .collect()
    }

    /// What the emulator's SES sent to `email`, oldest first, from the wrapper's mail list (not moto's whole
    /// state dump).
    fn sent_to(email: &str) -> Vec<crate::emulator::SentMail> {
        let query = crate::emulator::MailQuery {
            limit: 1000,
            before: None,
            to: Some(email.to_owned()),
        };
        let mut mails = Emulator::for_tests()
            .mails(&query)
            .expect("the emulator lists its mail")
            .mails;
        mails.reverse();
        mails
    }

    /// The outbox's mails not yet sent (written with what they describe; the sender function sends them).
    pub async fn outbox_pending(
        outbox: &shared::outbox::Outbox,
    ) -> Vec<shared::outbox::OutboxItem> {
        let page = outbox
            .client()
            .query()
            .table_name(outbox.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :pending")
            .expression_attribute_values(
                ":pending",
                aws_sdk_dynamodb::types::AttributeValue::S(shared::outbox::PENDING.to_owned()),
            )
            .send()
            .await
            .expect("outbox query");
        page.items()
            .iter()
            .map(|item| shared::outbox::OutboxItem::from_item(item).expect("an outbox item"))
            .collect()
    }

    /// A refusal for too many tries: 429, the limit's message, and a `Retry-After` of up to an hour.
    pub fn assert_too_many(reply: &Reply, refusal: &str) {
        assert_eq!(
            reply.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            reply.body
        );
        assert!(
            reply.body["message"]
                .as_str()
                .unwrap_or_default()
                .starts_with(refusal),
            "{}",
            reply.body
        );
        let wait: i64 = reply.headers["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=3600).contains(&wait), "{wait}");
    }

    /// A fresh address for one test.
    pub fn new_email(label: &str) -> String {
        format!(
            "{label}.{}@example.com",
            &uuid::Uuid::new_v4().simple().to_string()[..10]
        )
    }
}
