//! DynamoDB's contention, which the emulator never shows by itself: scripts/moto_serial.py cancels a chosen
//! share of transactions with TransactionConflict or ProvisionedThroughputExceeded, and the checkout retries
//! with jittered backoff, then answers 503 "busy" with nothing charged or held, never 500. A test binary of
//! its own: the faults are the emulator's, so they would strike every test sharing it.

// The orders tests' helpers, shared with the api binary; this binary uses some of them.
#[allow(dead_code)]
#[path = "../api/helpers.rs"]
mod helpers;

use helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use std::io::{Read, Write};

/// Sets the emulator's injected shares (percent of TransactWriteItems); answers its counts so far.
fn faults(conflict: u32, throttle: u32) -> Value {
    let endpoint = testkit::emulator::Emulator::for_tests().endpoint.clone();
    let address = endpoint.trim_start_matches("http://");
    let body = json!({"conflictPercent": conflict, "throttlePercent": throttle}).to_string();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /_shop/faults HTTP/1.0\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (_, json) = answer.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(json).unwrap()
}

#[tokio::test]
async fn contention_is_retried_and_when_it_persists_the_shopper_is_told_busy_with_nothing_held() {
    let app = spawn_app().await;
    let rare = app.drink("Flash Cola", 2.0, 10, 0).await;

    // A third of the transactions cancelled, some throttled: every checkout still ends in an answer a
    // shopper can act on, the ten cans go at most once, and an answer that says nothing is held is true.
    faults(30, 10);
    let mut tasks = Vec::new();
    for i in 0..24 {
        let client = app.orders.clone();
        let email = format!("flash{i}@example.com");
        let body = checkout(&email, json!([{"product": rare, "qty": 1}]));
        tasks.push(tokio::spawn(async move {
            let reply = client
                .call(Method::POST, "/api/order/create/", None, Some(body))
                .await;
            (email, reply)
        }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        let (email, reply) = task.await.unwrap();
        assert!(
            [
                StatusCode::CREATED,
                StatusCode::CONFLICT,
                StatusCode::SERVICE_UNAVAILABLE
            ]
            .contains(&reply.status),
            "unexpected {}: {}",
            reply.status,
            reply.body
        );
        answers.push((email, reply));
    }
    let struck = faults(0, 0);
    assert!(
        struck["conflicts"].as_u64().unwrap() > 0 && struck["throttles"].as_u64().unwrap() > 0,
        "faults were injected: {struck}"
    );
    let listed = app.admin(Method::GET, "/api/order", None).await.body;
    let orders = listed["product"].as_array().unwrap();
    let status_of = |email: &str| -> Vec<&str> {
        orders
            .iter()
            .filter(|o| o["email"] == email)
            .map(|o| o["status"].as_str().unwrap())
            .collect()
    };
    for (email, reply) in &answers {
        let message = reply.body["message"].as_str().unwrap_or_default();
        let statuses = status_of(email);
        match reply.status {
            StatusCode::CREATED => assert_eq!(statuses, ["paid"], "{email}"),
            // Held only when the answer says so (the bank's answer pending); else nothing is held.
            _ if message.contains("is held") => {
                assert!(statuses.iter().all(|s| *s != "paid"), "{email}")
            }
            _ => assert!(
                statuses.iter().all(|s| *s == "expired"),
                "{email} was told {message:?} but holds {statuses:?}"
            ),
        }
    }
    let holding = orders
        .iter()
        .filter(|o| o["status"] == "paid" || o["status"] == "pending")
        .count() as u64;
    assert_eq!(
        app.stock(&rare).await,
        10 - holding,
        "no can sold twice or lost"
    );

    // Every transaction cancelled: after its retries the checkout gives up with 503, holding nothing.
    let calm = app.drink("Calm Cola", 2.0, 5, 0).await;
    faults(100, 0);
    let refused = app
        .place(checkout(
            "patient@example.com",
            json!([{"product": calm, "qty": 1}]),
        ))
        .await;
    faults(0, 0);
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.body
    );
    assert_eq!(
        refused.body["message"],
        "The shop is very busy right now, so nothing was charged or held: please try again in a moment."
    );
    assert!(refused.headers.get("retry-after").is_some());
    assert_eq!(app.stock(&calm).await, 5);
    assert_eq!(status_of("patient@example.com"), Vec::<&str>::new());
}
