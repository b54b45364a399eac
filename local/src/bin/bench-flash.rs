//! The flash-sale benchmark (`make bench-flash`): SHOPPERS shoppers (500) check out the last CANS cases (100)
//! of one drink, arriving evenly over WINDOW_SECONDS (10), through the real router on a fresh local stack,
//! with DynamoDB's contention injected by scripts/moto_serial.py (CONFLICT_PERCENT of the reservations
//! cancelled with TransactionConflict, THROTTLE_PERCENT with ProvisionedThroughputExceeded: the writes to the
//! hot items, the drink and the order-number counter). It prints what was sold and refused (sold out, busy),
//! whether anything was oversold, whether any card was charged without a paid or held order, and the
//! answer times. A benchmark, not a test: it reports, and exits non-zero only when money or stock went wrong.

use axum::body::Body;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use local::bench::setting;
use serde_json::{json, Value};
use shared::auth::{AuthKeys, Role};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use testkit::emulator::{Emulator, LocalNames, LocalStripe};
use tower::ServiceExt;

/// The address links are made for (nothing serves it: the benchmark reads answers, not pages).
const SITE: &str = "http://127.0.0.1:3995";
/// The reservation's hot items: the drink on sale and the order-number counter every order moves.
const HOT_KEYS: [&str; 2] = ["PRODUCT#", "COUNTER#"];

type BoxError = Box<dyn std::error::Error + Send + Sync>;

