//! The mail benchmark (`make bench-mail`, N settable): seeds N subscribers, sends one mailing through the
//! real router, lets the gateway's mail workers send it with 5% of SES calls failing transiently, and
//! prints the API's answer time, the sends per second against the configured rate, and whether every
//! address got the mail exactly once and the mailing's counters agree. A benchmark, not a test: it reports.

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use axum::body::Body;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use local::bench::setting;
use serde_json::{json, Value};
use shared::auth::{AuthKeys, Role};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use testkit::emulator::{Emulator, LocalNames};
use tower::ServiceExt;

/// The address links are made for (nothing serves it: the benchmark reads the mail, not the pages).
const SITE: &str = "http://127.0.0.1:3996";

async fn call(
    router: &axum::Router,
    method: Method,
    uri: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
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

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let n: usize = setting("N", 20_000);
    let faults: u8 = setting("FAULT_PERCENT", 5);
    let rate: f64 = setting("MAIL_RATE", 200.0);
    println!("== Mail benchmark: {n} subscribers, {faults}% transient SES faults, rate {rate}/s");

    let emulator = Emulator::start()?;
    let names = LocalNames::new("benchmail");
    let options = local::mail::Options {
        fault_percent: faults,
        rate_per_second: Some(rate.to_string()),
    };
    // The orders function's settings name a Stripe API: a fresh localstripe dies with this process.
    let stripe = testkit::emulator::LocalStripe::start(None)?;
    let gateway = local::build_with_mail(
        &emulator,
        &stripe,
        &names,
        std::env::temp_dir(),
        SITE,
        &options,
    )
    .await;
    let gateway = match gateway {
        Ok(gateway) => gateway,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    let result = run(&gateway, &emulator, n, rate).await;
    drop(gateway);
    emulator.stop();
    result
}

async fn run(
    gateway: &local::Gateway,
    emulator: &Emulator,
    n: usize,
    rate: f64,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let env = &gateway.env;
    let table = env.vars("NewsletterFunction")["SUBSCRIPTION_TABLE"].clone();
    let lists = ["Newsletter".to_owned()];
    let started = Instant::now();
    let emails: Vec<String> = (0..n)
        .map(|i| format!("bench.{i:06}@example.com"))
        .collect();
    for (chunk_no, chunk) in emails.chunks(25).enumerate() {
        let mut writes = Vec::new();
        for (i, email) in chunk.iter().enumerate() {
            let item = newsletter::stored_subscriber(email, &lists, (chunk_no * 25 + i) as u64)
                .map_err(|e| e.to_string())?;
            writes.push(
                WriteRequest::builder()
                    .put_request(PutRequest::builder().set_item(Some(item)).build()?)
                    .build(),
            );
        }
        env.dynamodb
            .batch_write_item()
            .request_items(table.clone(), writes)
            .send()
            .await?;
    }
    // Loaded without sign-up, so the list counts are moved here, as sign-up would have.
    let app = newsletter::AppState::new(
        newsletter::Config::from_env(&env.lookup("NewsletterFunction"))?,
        env.dynamodb.clone(),
        env.ses.clone(),
        env.sqs.clone(),
    );
    newsletter::add_to_list_counts(&app, &lists, n as i64)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "seeded {n} subscribers in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Only the auth function holds the signing key.
    let token = AuthKeys::from_env(&env.lookup("AuthFunction"))?
        .issue(local::seed::ADMIN_EMAIL, Role::Admin, 24 * 3600)
        .map_err(|e| e.to_string())?;
    let subject = format!("Benchmark letter {}", uuid::Uuid::new_v4().simple());
    let letter = json!({"MailList": ["Newsletter"], "data": {"subject": subject, "sections": [
        {"title": "Summer drinks", "description": "A benchmark letter."}]}});
    let asked = Instant::now();
    let (status, answer) = call(
        &gateway.router,
        Method::POST,
        "/api/subscription/mailer/",
        &token,
        Some(letter),
    )
    .await;
    let answer_time = asked.elapsed();
    if status != StatusCode::ACCEPTED {
        return Err(format!("the mailer answered {status}: {answer}").into());
    }
    let id = answer["_id"].as_str().unwrap_or_default().to_owned();
    let recipients = answer["recipients"].as_u64().unwrap_or(0);
    println!(
        "API answer: {} ms ({status}, {recipients} recipients)",
        answer_time.as_millis()
    );

    let sending = Instant::now();
    let mut last_print = Instant::now();
    let mailing = loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (_, mailing) = call(
            &gateway.router,
            Method::GET,
            &format!("/api/subscription/mailings/{id}"),
            &token,
            None,
        )
        .await;
        let status = mailing["status"].as_str().unwrap_or_default().to_owned();
        if last_print.elapsed() > Duration::from_secs(15) {
            println!(
                "  {:>5.0} s: {} sent, {} failed ({status})",
                sending.elapsed().as_secs_f64(),
                mailing["sent"],
                mailing["failed"]
            );
            last_print = Instant::now();
        }
        if status == "sent" || status == "failed" {
            break mailing;
        }
    };
    let elapsed = sending.elapsed().as_secs_f64();
    let sent = mailing["sent"].as_u64().unwrap_or(0);
    let failed = mailing["failed"].as_u64().unwrap_or(0);
    let skipped = mailing["skipped"].as_u64().unwrap_or(0);
    println!(
        "sent {sent} in {elapsed:.1} s: {:.1} sends/s (configured SES rate {rate}/s over {} senders)",
        sent as f64 / elapsed,
        gateway.mail.concurrency
    );

    println!("reading what SES received (the emulator's record; slow for large N)...");
    let emulator = emulator.clone();
    let data = tokio::task::spawn_blocking(move || emulator.get("/moto-api/data.json")).await??;
    let data: Value = serde_json::from_str(&data)?;
    let mut per_address: HashMap<String, usize> = HashMap::new();
    for message in data["ses"]["RawMessage"].as_array().into_iter().flatten() {
        let raw = message["raw_data"].as_str().unwrap_or_default();
        if shared::mime::parse(raw).header("Subject") != Some(subject.as_str()) {
            continue;
        }
        for to in message["destinations"].as_array().into_iter().flatten() {
            *per_address
                .entry(to.as_str().unwrap_or_default().to_owned())
                .or_default() += 1;
        }
    }
    let expected: HashSet<&String> = emails.iter().collect();
    let duplicates = per_address.values().filter(|count| **count > 1).count();
    let missing = expected
        .iter()
        .filter(|e| !per_address.contains_key(**e))
        .count();
    // The demo shop's own subscribers are on the list too; anyone else would be a stranger.
    let demo = per_address
        .keys()
        .filter(|a| !expected.contains(a) && a.ends_with(".subscriber@example.com"))
        .count();
    let strangers = per_address
        .keys()
        .filter(|a| !expected.contains(a) && !a.ends_with(".subscriber@example.com"))
        .count();
    let delivered = per_address.len() as u64;
    let missing_demo = (recipients as usize).saturating_sub(n + demo);
    println!(
        "delivered exactly once: {}",
        delivered as usize - duplicates
    );
    println!("duplicates: {duplicates}");
    println!(
        "missing (not delivered, counted failed: {failed}): {}",
        missing + missing_demo
    );
    println!("(of which the demo shop's own subscribers: {demo} delivered)");
    println!("mailed outside the list: {strangers}");
    let agree = sent == delivered
        && sent + failed + skipped == recipients
        && (missing + missing_demo) as u64 == failed;
    println!(
        "mailing counters: sent {sent}, failed {failed}, skipped {skipped}, recipients {recipients}: {}",
        if agree { "agree" } else { "DISAGREE" }
    );
    let ok = duplicates == 0 && strangers == 0 && agree && answer_time < Duration::from_secs(1);
    println!(
        "{}",
        if ok {
            "RESULT: ok"
        } else {
            "RESULT: targets missed"
        }
    );
    if ok {
        Ok(())
    } else {
        Err("the mail benchmark missed its targets".into())
    }
}
