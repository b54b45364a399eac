//! Issue 14: checkout attempts are limited per viewer address, as CloudFront reports it.

use crate::helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn one_address_places_a_bounded_number_of_orders_an_hour() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 5, 0).await;
    let place = |ip: &'static str, body: serde_json::Value| {
        let client = app.orders.clone();
        async move {
            client
                .call_from(ip, Method::POST, "/api/order/create/", Some(body))
                .await
        }
    };
    // Every attempt counts, a refused one too: a script cannot probe for free.
    for _ in 0..orders::CREATE_LIMIT.limit {
        let reply = place("203.0.113.80", json!({"fullname": "x"})).await;
        assert!(reply.status.is_client_error(), "{}", reply.body);
        assert_ne!(
            reply.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{}",
            reply.body
        );
    }
    let good = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    let refused = place("203.0.113.80", good.clone()).await;
    shared::testing::assert_too_many(&refused, orders::CREATE_LIMIT.refusal);
    assert_eq!(app.stock(&soda).await, 5, "a refused order takes nothing");

    let other = place("198.51.100.80", good).await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.body);
    assert_eq!(app.stock(&soda).await, 4);
}

/// Issue 24: the public confirm call asks Stripe each time, so it is limited per viewer address too; every
/// call counts (an unknown order as well), and another network is not held up.
#[tokio::test]
async fn one_address_confirms_a_bounded_number_of_times_an_hour() {
    let app = spawn_app().await;
    let confirm = |ip: &'static str| {
        let client = app.orders.clone();
        async move {
            client
                .call_from(
                    ip,
                    Method::POST,
                    "/api/order/confirm/00000000-0000-4000-8000-000000000000/",
                    None,
                )
                .await
        }
    };
    for _ in 0..orders::CONFIRM_LIMIT.limit {
        let reply = confirm("203.0.113.81").await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }
    shared::testing::assert_too_many(
        &confirm("203.0.113.81").await,
        orders::CONFIRM_LIMIT.refusal,
    );
    assert_eq!(confirm("198.51.100.81").await.status, StatusCode::NOT_FOUND);
}

/// Issue 14: every free-text field of a checkout is capped; an over-long one is a 4xx naming the cap, and
/// nothing is taken from stock.
#[tokio::test]
async fn over_long_checkout_fields_are_refused_with_their_cap() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 5, 0).await;
    let good = || checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    for (field, length, message) in [
        ("fullname", 101, "fullname must be at most 100 characters"),
        ("address", 301, "address must be at most 300 characters"),
        ("phone", 31, "phone must be at most 30 characters"),
        ("message", 1001, "message must be at most 1000 characters"),
    ] {
        let mut body = good();
        let filler = if field == "phone" { "0" } else { "a" };
        body[field] = json!(filler.repeat(length));
        let reply = app.place(body).await;
        assert!(reply.status.is_client_error(), "{field}: {}", reply.body);
        assert_eq!(reply.body["message"], message, "{field}");
    }
    assert_eq!(app.stock(&soda).await, 5);
}