async fn call(
    router: &axum::Router,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let body = match body {
        Some(body) => {
            request = request.header(header::CONTENT_TYPE, "application/json");
            Body::from(body.to_string())
        }
        None => Body::empty(),
    };
    let response = router
        .clone()
        .oneshot(request.body(body).expect("request"))
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

/// Sets the emulator's injected contention; answers what it counted under the shares it replaces.
fn faults(emulator: &Emulator, conflict: u32, throttle: u32) -> Result<Value, BoxError> {
    let address = emulator.endpoint.trim_start_matches("http://").to_owned();
    let body =
        json!({"conflictPercent": conflict, "throttlePercent": throttle, "keyPrefixes": HOT_KEYS})
            .to_string();
    let mut stream = std::net::TcpStream::connect(&address)?;
    write!(
        stream,
        "POST /_shop/faults HTTP/1.0\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let (head, json) = answer.split_once("\r\n\r\n").ok_or("no answer")?;
    if !head.contains(" 200 ") {
        return Err(format!("the emulator refused the faults: {head}").into());
    }
    Ok(serde_json::from_str(json)?)
}

/// The value at `share` (0 to 1) of sorted `times`.
fn percentile(times: &[Duration], share: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    let index = ((times.len() as f64 * share).ceil() as usize).clamp(1, times.len()) - 1;
    times[index]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), BoxError> {
    let shoppers: usize = setting("SHOPPERS", 500);
    let cans: u32 = setting("CANS", 100);
    let window: f64 = setting("WINDOW_SECONDS", 10.0);
    let conflict: u32 = setting("CONFLICT_PERCENT", 20);
    let throttle: u32 = setting("THROTTLE_PERCENT", 5);
    println!(
        "== Flash sale: {shoppers} shoppers for the last {cans} cases within {window} s; \
         {conflict}% of the hot writes cancelled with TransactionConflict, {throttle}% throttled"
    );

    let emulator = Emulator::start()?;
    let stripe = match LocalStripe::start(None) {
        Ok(stripe) => stripe,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    let names = LocalNames::new("benchflash");
    let result = match local::build(&emulator, &stripe, &names, std::env::temp_dir(), SITE).await {
        Ok(gateway) => {
            run(
                &gateway,
                &emulator,
                &stripe,
                shoppers,
                cans,
                window,
                (conflict, throttle),
            )
            .await
        }
        Err(error) => Err(error),
    };
    stripe.stop();
    emulator.stop();
    result
}

async fn run(
    gateway: &local::Gateway,
    emulator: &Emulator,
    stripe: &LocalStripe,
    shoppers: usize,
    cans: u32,
    window: f64,
    (conflict, throttle): (u32, u32),
) -> Result<(), BoxError> {
    let router = &gateway.router;
    let token = AuthKeys::from_env(&gateway.env.lookup("AuthFunction"))?
        .issue(local::seed::ADMIN_EMAIL, Role::Admin, 24 * 3600)
        .map_err(|e| e.to_string())?;
    let (status, drink) = call(
        router,
        Method::POST,
        "/api/product/create/",
        Some(&token),
        Some(
            json!({"name": format!("Flash Sale Cola {}", uuid::Uuid::new_v4().simple()),
            "price": 12.0, "qty": "24 x 330ml", "TheNumber": cans}),
        ),
    )
    .await;
    if status != StatusCode::CREATED {
        return Err(format!("the drink was not created: {status} {drink}").into());
    }
    let drink_id = drink["_id"].as_str().unwrap_or_default().to_owned();

    // Every shopper's card, as Stripe.js would have made it in their browser before they press Pay.
    let made = Instant::now();
    let methods = {
        let stripe = stripe.clone();
        tokio::task::spawn_blocking(move || {
            (0..shoppers)
                .map(|_| stripe.card("4242424242424242"))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?
        .map_err(|e| e.to_string())?
    };
    println!(
        "{shoppers} cards ready in {:.1} s",
        made.elapsed().as_secs_f64()
    );

    faults(emulator, conflict, throttle)?;
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(shoppers);
    for (i, method) in methods.into_iter().enumerate() {
        let router = router.clone();
        let drink_id = drink_id.clone();
        let arrives = Duration::from_secs_f64(window * i as f64 / shoppers as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(tokio::time::Instant::from_std(start + arrives)).await;
            let body = json!({
                "fullname": format!("Flash Shopper {i}"), "address": "1 High St, Leeds LS1 1AA",
                "phone": "07700 900123", "email": format!("flash.{i:04}@example.com"), "message": "",
                "product": [{"product": drink_id, "qty": 1}],
                "payment": {"provider": "stripe", "paymentMethod": method}
            });
            let asked = Instant::now();
            let (status, answer) =
                call(&router, Method::POST, "/api/order/create/", None, Some(body)).await;
            (status, answer, asked.elapsed())
        }));
    }
    let mut answers = Vec::with_capacity(shoppers);
    for task in tasks {
        answers.push(task.await?);
    }
    let elapsed = start.elapsed();
    let struck = faults(emulator, 0, 0)?;

    let mut kinds: HashMap<String, usize> = HashMap::new();
    let (mut sold, mut sold_out, mut busy, mut held) = (0usize, 0usize, 0usize, 0usize);
    for (status, answer, _) in &answers {
        let message = answer["message"].as_str().unwrap_or_default();
        match *status {
            StatusCode::CREATED => sold += 1,
            StatusCode::CONFLICT if message.contains("sold out") => sold_out += 1,
            StatusCode::SERVICE_UNAVAILABLE if message.contains("busy") => busy += 1,
            _ if message.contains("is held") || message.contains("still being processed") => {
                held += 1
            }
            _ => {
                *kinds
                    .entry(format!("{} {message}", status.as_u16()))
                    .or_default() += 1
            }
        }
    }
    let mut times: Vec<Duration> = answers.iter().map(|(_, _, time)| *time).collect();
    times.sort_unstable();

    // The orders of the drink as the admin sees them, and the stock left.
    let mut statuses: HashMap<String, String> = HashMap::new();
    let mut page = 1;
    loop {
        let (_, listed) = call(
            router,
            Method::GET,
            &format!("/api/order?pageNumber={page}"),
            Some(&token),
            None,
        )
        .await;
        for order in listed["product"].as_array().into_iter().flatten() {
            let of_drink = order["product"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|line| line["product"] == drink_id.as_str());
            if of_drink {
                statuses.insert(
                    order["_id"].as_str().unwrap_or_default().to_owned(),
                    order["status"].as_str().unwrap_or_default().to_owned(),
                );
            }
        }
        if page >= listed["pages"].as_u64().unwrap_or(1) {
            break;
        }
        page += 1;
    }
    let count = |status: &str| statuses.values().filter(|s| *s == status).count();
    let (paid, pending) = (count("paid"), count("pending"));
    let (_, drink) = call(
        router,
        Method::GET,
        &format!("/api/product/{drink_id}"),
        None,
        None,
    )
    .await;
    let left = drink["TheNumber"].as_i64().unwrap_or(-1);
    let oversold = (paid + pending) as i64 - i64::from(cans);
    let stock_agrees = left == i64::from(cans) - (paid + pending) as i64;

    // Every PaymentIntent that took money must belong to an order that is paid (or held, its paid move left
    // to the webhook).
    let charged = {
        let stripe = stripe.clone();
        tokio::task::spawn_blocking(move || -> Result<Vec<(String, String)>, String> {
            let mut found = Vec::new();
            let mut after: Option<String> = None;
            loop {
                let path = match &after {
                    Some(id) => format!("/v1/payment_intents?limit=100&starting_after={id}"),
                    None => "/v1/payment_intents?limit=100".to_owned(),
                };
                let page = stripe.api("GET", &path, &[]).map_err(|e| e.to_string())?;
                let data = page["data"].as_array().cloned().unwrap_or_default();
                for intent in &data {
                    if intent["status"] == "succeeded" {
                        let order = intent["metadata"]["order_id"].as_str().unwrap_or_default();
                        let id = intent["id"].as_str().unwrap_or_default();
                        found.push((id.to_owned(), order.to_owned()));
                    }
                }
                after = data
                    .last()
                    .and_then(|i| i["id"].as_str())
                    .map(str::to_owned);
                if page["has_more"] != true || after.is_none() {
                    return Ok(found);
                }
            }
        })
        .await??
    };
    let orphans = charged
        .iter()
        .filter(|(_, order)| {
            !matches!(
                statuses.get(order).map(String::as_str),
                Some("paid" | "pending")
            )
        })
        .count();

    println!(
        "sale over in {:.1} s; the emulator struck {} of {} hot transactions ({} conflicts, {} throttled)",
        elapsed.as_secs_f64(),
        struck["conflicts"].as_u64().unwrap_or(0) + struck["throttles"].as_u64().unwrap_or(0),
        struck["transactions"],
        struck["conflicts"],
        struck["throttles"]
    );
    println!("sold: {sold} (paid orders {paid}, {left} cases left)");
    println!(
        "refused: {} (sold out {sold_out}, busy {busy})",
        sold_out + busy
    );
    if held > 0 || pending > 0 {
        println!("held, the bank's answer pending: {held} answers, {pending} orders");
    }
    for (kind, n) in &kinds {
        println!("other answers: {n} × {kind}");
    }
    println!("oversold: {}", oversold.max(0));
    println!(
        "stock and orders agree: {}",
        if stock_agrees { "yes" } else { "NO" }
    );
    println!(
        "charged without an order: {orphans} (of {} charges)",
        charged.len()
    );
    println!(
        "latency: p50 {} ms, p99 {} ms, max {} ms",
        percentile(&times, 0.50).as_millis(),
        percentile(&times, 0.99).as_millis(),
        times.last().copied().unwrap_or_default().as_millis()
    );
    let ok = oversold <= 0 && stock_agrees && orphans == 0 && kinds.is_empty();
    println!("flash sale: {}", if ok { "OK" } else { "FAILED" });
    if ok {
        Ok(())
    } else {
        Err(
            "the flash sale oversold, lost stock, charged without an order or answered otherwise"
                .into(),
        )
    }
}
