//! The shop's Stripe client when Stripe fails: one retry with the same idempotency key, a refund that got no
//! answer looked up before it is called failed (and settled by the expiry job when even that fails), each
//! confirmation its own call, and a released order's payment cancelled (or, if it completes anyway,
//! refunded with the shopper told). Each test's shop has a Stripe key of its own, so the shim's faults touch
//! its calls only.

use crate::helpers::{
    clear_faults, event_of, fault, intent_at_stripe, spawn_app_with_own_stripe, stripe, TestApp,
};
use http::{Method, StatusCode};
use serde_json::json;

fn refunds_at_stripe(intent: &str) -> Vec<serde_json::Value> {
    stripe()
        .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
        .unwrap()["data"]
        .as_array()
        .unwrap()
        .clone()
}

async fn paid(app: &TestApp) -> (String, String) {
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 1).await;
    let intent = app.intent_of(&id).await;
    (id, intent)
}

const GOODWILL: &str = r#"{"lines": [], "amount": 2.5, "reason": "Goodwill"}"#;

fn goodwill() -> serde_json::Value {
    serde_json::from_str(GOODWILL).unwrap()
}

#[tokio::test]
async fn a_call_stripe_did_not_answer_is_made_once_more_with_the_same_key() {
    let app = spawn_app_with_own_stripe().await;
    let (id, intent) = paid(&app).await;
    fault(&app, "down", 1, "/v1/refunds", "POST", 0.0);
    let reply = app.refund(&id, goodwill()).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(refunds_at_stripe(&intent).len(), 1);
}

#[tokio::test]
async fn a_refund_whose_answers_were_lost_is_found_at_stripe_and_never_made_twice() {
    let app = spawn_app_with_own_stripe().await;
    let (id, intent) = paid(&app).await;
    // Stripe makes the refund but its answers come too late, to the first call and to the retry alike.
    fault(&app, "slow", 2, "/v1/refunds", "POST", 1.5);
    let reply = app.refund(&id, goodwill()).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(
        refunds_at_stripe(&intent).len(),
        1,
        "the retry's key found the first refund"
    );
    let order = app.stored(&id).await;
    assert_eq!(order["refunded"], 2.5);
    assert_eq!(order["refunding"], serde_json::Value::Null);
}

#[tokio::test]
async fn a_refund_stripe_never_got_is_looked_up_then_called_failed_and_the_order_is_free() {
    let app = spawn_app_with_own_stripe().await;
    let (id, intent) = paid(&app).await;
    fault(&app, "down", 2, "/v1/refunds", "POST", 0.0);
    let reply = app.refund(&id, goodwill()).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.body
    );
    assert!(
        reply.body["message"]
            .as_str()
            .unwrap()
            .contains("nothing was refunded"),
        "{}",
        reply.body
    );
    assert!(refunds_at_stripe(&intent).is_empty());
    let order = app.stored(&id).await;
    assert_eq!(order["refunding"], serde_json::Value::Null, "{order}");
    assert_eq!(order["refunded"], 0.0);
    // Free again: the next try goes through.
    let again = app.refund(&id, goodwill()).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
}

#[tokio::test]
async fn a_refund_whose_fate_is_unknown_holds_the_order_until_the_expiry_job_settles_it() {
    let app = spawn_app_with_own_stripe().await;
    let (id, intent) = paid(&app).await;
    // The refund is made but never answered, and the look-up cannot reach Stripe either.
    fault(&app, "slow", 2, "/v1/refunds", "POST", 1.5);
    fault(&app, "down", 2, "/v1/refunds", "GET", 0.0);
    let reply = app.refund(&id, goodwill()).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.body
    );
    assert!(
        reply.body["message"]
            .as_str()
            .unwrap()
            .contains("may or may not"),
        "{}",
        reply.body
    );
    let order = app.stored(&id).await;
    assert_eq!(order["refunding"], 2.5, "{order}");
    // Meanwhile the order neither ships nor takes a second refund.
    let shipped = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "shipped"})),
        )
        .await;
    assert_eq!(shipped.status, StatusCode::CONFLICT, "{}", shipped.body);
    let second = app.refund(&id, goodwill()).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.body);

    clear_faults(&app);
    let early = orders::expiry::expire_pending(&app.state, shared::time::now_unix())
        .await
        .unwrap();
    assert_eq!(early.claims, 0, "an admin's request may still be under way");
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 300)
        .await
        .unwrap();
    assert_eq!(run.claims, 1, "{run:?}");
    let order = app.stored(&id).await;
    assert_eq!(order["refunded"], 2.5, "{order}");
    assert_eq!(order["refunding"], serde_json::Value::Null);
    assert_eq!(refunds_at_stripe(&intent).len(), 1);
}

