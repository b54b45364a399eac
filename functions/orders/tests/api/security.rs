//! Checkout attempts are limited per viewer address, as CloudFront reports it.

use crate::helpers::{checkout, checkout_with_card, spawn_app, stripe, NEEDS_3DS};
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
    testkit::assert_too_many(&refused, orders::CREATE_LIMIT.refusal);
    assert_eq!(app.stock(&soda).await, 5, "a refused order takes nothing");

    let other = place("198.51.100.80", good).await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.body);
    assert_eq!(app.stock(&soda).await, 4);
}

/// The public confirm call asks Stripe each time, so it is limited per viewer address too; every
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
    testkit::assert_too_many(
        &confirm("203.0.113.81").await,
        orders::CONFIRM_LIMIT.refusal,
    );
    assert_eq!(confirm("198.51.100.81").await.status, StatusCode::NOT_FOUND);
}

/// Every free-text field of a checkout is capped; an over-long one is a 4xx naming the cap, and
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

/// Unpaid orders cannot keep a drink sold out. An order waiting for 3-D Secure holds its stock
/// for the short hold only; an e-mail address, and a network, may have two unpaid orders open at once (a
/// third is 429 and takes nothing); paying one makes room; and one order holds at most 24 of a drink.
#[tokio::test]
async fn unpaid_orders_hold_little_for_short_and_only_two_at_a_time() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 100, 0).await;
    let place = |ip: &'static str, email: &str| {
        let client = app.orders.clone();
        let body = checkout_with_card(email, json!([{"product": soda, "qty": 3}]), NEEDS_3DS);
        async move {
            client
                .call_from(ip, Method::POST, "/api/order/create/", Some(body))
                .await
        }
    };
    let before = shared::time::now_unix();
    let first = place("203.0.113.90", &app.alice_email).await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.body);
    let id = first.body["_id"].as_str().unwrap().to_owned();
    let stored = app
        .state
        .db
        .get_item()
        .table_name(&app.state.tables.orders)
        .key("pk", shared::dynamo::s(format!("ORDER#{id}")))
        .key("sk", shared::dynamo::s("ORDER"))
        .send()
        .await
        .unwrap();
    let hold: i64 = shared::dynamo::get_n(stored.item().unwrap(), "holdUntil").unwrap();
    assert!(
        hold <= before + 10 * 60 + 5,
        "a 3-D Secure step holds the stock for 10 minutes, not 30: {}",
        hold - before
    );
    let second = place("203.0.113.91", &app.alice_email).await;
    assert_eq!(second.status, StatusCode::ACCEPTED, "{}", second.body);
    let third = place("203.0.113.92", &app.alice_email).await;
    assert_eq!(
        third.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        third.body
    );
    assert!(third.body["message"]
        .as_str()
        .unwrap()
        .contains("unpaid orders"));
    assert_eq!(app.stock(&soda).await, 94, "the refused order took nothing");

    // The same network with other addresses: two open, the third refused.
    let other = |n: u32| format!("network.{n}.{}@example.com", uuid::Uuid::new_v4().simple());
    assert_eq!(
        place("198.51.100.90", &other(1)).await.status,
        StatusCode::ACCEPTED
    );
    assert_eq!(
        place("198.51.100.90", &other(2)).await.status,
        StatusCode::ACCEPTED
    );
    let crowded = place("198.51.100.90", &other(3)).await;
    assert_eq!(
        crowded.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        crowded.body
    );

    // Paying one makes room again for that address.
    stripe()
        .authenticate(first.body["clientSecret"].as_str().unwrap(), true)
        .unwrap();
    let paid = app
        .orders
        .call(
            Method::POST,
            &format!("/api/order/confirm/{id}/"),
            None,
            None,
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.body);
    let again = place("203.0.113.93", &app.alice_email).await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.body);

    // One order holds at most 24 of a drink, however the lines are split.
    let mut big = checkout(
        &app.alice_email,
        json!([{"product": soda, "qty": 20}, {"product": soda, "qty": 5}]),
    );
    big["email"] = json!("big.buyer@example.com");
    let refused = app.place(big).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(
        refused.body["message"]
            .as_str()
            .unwrap()
            .contains("at most 24"),
        "{}",
        refused.body
    );
}
