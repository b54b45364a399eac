//! `spawn_app`: the orders router with the catalog and codes on fresh tables, an admin and two customers.

use aws_sdk_dynamodb::types::AttributeValue;
use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::auth::{AuthConfig, Role};
use shared::dynamo::Item;
use testkit::emulator::{LocalStripe, LOCAL_STRIPE_SECRET_KEY};
use testkit::{put_user, Client, Harness, Reply};

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
    /// The secret key this shop calls Stripe with (its own for tests that make Stripe fail).
    pub stripe_key: String,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(LOCAL_STRIPE_SECRET_KEY).await
}

/// A shop with a Stripe secret key of its own, a short time limit per Stripe call and a short pause before
/// its retry: the shim's faults (`fault`) then touch this shop's calls only, and a timeout costs no seconds.
pub async fn spawn_app_with_own_stripe() -> TestApp {
    let key = format!("sk_test_{}", uuid::Uuid::new_v4().simple());
    let mut app = spawn_app_with(&key).await;
    app.stripe_key = key;
    app
}

/// The shim's fault for this app's Stripe calls: `mode` `down` (answered 503, nothing done) or `slow` (done,
/// answered after `seconds`), for the next `count` calls whose path starts with `path` (and `method`, when
/// given).
pub fn fault(app: &TestApp, mode: &str, count: u32, path: &str, method: &str, seconds: f64) {
    let (count, seconds) = (count.to_string(), seconds.to_string());
    stripe()
        .api_as(
            &app.stripe_key,
            "POST",
            "/_shim/faults",
            &[
                ("mode", mode),
                ("count", &count),
                ("path", path),
                ("method", method),
                ("seconds", &seconds),
            ],
        )
        .expect("the shim takes the fault");
}

pub fn clear_faults(app: &TestApp) {
    stripe()
        .api_as(&app.stripe_key, "DELETE", "/_shim/faults", &[])
        .expect("the shim clears the faults");
}

async fn spawn_app_with(stripe_key: &str) -> TestApp {
    spawn_app_on(&stripe().api_base, stripe_key).await
}

/// `spawn_app` with Stripe's API at `api_base` (a stand-in that fails, say).
pub async fn spawn_app_with_stripe(api_base: &str) -> TestApp {
    spawn_app_on(api_base, LOCAL_STRIPE_SECRET_KEY).await
}