#[tokio::test]
async fn a_claim_stripe_holds_no_refund_for_is_dropped_by_the_expiry_job() {
    let app = spawn_app_with_own_stripe().await;
    let (id, _) = paid(&app).await;
    fault(&app, "down", 2, "/v1/refunds", "POST", 0.0);
    fault(&app, "down", 2, "/v1/refunds", "GET", 0.0);
    let reply = app.refund(&id, goodwill()).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.body
    );
    assert_eq!(app.stored(&id).await["refunding"], 2.5);
    clear_faults(&app);
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 300)
        .await
        .unwrap();
    assert_eq!(run.claims, 1, "{run:?}");
    let order = app.stored(&id).await;
    assert_eq!(order["refunding"], serde_json::Value::Null, "{order}");
    assert_eq!(order["refunded"], 0.0);
    assert_eq!(order["status"], "paid");
}

#[tokio::test]
async fn each_confirmation_is_its_own_call_at_stripe() {
    let app = spawn_app_with_own_stripe().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (id, secret, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    // The checkout confirmed once (the bank asked for 3-D Secure); confirming again is a new call, which
    // Stripe refuses for a payment already complete, never the first call's "requires action" replayed.
    let again = app.state.stripe.confirm_intent(&intent, &id).await;
    match again {
        Err(orders::stripe::StripeError::Refused { status, .. }) => assert_eq!(status, 400),
        other => panic!("a second confirmation answered {other:?}"),
    }
    let confirmed = app
        .orders
        .call(
            Method::POST,
            &format!("/api/order/confirm/{id}/"),
            None,
            None,
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
}

#[tokio::test]
async fn a_released_orders_payment_that_completes_anyway_is_refunded_and_the_shopper_told() {
    let app = spawn_app_with_own_stripe().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (id, secret, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    // The bank says the payment failed, and Stripe cannot be reached to cancel the PaymentIntent.
    fault(&app, "down", 2, "/v1/payment_intents", "POST", 0.0);
    let failed = event_of("payment_intent.payment_failed", intent_at_stripe(&intent));
    let reply = app.stripe_event(&failed, None).await;
    assert_eq!(reply.body["outcome"], "released", "{}", reply.body);
    clear_faults(&app);
    // ... and the shopper then completes 3-D Secure: the bank takes the money for a released order.
    stripe().authenticate(&secret, true).unwrap();
    let outcomes = app.deliver_events_about(&intent).await;
    assert!(
        outcomes
            .iter()
            .any(|o| o == "payment_intent.succeeded refunded a late payment"),
        "{outcomes:?}"
    );
    assert_eq!(refunds_at_stripe(&intent).len(), 1);
    let order = app.order(&id).await;
    assert_eq!(order["status"], "expired");
    assert_eq!(order["refunds"][0]["late"], true, "{order}");
    assert_eq!(order["refunded"], order["total"]);
    let told: Vec<_> = app
        .queued_mails(&app.alice_email)
        .await
        .into_iter()
        .filter(|(subject, _)| subject == "Your payment for order PD-10001 has been refunded")
        .collect();
    assert_eq!(told.len(), 1);
    assert!(told[0].1.contains("£7.99"), "{}", told[0].1);
    // The expiry job finds the cancel it owed settled: the payment is refunded.
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix())
        .await
        .unwrap();
    assert_eq!((run.cancelled, run.failed), (1, 0), "{run:?}");
    assert_eq!(refunds_at_stripe(&intent).len(), 1, "refunded once");
}
