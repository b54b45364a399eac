//! `spawn_app`: the reviews router on its own tables, with two drinks in the catalogue (made through the
//! catalog's own router), an admin and a customer signed in, and the content router for the site info.

use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::auth::{AuthKeys, Role};
use testkit::{put_user, Client, Harness, Reply};

pub struct TestApp {
    pub client: Client,
    /// Where confirmation mails wait for the sender (read by the tests as a reader's mailbox).
    pub outbox: shared::outbox::Outbox,
    /// The review links' keys, as the orders function signs them.
    pub links: reviews::proof::Links,
    pub content: Client,
    pub keys: AuthKeys,
    pub admin: String,
    pub customer: String,
    /// Two drinks' ids: "Classic Cola" and "Mango Passion".
    pub cola: String,
    pub mango: String,
    db: aws_sdk_dynamodb::Client,
    orders_table: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "ReviewsFunction",
        &[],
        &[
            "ReviewsTable",
            "CatalogTable",
            "ContentTable",
            "UsersTable",
            "OrdersTable",
            "MailTable",
        ],
    )
    .await;
    let lookup = harness.lookup();
    let config = reviews::Config::from_env(&lookup).expect("reviews config from the template");
    let keys = harness.keys();
    let db = shared::aws::dynamodb(&harness.sdk);
    let orders_table = config.orders_table.clone();
    let outbox =
        shared::outbox::Outbox::from_env(&lookup, db.clone(), shared::aws::sqs(&harness.sdk))
            .expect("the outbox's settings");
    let links = reviews::proof::Links::new(&config.mail_link_key);
    let state = reviews::AppState::new(config, db.clone(), outbox.clone());
    put_user(&state.auth.users, "admin@example.com", Role::Admin).await;
    put_user(&state.auth.users, "shopper@example.com", Role::Customer).await;
    let admin = keys.issue("admin@example.com", Role::Admin, 600).unwrap();
    // The reviews function's environment names the catalogue and content tables these routers write.
    let catalog = Client::new(catalog::router(catalog::AppState::new(
        catalog::Config::without_alerts(&lookup).expect("catalog config"),
        db.clone(),
        shared::aws::sqs(&harness.sdk),
    )));
    // The content function also needs the shop's address, which the reviews function does not read.
    let content_env = |name: &str| match name {
        "SITE_URL" => Some(testkit::SITE_URL.to_owned()),
        _ => shared::config::Lookup::get(&lookup, name),
    };
    let content = Client::new(content::router(content::AppState::new(
        content::Config::from_env(&content_env).expect("content config"),
        db,
        shared::aws::ses(&harness.sdk),
    )));
    let mut ids = Vec::new();
    for name in ["Classic Cola", "Mango Passion"] {
        let created = catalog
            .call(
                Method::POST,
                "/api/product/create/",
                Some(&admin),
                Some(json!({"name": name, "price": 17.99, "qty": "24 x 330ml"})),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        ids.push(created.body["_id"].as_str().unwrap().to_owned());
    }
    TestApp {
        outbox,
        links,
        client: Client::new(reviews::router(state)),
        content,
        customer: keys
            .issue("shopper@example.com", Role::Customer, 600)
            .unwrap(),
        keys,
        admin,
        cola: ids[0].clone(),
        mango: ids[1].clone(),
        db: shared::aws::dynamodb(&harness.sdk),
        orders_table,
    }
}

/// A review of `product` that passes every rule, from a fresh address.
pub fn review_of(product: &str, rating: u8, fullname: &str) -> Value {
    json!({
        "rating": rating,
        "comment": format!("{fullname} says: a proper fizzy drink."),
        "fullname": fullname,
        "email": testkit::new_email("reviewer"),
        "products": product,
    })
}

