//! `spawn_app`: the orders router with the catalog and codes on fresh tables, an admin and two customers.

use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::auth::{AuthConfig, Role};
use shared::emulator::{LocalStripe, LOCAL_STRIPE_SECRET_KEY};
use shared::testing::{put_user, Client, Harness, Reply};

pub const WEBHOOK_SECRET: &str = "whsec_orders_tests";

/// Stripe's test cards.
pub const PAYS: &str = "4242424242424242";
pub const DECLINES: &str = "4000000000000341";
pub const NEEDS_3DS: &str = "4000002760003184";

/// The fake Stripe every test of this binary shares.
pub fn stripe() -> &'static LocalStripe {
    LocalStripe::for_tests()
}

/// A PaymentMethod for a test card, as Stripe.js makes it in the browser.
pub fn card(number: &str) -> String {
    stripe()
        .card(number)
        .expect("localstripe makes the PaymentMethod")
}

pub struct TestApp {
    pub state: orders::AppState,
    pub orders: Client,
    pub catalog: Client,
    pub codes: Client,
    pub admin: String,
    pub alice: String,
    pub bob: String,
    pub alice_email: String,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with_stripe(&stripe().api_base).await
}

/// `spawn_app` with Stripe's API at `api_base` (a stand-in that fails, say).
pub async fn spawn_app_with_stripe(api_base: &str) -> TestApp {
    let harness = Harness::new(
        "OrdersFunction",
        &[
            ("DELIVERY_FEE", "4.99"),
            ("FREE_DELIVERY_FROM", "40.00"),
            ("STRIPE_API_BASE", api_base),
            ("STRIPE_SECRET_KEY", LOCAL_STRIPE_SECRET_KEY),
            ("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET),
            ("STRIPE_PUBLISHABLE_KEY", "pk_test_orders"),
            ("STRIPE_JS_URL", "/_local/stripe.js"),
        ],
        &[
            "OrdersTable",
            "CatalogTable",
            "CodesTable",
            "UsersTable",
            "MailTable",
            "ContentTable",
        ],
    )
    .await;
    let lookup = harness.lookup();
    let config = orders::Config::from_env(&lookup).expect("orders config from the template");
    let db = shared::aws::dynamodb(&harness.sdk);
    let catalog = catalog::AppState::new(
        catalog::Config {
            table: config.catalog_table.clone(),
            reviews_table: None,
            auth: AuthConfig::from_env(&lookup).unwrap(),
            alerts: Some(catalog::AlertSettings::from_env(&lookup).unwrap()),
        },
        db.clone(),
        shared::aws::sqs(&harness.sdk),
    );
    let codes = codes::AppState::new(
        codes::Config {
            table: config.codes_table.clone(),
            auth: AuthConfig::from_env(&lookup).unwrap(),
        },
        db.clone(),
    );
    let state = orders::AppState::new(config, db, shared::aws::sqs(&harness.sdk));
    let keys = harness.keys();
    let alice_email = shared::testing::new_email("alice");
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, &alice_email, Role::Customer).await;
    put_user(&state.auth.users, "bob@example.com", Role::Customer).await;
    TestApp {
        orders: Client::new(orders::router(state.clone())),
        state,
        catalog: Client::new(catalog::router(catalog)),
        codes: Client::new(codes::router(codes)),
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
        alice: keys.issue(&alice_email, Role::Customer, 600).unwrap(),
        bob: keys.issue("bob@example.com", Role::Customer, 600).unwrap(),
        alice_email,
    }
}

impl TestApp {
    /// A drink in the catalogue: its id.
    pub async fn drink(&self, name: &str, price: f64, stock: u32, discount: u32) -> String {
        let reply = self
            .catalog
            .call(Method::POST, "/api/product/create/", Some(&self.admin), Some(json!({
                "name": name, "price": price, "qty": "12 x 330ml", "TheNumber": stock, "discount": discount,
                "image": ["can.png"]})))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body["_id"].as_str().unwrap().to_owned()
    }

