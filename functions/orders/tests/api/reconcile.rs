//! The month's reconciliation: the shop's payments and refunds beside Stripe's balance transactions. The
//! tests share one localstripe, whose balance holds every test's charges: each test reads the lines and
//! differences about its own payments.

use crate::helpers::{spawn_app, stripe};
use http::{Method, StatusCode};
use serde_json::{json, Value};

fn about<'a>(report: &'a Value, key: &str, value: &str) -> Vec<&'a Value> {
    report[key]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["paymentIntent"] == value || row["reference"] == value)
        .collect()
}

#[tokio::test]
async fn a_month_of_payments_and_refunds_matches_stripe_and_each_difference_is_listed() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 2).await;
    let intent = app.intent_of(&id).await;
    let refund = app
        .refund(
            &id,
            json!({"lines": [{"product": cola, "qty": 1}], "reason": "Dented"}),
        )
        .await;
    assert_eq!(refund.status, StatusCode::CREATED, "{}", refund.body);
    let month = &shared::time::now_iso()[..7];
    let report = app
        .admin(
            Method::GET,
            &format!("/api/order/reconciliation/{month}"),
            None,
        )
        .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    let report = report.body;
    assert_eq!(report["month"], month);
    assert_eq!(report["shop"]["payments"], 1);
    // Two at £3 and £4.99 delivery.
    assert_eq!(report["shop"]["paid"], 10.99);
    assert_eq!(report["shop"]["refunds"], 1);
    assert_eq!(report["shop"]["refunded"], 3.0);
    assert_eq!(report["shop"]["net"], 7.99);
    assert!(
        about(&report, "differences", &intent).is_empty(),
        "{report}"
    );
    let lines = about(&report, "lines", &intent);
    let kinds: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (l["side"].as_str().unwrap(), l["kind"].as_str().unwrap()))
        .collect();
    for expected in [
        ("shop", "payment"),
        ("shop", "refund"),
        ("stripe", "charge"),
        ("stripe", "refund"),
    ] {
        assert!(kinds.contains(&expected), "{expected:?} in {kinds:?}");
    }
    let charge = lines
        .iter()
        .find(|l| l["side"] == "stripe" && l["kind"] == "charge")
        .unwrap();
    // Stripe's fee on £10.99 (the shim's stand-in price, 1.5% + 20p): 36p.
    assert_eq!(charge["fee"], 0.36);
    assert_eq!(charge["net"], 10.63);

    // A refund made in Stripe's Dashboard whose event never reached the shop: listed.
    let dashboard = stripe()
        .api(
            "POST",
            "/v1/refunds",
            &[("payment_intent", intent.as_str()), ("amount", "100")],
        )
        .unwrap();
    let report = app
        .admin(
            Method::GET,
            &format!("/api/order/reconciliation/{month}"),
            None,
        )
        .await
        .body;
    let differences = about(&report, "differences", dashboard["id"].as_str().unwrap());
    assert_eq!(differences.len(), 1, "{report}");
    assert_eq!(differences[0]["kind"], "missing-in-shop");
    assert_eq!(differences[0]["what"], "refund");
    assert_eq!(differences[0]["stripe"], 1.0);
    // Once its event arrives, the shop has it too.
    app.deliver_events_about(&intent).await;
    let report = app
        .admin(
            Method::GET,
            &format!("/api/order/reconciliation/{month}"),
            None,
        )
        .await
        .body;
    assert!(
        about(&report, "differences", &intent).is_empty(),
        "{report}"
    );

    // The command line's report is the same, as text.
    let answer = orders::expiry::handle_event(
        &app.state,
        &json!({"task": "reconcile", "month": month}),
        shared::time::now_unix(),
    )
    .await
    .unwrap();
    let text = answer["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("Reconciliation for {month}")),
        "{text}"
    );
    let paid = text.lines().find(|l| l.contains("paid orders")).unwrap();
    assert!(paid.contains(" 1 ") && paid.ends_with("£10.99"), "{text}");
    for bad in ["2026-13", "last-month"] {
        let reply = app
            .admin(
                Method::GET,
                &format!("/api/order/reconciliation/{bad}"),
                None,
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            reply.body
        );
    }
    let customer = app
        .orders
        .call(
            Method::GET,
            &format!("/api/order/reconciliation/{month}"),
            Some(&app.alice),
            None,
        )
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN);
}
