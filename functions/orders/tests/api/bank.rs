//! What the bank is told about an order, and what the shopper gets when the bank cannot be reached.

use crate::helpers::{checkout, spawn_app, spawn_app_with_stripe, stripe};
use http::{Method, StatusCode};
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpListener;

/// The stored order's PaymentIntent, as Stripe holds it.
async fn intent_of(app: &crate::helpers::TestApp, order: &str) -> serde_json::Value {
    let item = app
        .state
        .db
        .get_item()
        .table_name(&app.state.tables.orders)
        .key(
            "pk",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("ORDER#{order}")),
        )
        .key(
            "sk",
            aws_sdk_dynamodb::types::AttributeValue::S("ORDER".into()),
        )
        .send()
        .await
        .unwrap();
    let intent = item.item().unwrap()["paymentIntent"]
        .as_s()
        .unwrap()
        .clone();
    stripe()
        .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
        .unwrap()
}

#[tokio::test]
async fn the_payment_names_the_order_and_where_it_goes() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    body.as_object_mut().unwrap().remove("address");
    body["addressLine1"] = json!(" Flat 2 ");
    body["addressLine2"] = json!("3 Mill Lane");
    body["town"] = json!("York");
    body["postcode"] = json!("yo1  7hh");
    let placed = app.place(body).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let id = placed.body.as_str().unwrap();
    let order = app.stored(id).await;
    assert_eq!(
        (
            &order["addressLine1"],
            &order["addressLine2"],
            &order["town"],
            &order["postcode"]
        ),
        (
            &json!("Flat 2"),
            &json!("3 Mill Lane"),
            &json!("York"),
            &json!("YO1 7HH")
        )
    );
    assert_eq!(order["address"], "Flat 2\n3 Mill Lane\nYork\nYO1 7HH");

    let intent = intent_of(&app, id).await;
    let number = order["number"].as_str().unwrap();
    assert_eq!(intent["description"], format!("Order {number}"));
    assert_eq!(intent["metadata"]["order_number"], number);
    assert_eq!(intent["metadata"]["order_id"], id);
    assert_eq!(
        intent["shipping"],
        json!({"name": "Amira Haddad", "phone": "07700 900123", "address": {
            "line1": "Flat 2", "line2": "3 Mill Lane", "city": "York", "postal_code": "YO1 7HH", "country": "GB"}})
    );
}

#[tokio::test]
async fn an_address_in_one_box_still_orders_and_a_bad_postcode_is_named() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let one_box = app.paid_order(&soda, 1).await;
    let order = app.stored(&one_box).await;
    assert_eq!(order["address"], "1 High St, Leeds LS1 1AA");
    assert_eq!(
        (&order["postcode"], &order["town"]),
        (&json!(null), &json!(null))
    );
    let intent = intent_of(&app, &one_box).await;
    assert_eq!(
        intent["shipping"]["address"]["line1"],
        "1 High St, Leeds LS1 1AA"
    );

    let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    body["addressLine1"] = json!("1 High St");
    body["town"] = json!("Leeds");
    body["postcode"] = json!("LS1");
    let refused = app.place(body.clone()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.body["message"],
        "postcode must be a UK postcode, e.g. SW1A 1AA"
    );
    body.as_object_mut().unwrap().remove("town");
    body["postcode"] = json!("LS1 1AA");
    let refused = app.place(body).await;
    assert_eq!(refused.body["message"], "town must be 2 to 60 characters");
    assert_eq!(app.stock(&soda).await, 9, "the refused orders held nothing");
}

/// A stand-in for Stripe that reads cards but answers `intents` for every PaymentIntent call (a 503, or a
/// connection dropped unanswered): the bank gone after the card was read.
fn stripe_that_fails_intents(intents: Option<&'static str>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head).to_string();
            let reply = if head.starts_with("GET /v1/payment_methods/") {
                (
                    200,
                    json!({"id": "pm_standin", "card": {"brand": "visa", "last4": "4242"}})
                        .to_string(),
                )
            } else {
                match intents {
                    Some(body) => (503, body.to_owned()),
                    None => continue,
                }
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                reply.0,
                reply.1.len(),
                reply.1
            );
        }
    });
    base
}

#[tokio::test]
async fn a_bank_out_of_reach_is_a_503_that_charges_and_holds_nothing() {
    // Nothing listens here: the card cannot even be read.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let nowhere = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    for base in [
        nowhere,
        stripe_that_fails_intents(Some(r#"{"error": {"message": "Stripe is down"}}"#)),
        stripe_that_fails_intents(None),
    ] {
        let app = spawn_app_with_stripe(&base).await;
        let soda = app.drink("Soda", 2.0, 5, 0).await;
        let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 2}]));
        body["payment"]["paymentMethod"] = json!("pm_standin");
        let reply = app.place(body).await;
        assert_eq!(
            reply.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{base}: {}",
            reply.body
        );
        assert_eq!(
            reply.body["message"],
            "We could not reach the bank: nothing was charged. Please try again in a moment."
        );
        assert_eq!(app.stock(&soda).await, 5, "{base}: nothing held");
        let listed = app.admin(Method::GET, "/api/order", None).await.body;
        let held: Vec<_> = listed["product"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|order| order["status"] == "pending")
            .collect();
        assert!(held.is_empty(), "{base}: {listed}");
    }
}