async fn spawn_app_on(api_base: &str, stripe_key: &str) -> TestApp {
    let harness = Harness::new(
        "OrdersFunction",
        &[
            ("DELIVERY_FEE", "4.99"),
            ("FREE_DELIVERY_FROM", "40.00"),
            ("STRIPE_API_BASE", api_base),
            ("STRIPE_SECRET_KEY", stripe_key),
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
    let codes = discounts::AppState::new(
        discounts::Config {
            table: config.codes_table.clone(),
            auth: AuthConfig::from_env(&lookup).unwrap(),
        },
        db.clone(),
    );
    let mut state = orders::AppState::new(config, db, shared::aws::sqs(&harness.sdk));
    if stripe_key != LOCAL_STRIPE_SECRET_KEY {
        state.stripe = state.stripe.clone().with_timing(
            std::time::Duration::from_millis(800),
            std::time::Duration::from_millis(40),
        );
    }
    let keys = harness.keys();
    let alice_email = testkit::new_email("alice");
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, &alice_email, Role::Customer).await;
    put_user(&state.auth.users, "bob@example.com", Role::Customer).await;
    TestApp {
        orders: Client::new(orders::router(state.clone())),
        state,
        catalog: Client::new(catalog::router(catalog)),
        codes: Client::new(discounts::router(codes)),
        admin: keys.issue("admin@example.com", Role::Admin, 600).unwrap(),
        alice: keys.issue(&alice_email, Role::Customer, 600).unwrap(),
        bob: keys.issue("bob@example.com", Role::Customer, 600).unwrap(),
        alice_email,
        stripe_key: LOCAL_STRIPE_SECRET_KEY.to_owned(),
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

    /// Bob's order of `qty` of `drink` that waits for 3-D Secure and is then cancelled by the admin: an
    /// order that finished without ever being paid.
    pub async fn cancelled_unpaid_order(&self, drink: &str, qty: u32) -> String {
        let placed = self
            .place(checkout_with_card(
                "bob@example.com",
                json!([{"product": drink, "qty": qty}]),
                NEEDS_3DS,
            ))
            .await;
        assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
        let id = placed.body["_id"].as_str().unwrap().to_owned();
        let cancelled = self
            .admin(
                Method::PUT,
                &format!("/api/order/update/{id}"),
                Some(json!({"status": "cancelled"})),
            )
            .await;
        assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
        id
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

    /// The order as its e-mailed link shows it (the public view, opened with the link's key).
    pub async fn order(&self, id: &str) -> Value {
        let key = self.state.links.fresh_key(id, shared::time::now_unix());
        let reply = self
            .orders
            .get(&format!("/api/order/Orderdetails/{id}?key={key}"))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body
    }

    /// The browser's call after the bank's 3-D Secure step.
    pub async fn confirm(&self, id: &str) -> Reply {
        self.orders
            .call(
                Method::POST,
                &format!("/api/order/confirm/{id}/"),
                None,
                None,
            )
            .await
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
        testkit::outbox_pending(&self.state.outbox)
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

impl TestApp {
    /// The PaymentIntent of an order, as the order item holds it.
    pub async fn intent_of(&self, order_id: &str) -> String {
        let found = self
            .state
            .db
            .get_item()
            .table_name(&self.state.tables.orders)
            .key("pk", shared::dynamo::s(format!("ORDER#{order_id}")))
            .key("sk", shared::dynamo::s("ORDER"))
            .consistent_read(true)
            .send()
            .await
            .unwrap();
        shared::dynamo::get_s(found.item().expect("the order exists"), "paymentIntent").unwrap()
    }

    /// The admin refunds `body` of order `id`.
    pub async fn refund(&self, id: &str, body: Value) -> Reply {
        self.admin(
            Method::POST,
            &format!("/api/order/refunds/{id}"),
            Some(body),
        )
        .await
    }

    /// Every event the shim made about `intent`, oldest first (as Stripe would deliver them), signed and sent
    /// to the webhook: answers the webhook's outcomes.
    pub async fn deliver_events_about(&self, intent: &str) -> Vec<String> {
        let mut outcomes = Vec::new();
        for event in events_about(intent) {
            let reply = self.stripe_event(&event, None).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "{}: {}",
                event["type"],
                reply.body
            );
            outcomes.push(format!(
                "{} {}",
                event["type"].as_str().unwrap(),
                reply.body["outcome"].as_str().unwrap()
            ));
        }
        outcomes
    }
}

impl TestApp {
    /// An order of `qty` of `drink` by `email` whose bank asks for 3-D Secure: (order id, client secret,
    /// PaymentIntent id).
    pub async fn waiting_for_3ds(
        &self,
        email: &str,
        drink: &str,
        qty: u32,
    ) -> (String, String, String) {
        let placed = self
            .place(checkout_with_card(
                email,
                json!([{"product": drink, "qty": qty}]),
                NEEDS_3DS,
            ))
            .await;
        assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
        let id = placed.body["_id"].as_str().unwrap().to_owned();
        let secret = placed.body["clientSecret"].as_str().unwrap().to_owned();
        let intent = self.intent_of(&id).await;
        (id, secret, intent)
    }
}

/// A Stripe event of `kind` about `object`, as Stripe sends it (sign it with `stripe_event`).
pub fn event_of(kind: &str, object: Value) -> Value {
    json!({"id": format!("evt_{}", uuid::Uuid::new_v4().simple()), "object": "event", "type": kind,
        "data": {"object": object}})
}

/// The PaymentIntent as Stripe holds it now.
pub fn intent_at_stripe(intent: &str) -> Value {
    stripe()
        .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
        .unwrap()
}

/// The events the shim made about `intent` (the intent itself, its charge, refunds, disputes, warnings),
/// oldest first.
pub fn events_about(intent: &str) -> Vec<Value> {
    let all = stripe()
        .api(
            "GET",
            &format!("/_shim/events?payment_intent={intent}"),
            &[],
        )
        .unwrap();
    all["data"].as_array().unwrap().clone()
}

/// A fraud warning from the card's issuer about the order's payment, made at the shim and delivered.
pub async fn warn_of_fraud(app: &TestApp, order_id: &str) {
    let intent = app.intent_of(order_id).await;
    let warning = stripe()
        .api(
            "POST",
            "/_shim/early_fraud_warnings",
            &[("payment_intent", intent.as_str())],
        )
        .unwrap();
    let event = event_of("radar.early_fraud_warning.created", warning);
    let reply = app.stripe_event(&event, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

/// The month before `month` (`YYYY-MM`).
pub fn month_before(month: &str) -> String {
    let (year, number) = month.split_once('-').expect("YYYY-MM");
    let (year, number): (u32, u32) = (year.parse().unwrap(), number.parse().unwrap());
    match number {
        1 => format!("{}-12", year - 1),
        _ => format!("{year}-{:02}", number - 1),
    }
}

/// `value` with every text naming month `from` naming month `to` instead.
fn in_month(value: &AttributeValue, from: &str, to: &str) -> AttributeValue {
    match value {
        AttributeValue::S(text) => AttributeValue::S(text.replace(from, to)),
        AttributeValue::L(list) => {
            AttributeValue::L(list.iter().map(|v| in_month(v, from, to)).collect())
        }
        AttributeValue::M(map) => AttributeValue::M(
            map.iter()
                .map(|(k, v)| (k.clone(), in_month(v, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl TestApp {
    /// Moves everything this shop's orders table holds one month back, as if it had all happened in the
    /// month before this one: every text that names this month (an order's `createdAt` and history, the
    /// results' and the ledger's month partitions and lines) names the month before. The code has no clock
    /// to set, so this is how a test crosses a month's end. Answers (this month, the month before).
    pub async fn move_a_month_back(&self) -> (String, String) {
        let this = shared::time::now_iso()[..7].to_owned();
        let before = month_before(&this);
        let (db, table) = (&self.state.db, &self.state.tables.orders);
        let mut start = None;
        loop {
            let page = db
                .scan()
                .table_name(table)
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            for item in page.items() {
                let moved: Item = item
                    .iter()
                    .map(|(k, v)| (k.clone(), in_month(v, &this, &before)))
                    .collect();
                if moved == *item {
                    continue;
                }
                if moved["pk"] != item["pk"] || moved["sk"] != item["sk"] {
                    db.delete_item()
                        .table_name(table)
                        .key("pk", item["pk"].clone())
                        .key("sk", item["sk"].clone())
                        .send()
                        .await
                        .unwrap();
                }
                db.put_item()
                    .table_name(table)
                    .set_item(Some(moved))
                    .send()
                    .await
                    .unwrap();
            }
            start = page.last_evaluated_key().cloned();
            if start.is_none() {
                return (this, before);
            }
        }
    }
}
