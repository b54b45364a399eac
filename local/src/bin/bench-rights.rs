//! The data rights' benchmark (`make bench-rights`, part of `make bench`): ORDERS orders (100,000) and
//! SUBSCRIBERS subscribers (100,000) of other customers in a fresh local stack, among them addresses that
//! contain the subject's (`x` + the address); then one customer's export and erasure through the real
//! router, timed. Both read by keys made from the address, so their time does not grow with the tables; the
//! benchmark prints both beside the functions' 10 s timeout and checks that the look-alike addresses kept
//! every item. A benchmark, not a test: it exits non-zero only when an answer is wrong or too slow.

use axum::body::Body;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use local::bench::setting;
use serde_json::Value;
use shared::auth::{AuthKeys, Role};
use shared::dynamo::{n, s, Item};
use std::time::{Duration, Instant};
use testkit::emulator::{Emulator, LocalNames, LocalStripe};
use tower::ServiceExt;

const SITE: &str = "http://127.0.0.1:3994";
/// What an answer may take: the functions' timeout, less the margin the erasure keeps for itself.
const TARGET: Duration = Duration::from_secs(5);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

async fn call(
    router: &axum::Router,
    method: Method,
    uri: &str,
    token: &str,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .expect("request");
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("router answers");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn order(id: &str, email: &str) -> orders::Order {
    let pence = |p| shared::money::Pence::new(p).expect("pence");
    orders::Order {
        id: id.to_owned(),
        number: None,
        lines: vec![orders::Line {
            product: "p1".into(),
            name: "Cola".into(),
            image: String::new(),
            qty: 1,
            quantity: "24 x 330ml".into(),
            price_pence: 1_799,
        }],
        subtotal: pence(1_799),
        discount: shared::money::Pence::ZERO,
        shipping: pence(499),
        total: pence(2_298),
        vat_rate: Some(20),
        vat: Some(pence(383)),
        code: None,
        code_rate: shared::money::Percent::ZERO,
        code_marked: false,
        card_mark: None,
        status: orders::Status::Delivered,
        fullname: "A Customer".into(),
        address: "1 High Street, Leeds".into(),
        delivery: None,
        age_check: false,
        phone: "07700 900000".into(),
        email: email.to_owned(),
        message: String::new(),
        card_brand: "visa".into(),
        card_last4: "4242".into(),
        payment_intent: format!("pi_{id}"),
        hold_until: 0,
        created_at: "2026-06-01T10:00:00Z".into(),
        updated_at: "2026-06-01T10:00:00Z".into(),
        history: Vec::new(),
        idempotency_key: None,
        refund_id: None,
        client: None,
        carrier: None,
        tracking_number: None,
        terms_version: None,
        unpaid_counted: false,
        archived_at: None,
        version: 1,
    }
}

/// Writes `items` into `table` 25 at a time, eight requests at once.
async fn load(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    items: Vec<Item>,
) -> Result<(), BoxError> {
    use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
    let batches: Vec<Vec<WriteRequest>> = items
        .chunks(25)
        .map(|chunk| {
            chunk
                .iter()
                .map(|item| {
                    WriteRequest::builder()
                        .put_request(
                            PutRequest::builder()
                                .set_item(Some(item.clone()))
                                .build()
                                .expect("put"),
                        )
                        .build()
                })
                .collect()
        })
        .collect();
    let mut pending = batches.into_iter();
    loop {
        let wave: Vec<_> = pending.by_ref().take(8).collect();
        if wave.is_empty() {
            return Ok(());
        }
        let mut writes = tokio::task::JoinSet::new();
        for batch in wave {
            let (db, table) = (db.clone(), table.to_owned());
            writes.spawn(async move {
                let mut request = Some(std::collections::HashMap::from([(table, batch)]));
                while let Some(items) = request.take().filter(|r| !r.is_empty()) {
                    let output = db
                        .batch_write_item()
                        .set_request_items(Some(items))
                        .send()
                        .await?;
                    request = output.unprocessed_items;
                }
                Ok::<(), BoxError>(())
            });
        }
        while let Some(result) = writes.join_next().await {
            result??;
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), BoxError> {
    let orders_n: usize = setting("ORDERS", 100_000);
    let subscribers_n: usize = setting("SUBSCRIBERS", 100_000);
    println!("== Data rights: one customer's export and erasure among {orders_n} orders and {subscribers_n} subscribers");
    let emulator = Emulator::start()?;
    let stripe = match LocalStripe::start(None) {
        Ok(stripe) => stripe,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    let names = LocalNames::new("benchrights");
    let result = match local::build(&emulator, &stripe, &names, std::env::temp_dir(), SITE).await {
        Ok(gateway) => run(&gateway, orders_n, subscribers_n).await,
        Err(error) => Err(error),
    };
    stripe.stop();
    emulator.stop();
    result
}

async fn run(
    gateway: &local::Gateway,
    orders_n: usize,
    subscribers_n: usize,
) -> Result<(), BoxError> {
    let db = &gateway.env.dynamodb;
    let orders_table = gateway.env.names.table("OrdersTable");
    let subscription_table = gateway.env.names.table("SubscriptionTable");
    let users_table = gateway.env.names.table("UsersTable");
    let subject = "layla@example.com";
    let look_alike = "xlayla@example.com";

    let started = Instant::now();
    let mut items: Vec<Item> = (0..orders_n)
        .map(|i| {
            let email = match i % 1_000 {
                0 => look_alike.to_owned(),
                _ => format!("customer{}@example.com", i % 20_000),
            };
            order(&format!("bench-{i}"), &email).to_item()
        })
        .collect();
    items.extend((0..5).map(|i| order(&format!("subject-{i}"), subject).to_item()));
    load(db, &orders_table, items).await?;
    let lists = vec!["Newsletter".to_owned()];
    let mut items: Vec<Item> = (0..subscribers_n)
        .map(|i| {
            let email = if i == 0 {
                look_alike.to_owned()
            } else {
                format!("reader{i}@example.com")
            };
            newsletter::stored_subscriber(&email, &lists, i as u64).expect("subscriber")
        })
        .collect();
    items.push(newsletter::stored_subscriber(subject, &lists, 0).map_err(|e| format!("{e:?}"))?);
    load(db, &subscription_table, items).await?;
    println!("loaded in {:.0} s", started.elapsed().as_secs_f64());

    // The subject's account, as a first login writes it (token version 0).
    let mut user = shared::auth::user_key(subject);
    user.extend([
        ("email".to_owned(), s(subject)),
        ("role".to_owned(), s("customer")),
        ("createdAt".to_owned(), s("2026-06-01T10:00:00Z")),
        ("tokenVersion".to_owned(), n(0)),
    ]);
    db.put_item()
        .table_name(&users_table)
        .set_item(Some(user))
        .send()
        .await?;
    let keys = AuthKeys::from_env(&gateway.env.lookup("AuthFunction"))?;
    let customer = keys
        .issue(subject, Role::Customer, 3600)
        .map_err(|e| e.to_string())?;
    let admin = keys
        .issue(local::seed::ADMIN_EMAIL, Role::Admin, 3600)
        .map_err(|e| e.to_string())?;

    let mut export_times = Vec::new();
    for _ in 0..3 {
        let at = Instant::now();
        let (status, body) =
            call(&gateway.router, Method::GET, "/api/user/export/", &customer).await;
        export_times.push(at.elapsed());
        if status != StatusCode::OK || body["orders"].as_array().map(Vec::len) != Some(5) {
            return Err(format!("the export answered {status}: {body}").into());
        }
    }
    export_times.sort();
    let export = export_times[1];
    let at = Instant::now();
    let (status, body) = call(
        &gateway.router,
        Method::POST,
        &format!("/api/user/erasure/{subject}"),
        &admin,
    )
    .await;
    let erasure = at.elapsed();
    if status != StatusCode::OK || body["erased"]["orders"] != 5 || body["finished"] != true {
        return Err(format!("the erasure answered {status}: {body}").into());
    }
    // The look-alike kept its orders and its subscription.
    let kept = db
        .query()
        .table_name(&orders_table)
        .index_name("gsi1")
        .key_condition_expression("gsi1pk = :me")
        .expression_attribute_values(":me", s(format!("CUSTOMER#{look_alike}")))
        .send()
        .await?
        .count;
    let expected = (orders_n / 1_000 + usize::from(!orders_n.is_multiple_of(1_000))) as i32;
    if kept != expected {
        return Err(format!("the look-alike address has {kept} orders left of {expected}").into());
    }
    println!(
        "export (median of 3): {} ms   erasure: {} ms   (target under {} s each, the functions' timeout is 10 s)",
        export.as_millis(),
        erasure.as_millis(),
        TARGET.as_secs()
    );
    println!("look-alike address {look_alike}: all {kept} of its orders and its subscription kept");
    if export > TARGET || erasure > TARGET {
        return Err("the export or the erasure took longer than the target".into());
    }
    Ok(())
}