impl TestApp {
    pub async fn get(&self, uri: &str) -> Reply {
        self.client.get(uri).await
    }

    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }

    pub async fn post(&self, uri: &str, body: Value) -> Reply {
        self.client.call(Method::POST, uri, None, Some(body)).await
    }

    /// An order by `email` for one of `product`, in `status`, stored as the orders function stores it: its
    /// id.
    pub async fn order(&self, email: &str, product: &str, status: orders::Status) -> String {
        use shared::money::{Pence, Percent};
        let id = shared::store::new_id();
        let now = shared::time::now_iso();
        let order = orders::Order {
            id: id.clone(),
            lines: vec![orders::Line {
                product: product.to_owned(),
                name: "A drink".to_owned(),
                image: String::new(),
                qty: 1,
                quantity: "24 x 330ml".to_owned(),
                price_pence: 1799,
            }],
            subtotal: Pence::new(1799).unwrap(),
            discount: Pence::ZERO,
            shipping: Pence::new(499).unwrap(),
            number: None,
            carrier: None,
            tracking_number: None,
            history: Vec::new(),
            terms_version: None,
            unpaid_counted: false,
            archived_at: None,
            total: Pence::new(2298).unwrap(),
            vat_rate: Some(20),
            vat: Some(Pence::new(383).unwrap()),
            code: None,
            code_rate: Percent::ZERO,
            code_marked: false,
            card_mark: None,
            status,
            fullname: "Amira Haddad".to_owned(),
            address: "1 High St, Leeds LS1 1AA".to_owned(),
            delivery: None,
            age_check: false,
            phone: "07700 900123".to_owned(),
            email: email.to_owned(),
            message: String::new(),
            card_brand: "visa".to_owned(),
            card_last4: "4242".to_owned(),
            payment_intent: String::new(),
            hold_until: 0,
            idempotency_key: None,
            refund_id: None,
            client: None,
            created_at: now.clone(),
            updated_at: now,
            version: 1,
        };
        self.db
            .put_item()
            .table_name(&self.orders_table)
            .set_item(Some(order.to_item()))
            .send()
            .await
            .expect("the order is stored");
        id
    }

    /// The link token of the delivered e-mail of order `order` for drink `product`.
    pub fn invitation(&self, order: &str, product: &str) -> String {
        self.links
            .invitations
            .token(order, product, shared::time::now_unix() + 3600)
    }

    /// The confirmation mails waiting in the outbox for `email`: their text.
    pub async fn confirmations_to(&self, email: &str) -> Vec<String> {
        testkit::outbox_pending(&self.outbox)
            .await
            .into_iter()
            .filter(|item| item.mail.mail.to == email)
            .map(|item| item.mail.mail.text)
            .collect()
    }

    /// The token of the newest confirmation link mailed to `email`.
    pub async fn confirmation_token(&self, email: &str) -> Option<String> {
        let text = self.confirmations_to(email).await.pop()?;
        let start = text.find("/confirm/review?token=")? + "/confirm/review?token=".len();
        Some(text[start..].split_whitespace().next()?.to_owned())
    }

    /// Writes a review and answers the stored one; it must succeed.
    pub async fn write(&self, body: Value) -> Value {
        let reply = self.post("/api/reviews/create/", body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    pub async fn summary(&self) -> Value {
        let reply = self.get("/api/home/uk/review/").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body
    }

    /// How many reviews the admin's list holds, over every page.
    pub async fn stored(&self) -> usize {
        let mut count = 0;
        let mut page = 1;
        loop {
            let reply = self
                .admin(
                    Method::GET,
                    &format!("/api/reviews?pageNumber={page}"),
                    None,
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            count += reply.body["product"].as_array().unwrap().len();
            match reply.body["result"]["next"]["page"].as_u64() {
                Some(next) => page = next,
                None => return count,
            }
        }
    }
}

/// Whether any object in `value`, however deep, has the key `key`.
pub fn has_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key) || map.values().any(|v| has_key(v, key)),
        Value::Array(items) => items.iter().any(|v| has_key(v, key)),
        _ => false,
    }
}
