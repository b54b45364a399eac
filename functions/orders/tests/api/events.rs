//! The API Gateway event fixtures in events/orders, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{spawn_app, WEBHOOK_SECRET};
use http::Method;
use serde_json::json;

#[tokio::test]
async fn every_orders_event_fixture_is_served() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let order = app.paid_order(&soda, 1).await;
    let dir = testkit::emulator::repo_root().join("events/orders");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        orders::routes().len(),
        "one event per orders route"
    );
    for name in [
        "create-order",
        "show-order",
        "list-my-orders",
        "show-my-total",
        "list-orders",
        "update-order",
        "show-results",
        "show-payment-settings",
        "quote-order",
        "confirm-order",
        "receive-stripe-event",
        "create-refund",
        "list-held-orders",
        "list-stock-holds",
        "show-reconciliation",
        "release-hold",
    ] {
        if name == "release-hold" {
            // An order is released from a hold only when it is on one: a fraud warning puts it there.
            crate::helpers::warn_of_fraud(&app, &order).await;
        }
        let text = std::fs::read_to_string(dir.join(format!("{name}.json")))
            .unwrap()
            .replace("PRODUCT_ID", &soda)
            .replace("ORDER_ID", &order)
            .replace("EMAIL", &app.alice_email)
            .replace("ADMIN_TOKEN", &app.admin)
            .replace("CUSTOMER_TOKEN", &app.alice)
            .replace("MONTH", &shared::time::now_iso()[..7])
            .replace(
                "PAYMENT_METHOD",
                &crate::helpers::card(crate::helpers::PAYS),
            );
        let text = signed_if_stripe(&text);
        let reply = app.orders.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{name}: {} {}",
            reply.status,
            reply.body
        );
    }
    app.admin(
        Method::PUT,
        &format!("/api/order/update/{order}"),
        Some(json!({"status": "delivered"})),
    )
    .await;
    // A delivered order is archived; only one never paid can be deleted.
    let unpaid = app.cancelled_unpaid_order(&soda, 1).await;
    for (name, id) in [("archive-order", &order), ("delete-order", &unpaid)] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json")))
            .unwrap()
            .replace("ORDER_ID", id)
            .replace("ADMIN_TOKEN", &app.admin);
        let reply = app.orders.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{name}: {} {}",
            reply.status,
            reply.body
        );
    }
}

/// Stripe signs each delivery over its body and time: the fixture's `STRIPE_SIGNATURE` becomes that.
fn signed_if_stripe(event_json: &str) -> String {
    if !event_json.contains("STRIPE_SIGNATURE") {
        return event_json.to_owned();
    }
    let event: serde_json::Value = serde_json::from_str(event_json).unwrap();
    let body = event["body"].as_str().unwrap();
    let signature =
        orders::webhook::sign(body.as_bytes(), WEBHOOK_SECRET, shared::time::now_unix());
    event_json.replace("STRIPE_SIGNATURE", &signature)
}
