//! Order numbers: short, sequential, from a counter written in each order's transaction.

use crate::helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn fifty_concurrent_checkouts_get_fifty_numbers_without_gaps_or_repeats() {
    let app = spawn_app().await;
    let soda = app.drink("Busy Soda", 2.0, 100, 0).await;
    let mut tasks = Vec::new();
    for i in 0..50 {
        let client = app.orders.clone();
        let body = checkout(
            &format!("rush{i}@example.com"),
            json!([{"product": soda, "qty": 1}]),
        );
        tasks.push(tokio::spawn(async move {
            client
                .call(Method::POST, "/api/order/create/", None, Some(body))
                .await
        }));
    }
    let mut numbers = Vec::new();
    for task in tasks {
        let reply = task.await.unwrap();
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        let order = app.order(reply.body.as_str().unwrap()).await;
        let number = order["number"].as_str().unwrap().to_owned();
        numbers.push(number.strip_prefix("PD-").unwrap().parse::<u64>().unwrap());
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (10_001..=10_050).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_refused_checkout_uses_no_number_and_the_admin_finds_an_order_by_its_number() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 3, 0).await;
    let first = app.paid_order(&soda, 1).await;
    // Too many: refused, and the next order still gets the next number.
    let refused = app
        .place(checkout(
            &app.alice_email,
            json!([{"product": soda, "qty": 5}]),
        ))
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    let second = app.paid_order(&soda, 1).await;
    assert_eq!(app.order(&first).await["number"], "PD-10001");
    assert_eq!(app.order(&second).await["number"], "PD-10002");

    for search in ["PD-10002", "pd-10002", "10002"] {
        let found = app
            .admin(Method::GET, &format!("/api/order?search={search}"), None)
            .await;
        assert_eq!(found.status, StatusCode::OK);
        let ids: Vec<&str> = found.body["product"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [second.as_str()], "{search}");
    }
    // The confirmation's subject carries the number.
    let mails = app.queued_mails(&app.alice_email).await;
    assert!(
        mails
            .iter()
            .any(|(subject, _)| subject.contains("PD-10002")),
        "{mails:?}"
    );
}