    pub async fn stock(&self, id: &str) -> u64 {
        self.catalog.get(&format!("/api/product/{id}")).await.body["TheNumber"]
            .as_u64()
            .unwrap()
    }

    pub async fn code(&self, body: Value) {
        let reply = self
            .codes
            .call(
                Method::POST,
                "/api/code/create/",
                Some(&self.admin),
                Some(body),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }

    pub async fn code_uses(&self, code: &str) -> u64 {
        let list = self
            .codes
            .call(Method::GET, "/api/code/", Some(&self.admin), None)
            .await
            .body;
        list.as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == code)
            .unwrap()["emailCount"]
            .as_u64()
            .unwrap()
    }

    pub async fn place(&self, body: Value) -> Reply {
        self.orders
            .call(Method::POST, "/api/order/create/", None, Some(body))
            .await
    }

    /// Alice buys `qty` of `drink` with the 4242 card: the paid order's id.
    pub async fn paid_order(&self, drink: &str, qty: u32) -> String {
        let placed = self
            .place(checkout(
                &self.alice_email,
                json!([{"product": drink, "qty": qty}]),
            ))
            .await;
        assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
        placed.body.as_str().unwrap().to_owned()
    }

    /// Places an order with an Idempotency-Key header.
    pub async fn place_with_key(&self, body: &Value, key: &str) -> Reply {
        let request = http::Request::builder()
            .method(Method::POST)
            .uri("/api/order/create/")
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(axum::body::Body::from(body.to_string()))
            .unwrap();
        self.orders.send(request).await
    }

    pub async fn order(&self, id: &str) -> Value {
        let reply = self
            .orders
            .get(&format!("/api/order/Orderdetails/{id}"))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body
    }

    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.orders.call(method, uri, Some(&self.admin), body).await
    }
}

/// A checkout as the storefront sends it, paid with Stripe's 4242 test card.
pub fn checkout(email: &str, lines: Value) -> Value {
    checkout_with_card(email, lines, PAYS)
}

pub fn checkout_with_card(email: &str, lines: Value, number: &str) -> Value {
    json!({
        "fullname": "Amira Haddad", "address": "1 High St, Leeds LS1 1AA", "phone": "07700 900123",
        "email": email, "message": "", "product": lines,
        "payment": {"provider": "stripe", "paymentMethod": card(number)}
    })
}

impl TestApp {
    /// A Stripe event for this order's PaymentIntent, signed as Stripe signs them, sent to the webhook.
    pub async fn stripe_event(&self, body: &Value, signature: Option<String>) -> Reply {
        let raw = body.to_string();
        let signature = signature.unwrap_or_else(|| {
            orders::webhook::sign(raw.as_bytes(), WEBHOOK_SECRET, shared::time::now_unix())
        });
        let request = http::Request::builder()
            .method(Method::POST)
            .uri("/api/order/webhook/stripe/")
            .header("content-type", "application/json")
            .header("stripe-signature", signature)
            .body(axum::body::Body::from(raw))
            .unwrap();
        self.orders.send(request).await
    }

    /// The mails to `email` waiting in the outbox (written with the move that made an order paid; the sender
    /// function sends them, tested in its own crate), as (subject, HTML body).
    pub async fn queued_mails(&self, email: &str) -> Vec<(String, String)> {
        shared::testing::outbox_pending(&self.state.outbox)
            .await
            .into_iter()
            .filter(|item| item.mail.mail.to == email)
            .map(|item| (item.mail.mail.subject, item.mail.mail.html))
            .collect()
    }

    /// The order as stored (the whole of it, as its owner or an admin sees it).
    pub async fn stored(&self, id: &str) -> Value {
        self.admin(Method::GET, &format!("/api/order/Orderdetails/{id}"), None)
            .await
            .body
    }
}
