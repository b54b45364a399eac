//! Stock cannot be held hostage: 3-D Secure orders that are never paid may hold only a share
//! of a drink (crate::unpaid), counted from the start of the bank's step and given back whenever such an
//! order moves on; cards that pay at once are never counted; the admin sees what is held and by whom.

use crate::helpers::{checkout, checkout_with_card, spawn_app, stripe, TestApp, NEEDS_3DS};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use testkit::Reply;

/// A 3-D Secure checkout of `qty` of `drink` by `email`, from viewer address `ip`.
async fn place_3ds_from(app: &TestApp, ip: &str, email: &str, drink: &str, qty: u32) -> Reply {
    let body = checkout_with_card(email, json!([{"product": drink, "qty": qty}]), NEEDS_3DS);
    app.orders
        .call_from(ip, Method::POST, "/api/order/create/", Some(body))
        .await
}

async fn stock_holds(app: &TestApp) -> Value {
    let listed = app
        .admin(Method::GET, "/api/order/stock-holds/", None)
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    listed.body
}

/// The admin view's entry for `drink`, if it has one.
async fn hold_of(app: &TestApp, drink: &str) -> Option<Value> {
    stock_holds(app)
        .await
        .as_array()
        .unwrap()
        .iter()
        .find(|hold| hold["_id"] == drink)
        .cloned()
}

/// The drink's counter as stored (0 when never written).
async fn held(app: &TestApp, drink: &str) -> i64 {
    let found = app
        .state
        .db
        .get_item()
        .table_name(&app.state.tables.orders)
        .key("pk", shared::dynamo::s(format!("UNPAID#drink#{drink}")))
        .key("sk", shared::dynamo::s("DRINK"))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    found
        .item()
        .and_then(|item| shared::dynamo::get_n::<i64>(item, "held").ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn three_dee_secure_orders_hold_at_most_half_a_drink_and_give_it_back_when_they_move_on() {
    let app = spawn_app().await;
    let cola = app.drink("Hostage Cola", 1.5, 30, 0).await;
    let emails = [
        app.alice_email.clone(),
        testkit::new_email("made-up-1"),
        testkit::new_email("made-up-2"),
    ];
    let mut placed = Vec::new();
    for (i, email) in emails.iter().enumerate() {
        let reply = place_3ds_from(&app, &format!("198.51.100.{}", i + 1), email, &cola, 5).await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.body);
        placed.push((
            reply.body["_id"].as_str().unwrap().to_owned(),
            reply.body["clientSecret"].as_str().unwrap().to_owned(),
        ));
    }
    assert_eq!(app.stock(&cola).await, 15);
    assert_eq!(held(&app, &cola).await, 15);
    let hold = hold_of(&app, &cola).await.expect("the cola is held");
    assert_eq!(hold["name"], "Hostage Cola");
    assert_eq!(hold["held"], 15);
    assert_eq!(hold["cap"], 15, "half of 30");
    assert_eq!(hold["stock"], 15);
    let orders = hold["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 3, "{hold}");
    for order in orders {
        assert_eq!(order["units"], 5);
        assert!(order["number"].as_str().unwrap().starts_with("PD-"));
        assert!(
            order["holdUntil"].as_str().unwrap().ends_with('Z'),
            "{order}"
        );
        assert!(emails.iter().any(|e| order["email"] == *e.as_str()));
        assert!(order["client"].as_str().unwrap().starts_with("198.51.100."));
    }

    // A fourth, from yet another made-up address and network, is refused, charged nothing, holds nothing.
    let fourth = place_3ds_from(
        &app,
        "203.0.113.9",
        &testkit::new_email("made-up-3"),
        &cola,
        5,
    )
    .await;
    assert_eq!(fourth.status, StatusCode::CONFLICT, "{}", fourth.body);
    assert_eq!(
        fourth.body["message"],
        "Many of Hostage Cola are waiting in unpaid orders just now, so nothing was charged or held: try again in a few minutes"
    );
    assert_eq!(fourth.headers["retry-after"], "300");
    assert_eq!(
        app.stock(&cola).await,
        15,
        "the refused order's stock is back"
    );
    assert_eq!(held(&app, &cola).await, 15);
    let refused_id = fourth.body["_id"].as_str();
    assert!(
        refused_id.is_none(),
        "a refusal is a message: {}",
        fourth.body
    );

    // One is paid through its bank's step, one cancelled by its shopper, one expired.
    let (paid, secret) = &placed[1];
    stripe().authenticate(secret, true).unwrap();
    let confirmed = app.confirm(paid).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    assert_eq!(held(&app, &cola).await, 10);

    let (cancelled, _) = &placed[0];
    let cancel = app
        .orders
        .call(
            Method::POST,
            &format!("/api/order/cancel/{cancelled}"),
            Some(&app.alice),
            None,
        )
        .await;
    assert_eq!(cancel.status, StatusCode::OK, "{}", cancel.body);
    assert_eq!(app.stored(cancelled).await["status"], "cancelled");
    assert_eq!(held(&app, &cola).await, 5);

    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 31 * 60)
        .await
        .unwrap();
    assert_eq!(run.expired, 1, "{run:?}");
    assert_eq!(app.stored(&placed[2].0).await["status"], "expired");
    assert_eq!(held(&app, &cola).await, 0);
    assert_eq!(app.stock(&cola).await, 25, "5 sold, the rest back on sale");
    assert!(
        hold_of(&app, &cola).await.is_none(),
        "nothing held: {}",
        stock_holds(&app).await
    );
}

#[tokio::test]
async fn a_card_that_pays_at_once_is_never_counted_nor_refused() {
    let app = spawn_app().await;
    let juice = app.drink("Big Juice", 1.0, 30, 0).await;
    let placed = app
        .place(checkout(
            &testkit::new_email("bulk"),
            json!([{"product": juice, "qty": 20}]),
        ))
        .await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    assert_eq!(app.stock(&juice).await, 10);
    assert_eq!(held(&app, &juice).await, 0);
    assert!(hold_of(&app, &juice).await.is_none());
}

#[tokio::test]
async fn a_drink_with_few_left_can_still_be_bought_by_a_three_dee_secure_card() {
    let app = spawn_app().await;
    let rare = app.drink("Rare Tonic", 3.0, 4, 0).await;
    let placed = place_3ds_from(&app, "198.51.100.40", &app.alice_email, &rare, 4).await;
    assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
    assert_eq!(held(&app, &rare).await, 4);
    let hold = hold_of(&app, &rare).await.expect("the tonic is held");
    assert_eq!(
        (hold["held"].clone(), hold["cap"].clone()),
        (json!(4), json!(4))
    );
    assert_eq!(hold["stock"], 0);

    // Refused by the bank after its step: released, and the units go back to the counter.
    let id = placed.body["_id"].as_str().unwrap();
    let secret = placed.body["clientSecret"].as_str().unwrap();
    stripe().authenticate(secret, false).unwrap();
    let refused = app.confirm(id).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYMENT_REQUIRED,
        "{}",
        refused.body
    );
    assert_eq!(held(&app, &rare).await, 0);
    assert_eq!(app.stock(&rare).await, 4);
}

