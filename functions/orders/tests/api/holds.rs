//! Disputes and fraud warnings put an order on hold: not shipped, listed for the admin, closed with the
//! outcome, whatever order Stripe's events arrive in.

use crate::helpers::{event_of, spawn_app, stripe, warn_of_fraud, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};

async fn ship(app: &TestApp, id: &str) -> testkit::Reply {
    app.admin(
        Method::PUT,
        &format!("/api/order/update/{id}"),
        Some(json!({"status": "shipped"})),
    )
    .await
}

async fn held(app: &TestApp) -> Vec<String> {
    let listed = app.admin(Method::GET, "/api/order/holds/", None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    listed
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["_id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_dispute_holds_the_order_until_the_bank_decides() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 1).await;
    let other = app.paid_order(&cola, 1).await;
    let intent = app.intent_of(&id).await;
    let dispute = stripe()
        .api(
            "POST",
            "/_shim/disputes",
            &[
                ("payment_intent", intent.as_str()),
                ("reason", "fraudulent"),
            ],
        )
        .unwrap();
    // Its events name the charge's PaymentIntent; delivered twice, they hold it once.
    let opened = event_of("charge.dispute.created", dispute.clone());
    for _ in 0..2 {
        let reply = app.stripe_event(&opened, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let order = app.stored(&id).await;
    assert_eq!(order["onHold"], true, "{order}");
    assert_eq!(order["holds"].as_array().unwrap().len(), 1);
    assert_eq!(order["holds"][0]["kind"], "dispute");
    assert_eq!(order["holds"][0]["reason"], "fraudulent");
    assert_eq!(order["holds"][0]["outcome"], Value::Null);
    assert_eq!(held(&app).await, vec![id.clone()]);
    let listed = app.admin(Method::GET, "/api/order", None).await.body;
    let marked = listed["product"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["_id"] == id.as_str())
        .unwrap();
    assert_eq!(marked["onHold"], true, "the admin's list marks it");
    // Not shipped while held, and the shopper's page says nothing of it.
    let refused = ship(&app, &id).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("on hold"));
    assert_eq!(ship(&app, &other).await.status, StatusCode::OK);
    let public = app.order(&id).await;
    assert!(
        public.get("holds").is_none() && public.get("onHold").is_none(),
        "{public}"
    );
    // An admin cannot release a dispute: the bank closes it.
    let release = app
        .admin(
            Method::POST,
            &format!("/api/order/holds/{id}/release"),
            Some(json!({"note": "checked"})),
        )
        .await;
    assert_eq!(release.status, StatusCode::CONFLICT, "{}", release.body);

    let closed = stripe()
        .api(
            "POST",
            &format!("/_shim/disputes/{}/close", dispute["id"].as_str().unwrap()),
            &[("status", "won")],
        )
        .unwrap();
    let reply = app
        .stripe_event(&event_of("charge.dispute.closed", closed), None)
        .await;
    assert_eq!(reply.body["outcome"], "hold closed", "{}", reply.body);
    let order = app.stored(&id).await;
    assert_eq!(order["onHold"], false);
    assert_eq!(order["holds"][0]["outcome"], "won");
    assert!(held(&app).await.is_empty());
    assert_eq!(ship(&app, &id).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_dispute_closed_before_its_opening_arrives_leaves_the_order_free() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 1).await;
    let intent = app.intent_of(&id).await;
    let dispute = stripe()
        .api(
            "POST",
            "/_shim/disputes",
            &[("payment_intent", intent.as_str())],
        )
        .unwrap();
    let closed = stripe()
        .api(
            "POST",
            &format!("/_shim/disputes/{}/close", dispute["id"].as_str().unwrap()),
            &[("status", "lost")],
        )
        .unwrap();
    for (kind, object) in [
        ("charge.dispute.closed", closed),
        ("charge.dispute.created", dispute),
    ] {
        let reply = app.stripe_event(&event_of(kind, object), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let order = app.stored(&id).await;
    assert_eq!(order["onHold"], false, "{order}");
    assert_eq!(order["holds"][0]["outcome"], "lost");
    assert!(held(&app).await.is_empty());
}

#[tokio::test]
async fn a_fraud_warning_holds_the_order_until_an_admin_releases_it_or_it_is_refunded() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let checked = app.paid_order(&cola, 1).await;
    let refunded = app.paid_order(&cola, 1).await;
    warn_of_fraud(&app, &checked).await;
    warn_of_fraud(&app, &refunded).await;
    let mut listed = held(&app).await;
    listed.sort();
    let mut both = vec![checked.clone(), refunded.clone()];
    both.sort();
    assert_eq!(listed, both);
    assert_eq!(
        app.stored(&checked).await["holds"][0]["kind"],
        "fraud-warning"
    );
    assert_eq!(ship(&app, &checked).await.status, StatusCode::CONFLICT);

    let empty = app
        .admin(
            Method::POST,
            &format!("/api/order/holds/{checked}/release"),
            Some(json!({"note": " "})),
        )
        .await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.body
    );
    let released = app
        .admin(
            Method::POST,
            &format!("/api/order/holds/{checked}/release"),
            Some(json!({"note": "The cardholder confirmed the order by phone"})),
        )
        .await;
    assert_eq!(released.status, StatusCode::OK, "{}", released.body);
    assert_eq!(released.body["onHold"], false);
    assert_eq!(
        released.body["holds"][0]["outcome"],
        "released: The cardholder confirmed the order by phone"
    );
    assert_eq!(ship(&app, &checked).await.status, StatusCode::OK);
    let again = app
        .admin(
            Method::POST,
            &format!("/api/order/holds/{checked}/release"),
            Some(json!({"note": "again"})),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);

    // Refunding the warned payment in full closes its hold.
    let cancelled = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{refunded}"),
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    assert_eq!(cancelled.body["holds"][0]["outcome"], "refunded");
    assert!(held(&app).await.is_empty());
}