#[tokio::test]
async fn a_failed_payment_event_gives_the_held_units_back_once() {
    let app = spawn_app().await;
    let soda = app.drink("Event Soda", 2.0, 10, 0).await;
    let placed = place_3ds_from(&app, "198.51.100.50", &app.alice_email, &soda, 3).await;
    assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
    let id = placed.body["_id"].as_str().unwrap();
    assert_eq!(held(&app, &soda).await, 3);
    let intent = app.intent_of(id).await;
    let mut object = crate::helpers::intent_at_stripe(&intent);
    object["metadata"] = json!({"order_id": id});
    let event = crate::helpers::event_of("payment_intent.payment_failed", object);
    for _ in 0..2 {
        let reply = app.stripe_event(&event, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert_eq!(app.stored(id).await["status"], "expired");
    assert_eq!(held(&app, &soda).await, 0, "given back once, not twice");
}

#[tokio::test]
async fn only_an_admin_sees_what_unpaid_orders_hold() {
    let app = spawn_app().await;
    let anonymous = app.orders.get("/api/order/stock-holds/").await;
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.body
    );
    let customer = app
        .orders
        .call(
            Method::GET,
            "/api/order/stock-holds/",
            Some(&app.alice),
            None,
        )
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN, "{}", customer.body);
    assert_eq!(stock_holds(&app).await, json!([]));
}
