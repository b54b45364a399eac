//! Card payments against localstripe: paid, declined, 3-D Secure, the webhook (signed, stale, forged,
//! repeated, racing the confirm call), the expiry of unpaid orders, refunds, and Idempotency-Key retries.

use crate::helpers::{
    checkout, checkout_with_card, spawn_app, stripe, TestApp, DECLINES, NEEDS_3DS,
};
use http::{Method, StatusCode};
use serde_json::{json, Value};

fn intent_of(order: &Value) -> String {
    order["_id"].as_str().unwrap().to_owned()
}

/// The PaymentIntents localstripe holds for an order (read page by page: the tests share one localstripe).
fn intents_for(order_id: &str) -> Vec<Value> {
    let mut found = Vec::new();
    let mut after = String::new();
    loop {
        let page = stripe()
            .api("GET", &format!("/v1/payment_intents?limit=100{after}"), &[])
            .unwrap();
        let data = page["data"].as_array().unwrap();
        found.extend(
            data.iter()
                .filter(|i| i["metadata"]["order_id"] == order_id)
                .cloned(),
        );
        match (page["has_more"].as_bool(), data.last()) {
            (Some(true), Some(last)) => {
                after = format!("&starting_after={}", last["id"].as_str().unwrap())
            }
            _ => return found,
        }
    }
}

fn refunds_of(intent: &str) -> usize {
    stripe()
        .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
        .unwrap()["data"]
        .as_array()
        .unwrap()
        .len()
}

/// A pending order waiting for its 3-D Secure step: (order id, client secret, PaymentIntent id).
async fn waiting_for_3ds(app: &TestApp, soda: &str, qty: u32) -> (String, String, String) {
    let placed = app
        .place(checkout_with_card(
            &app.alice_email,
            json!([{"product": soda, "qty": qty}]),
            NEEDS_3DS,
        ))
        .await;
    assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
    assert_eq!(placed.body["status"], "requires_action");
    let id = placed.body["_id"].as_str().unwrap().to_owned();
    let secret = placed.body["clientSecret"].as_str().unwrap().to_owned();
    let intent = secret.split("_secret_").next().unwrap().to_owned();
    (id, secret, intent)
}

fn event(id: &str, kind: &str, object: Value) -> Value {
    json!({"id": id, "object": "event", "type": kind, "data": {"object": object}})
}

/// An event about a PaymentIntent as Stripe sends it: the intent as Stripe holds it now (its amount and
/// currency included), naming the order in its metadata.
fn intent_event(kind: &str, intent: &str, order: &str) -> Value {
    let mut object = stripe()
        .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
        .unwrap();
    object["metadata"] = json!({"order_id": order});
    event(
        &format!("evt_{}", uuid::Uuid::new_v4().simple()),
        kind,
        object,
    )
}

#[tokio::test]
async fn paying_with_4242_marks_the_order_paid_and_mails_the_customer_once() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let placed = app
        .place(checkout(
            &app.alice_email,
            json!([{"product": soda, "qty": 2}]),
        ))
        .await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let id = placed.body.as_str().unwrap();
    let order = app.stored(id).await;
    assert_eq!(order["status"], "paid");
    assert_eq!(order["card"]["last4"], "4242");
    let intents = intents_for(id);
    assert_eq!(intents.len(), 1);
    assert_eq!(intents[0]["status"], "succeeded");
    assert_eq!(intents[0]["amount"], 899, "the server's total in pence");
    assert_eq!(intents[0]["currency"], "gbp");
    assert_eq!(app.stock(&soda).await, 8);
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
}

#[tokio::test]
async fn a_declined_card_leaves_stock_code_and_figures_as_before() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    app.code(json!({"code": "ONCE", "discount": 10, "maxUses": 1, "oncePerEmail": true}))
        .await;
    let mut body = checkout_with_card(
        &app.alice_email,
        json!([{"product": soda, "qty": 3}]),
        DECLINES,
    );
    body["code"] = json!("ONCE");
    let declined = app.place_with_key(&body, "declined-1").await;
    assert_eq!(
        declined.status,
        StatusCode::PAYMENT_REQUIRED,
        "{}",
        declined.body
    );
    assert!(
        declined.body["message"]
            .as_str()
            .unwrap()
            .contains("declined"),
        "{}",
        declined.body
    );
    assert_eq!(app.stock(&soda).await, 10);
    assert_eq!(app.code_uses("ONCE").await, 0);
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(
        results["results"],
        json!([]),
        "nothing was paid: no month counts it"
    );
    assert_eq!(results["emails"], json!([]), "nobody paid");
    let listed = app.admin(Method::GET, "/api/order", None).await.body;
    let statuses: Vec<&str> = listed["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, vec!["expired"], "nothing is left pending");
    assert!(app.queued_mails(&app.alice_email).await.is_empty());

    // The same basket with a good card and the same key is a new attempt, and the code works for it.
    body["payment"]["paymentMethod"] = json!(crate::helpers::card(crate::helpers::PAYS));
    let paid = app.place_with_key(&body, "declined-1").await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.body);
    assert_eq!(app.stock(&soda).await, 7);
    assert_eq!(app.code_uses("ONCE").await, 1);
}

#[tokio::test]
async fn a_card_that_needs_3d_secure_answers_202_then_confirms_on_the_server() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, _) = waiting_for_3ds(&app, &soda, 2).await;
    assert_eq!(app.stored(&id).await["status"], "pending");
    assert_eq!(app.stock(&soda).await, 8, "the stock is held meanwhile");

    let early = app.confirm(&id).await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    assert_eq!(app.stored(&id).await["status"], "pending");

    stripe().authenticate(&secret, true).unwrap();
    let confirmed = app.confirm(&id).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    assert_eq!(confirmed.body, json!(id));
    assert_eq!(app.stored(&id).await["status"], "paid");
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
    // Asked again, the answer is the same and nothing is sent twice.
    assert_eq!(app.confirm(&id).await.status, StatusCode::OK);
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
}

#[tokio::test]
async fn a_failed_3d_secure_check_releases_the_order() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, _) = waiting_for_3ds(&app, &soda, 4).await;
    stripe().authenticate(&secret, false).unwrap();
    let refused = app.confirm(&id).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYMENT_REQUIRED,
        "{}",
        refused.body
    );
    assert_eq!(app.stored(&id).await["status"], "expired");
    assert_eq!(app.stock(&soda).await, 10);
    assert_eq!(app.confirm(&id).await.status, StatusCode::PAYMENT_REQUIRED);
    assert!(app.confirm("no-such-order").await.status == StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn forged_stale_or_unsigned_webhooks_change_nothing() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, intent) = waiting_for_3ds(&app, &soda, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    let body = intent_event("payment_intent.succeeded", &intent, &id);
    let raw = body.to_string();
    let now = shared::time::now_unix();
    for (signature, why) in [
        (
            orders::webhook::sign(raw.as_bytes(), "whsec_someone_else", now),
            "forged",
        ),
        (
            orders::webhook::sign(raw.as_bytes(), crate::helpers::WEBHOOK_SECRET, now - 600),
            "stale",
        ),
        ("t=1,v1=".to_owned(), "garbage"),
    ] {
        let reply = app.stripe_event(&body, Some(signature)).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{why}: {}",
            reply.body
        );
    }
    let unsigned = app
        .orders
        .call(
            Method::POST,
            "/api/order/webhook/stripe/",
            None,
            Some(body.clone()),
        )
        .await;
    assert_eq!(unsigned.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.stored(&id).await["status"], "pending");
    assert!(app.queued_mails(&app.alice_email).await.is_empty());

    // Signed properly, it moves the order; delivered again, it changes nothing.
    let first = app.stripe_event(&body, None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(first.body["outcome"], "paid");
    let again = app.stripe_event(&body, None).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body["outcome"], "repeated event");
    assert_eq!(app.stored(&id).await["status"], "paid");
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
}

#[tokio::test]
async fn the_webhook_and_the_confirm_call_racing_give_one_paid_order_and_one_email() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, intent) = waiting_for_3ds(&app, &soda, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    let body = intent_event("payment_intent.succeeded", &intent, &id);
    let (confirmed, delivered) = tokio::join!(app.confirm(&id), app.stripe_event(&body, None));
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.body);
    assert_eq!(app.stored(&id).await["status"], "paid");
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(results["results"][0]["totalOrders"], 1);
}

#[tokio::test]
async fn failed_and_cancelled_payment_events_release_a_pending_order() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    for kind in ["payment_intent.payment_failed", "payment_intent.canceled"] {
        let (id, _, intent) = waiting_for_3ds(&app, &soda, 2).await;
        assert_eq!(app.stock(&soda).await, 8);
        let reply = app
            .stripe_event(&intent_event(kind, &intent, &id), None)
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{kind}: {}", reply.body);
        assert_eq!(app.stored(&id).await["status"], "expired", "{kind}");
        assert_eq!(app.stock(&soda).await, 10, "{kind}");
    }
}

#[tokio::test]
async fn an_order_left_unpaid_past_its_hold_expires_and_gives_its_stock_back() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    app.code(json!({"code": "HOLD", "discount": 10, "maxUses": 5}))
        .await;
    let mut body = checkout_with_card(
        &app.alice_email,
        json!([{"product": soda, "qty": 3}]),
        NEEDS_3DS,
    );
    body["code"] = json!("HOLD");
    let placed = app.place(body).await;
    assert_eq!(placed.status, StatusCode::ACCEPTED, "{}", placed.body);
    let id = intent_of(&placed.body);
    assert_eq!(app.stock(&soda).await, 7);
    assert_eq!(app.code_uses("HOLD").await, 1);

    // Before the hold ends nothing happens; after it, the order expires.
    let now = shared::time::now_unix();
    let early = orders::expiry::expire_pending(&app.state, now)
        .await
        .unwrap();
    assert_eq!(early.expired, 0);
    assert_eq!(app.stored(&id).await["status"], "pending");
    let late = orders::expiry::expire_pending(&app.state, now + 31 * 60)
        .await
        .unwrap();
    assert_eq!(late.expired, 1);
    assert_eq!(app.stored(&id).await["status"], "expired");
    assert_eq!(app.stock(&soda).await, 10);
    assert_eq!(app.code_uses("HOLD").await, 0);
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(
        results["results"],
        json!([]),
        "an order never paid never counts"
    );
    assert_eq!(
        intents_for(&id)[0]["status"],
        "canceled",
        "the bank can no longer take it"
    );
    // A second run finds nothing more to do.
    let again = orders::expiry::expire_pending(&app.state, now + 31 * 60)
        .await
        .unwrap();
    assert_eq!(again.expired, 0);
    assert_eq!(app.stock(&soda).await, 10);
}

#[tokio::test]
async fn the_expiry_job_marks_paid_an_order_whose_webhook_was_lost() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, _) = waiting_for_3ds(&app, &soda, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 31 * 60)
        .await
        .unwrap();
    assert_eq!((run.paid, run.expired), (1, 0));
    assert_eq!(app.stored(&id).await["status"], "paid");
    assert_eq!(app.stock(&soda).await, 9);
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);
}

#[tokio::test]
async fn cancelling_a_paid_order_refunds_it_once_even_when_retried() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 2).await;
    let intent = intents_for(&id)[0]["id"].as_str().unwrap().to_owned();
    let uri = format!("/api/order/update/{id}");
    let cancel = || app.admin(Method::PUT, &uri, Some(json!({"status": "cancelled"})));
    let (a, b) = tokio::join!(cancel(), cancel());
    assert!(
        [a.status, b.status].contains(&StatusCode::OK),
        "{} / {}",
        a.body,
        b.body
    );
    let retried = cancel().await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    assert_eq!(retried.body["status"], "refunded");
    assert!(retried.body["refundId"]
        .as_str()
        .unwrap()
        .starts_with("re_"));
    assert_eq!(refunds_of(&intent), 1);
    assert_eq!(app.stock(&soda).await, 10, "given back once");
    let total = app
        .orders
        .call(Method::GET, "/api/order/total/", Some(&app.alice), None)
        .await
        .body;
    assert_eq!(total["totalOrders"], 0, "a refunded order does not count");
}

#[tokio::test]
async fn a_refund_made_at_stripe_reaches_the_order_through_the_webhook() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 2).await;
    let intent = intents_for(&id)[0]["id"].as_str().unwrap().to_owned();
    // Refunded in Stripe's Dashboard: the shop hears of it only through the event, which names the charge.
    stripe()
        .api(
            "POST",
            "/v1/refunds",
            &[("payment_intent", intent.as_str())],
        )
        .unwrap();
    let charge = stripe()
        .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
        .unwrap()["latest_charge"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut object = stripe()
        .api("GET", &format!("/v1/charges/{charge}"), &[])
        .unwrap();
    assert_eq!(object["amount_refunded"], 899, "{object}");
    // As Stripe sends it: the charge's own metadata does not name the order, and no refunds are embedded.
    object["metadata"] = json!({});
    let refunded = event("evt_refund_1", "charge.refunded", object);
    let reply = app.stripe_event(&refunded, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "refunded");
    assert_eq!(order["refunded"], 8.99);
    assert_eq!(order["refunds"][0]["by"], "stripe");
    assert!(order["refundId"].as_str().unwrap().starts_with("re_"));
    assert_eq!(
        app.stock(&soda).await,
        8,
        "nobody said the drinks came back"
    );
    assert_eq!(
        app.stripe_event(&refunded, None).await.body["outcome"],
        "repeated event"
    );
    assert_eq!(
        app.stored(&id).await["refunds"].as_array().unwrap().len(),
        1
    );
}

#[tokio::test]
async fn an_idempotency_key_retry_never_charges_twice() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let body = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    let first = app.place_with_key(&body, "retry-charge-1").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let mut retry = body.clone();
    retry["payment"]["paymentMethod"] = json!(crate::helpers::card(crate::helpers::PAYS));
    let (second, third) = tokio::join!(
        app.place_with_key(&retry, "retry-charge-1"),
        app.place_with_key(&retry, "retry-charge-1")
    );
    assert_eq!(second.body, first.body);
    assert_eq!(third.body, first.body);
    let id = first.body.as_str().unwrap();
    assert_eq!(intents_for(id).len(), 1, "one PaymentIntent, one charge");
    assert_eq!(app.stock(&soda).await, 9);
    assert_eq!(app.queued_mails(&app.alice_email).await.len(), 1);

    // A retry while 3-D Secure is pending answers the same challenge again.
    let pending = checkout_with_card(
        &app.alice_email,
        json!([{"product": soda, "qty": 1}]),
        NEEDS_3DS,
    );
    let asked = app.place_with_key(&pending, "retry-3ds-1").await;
    assert_eq!(asked.status, StatusCode::ACCEPTED);
    let asked_again = app.place_with_key(&pending, "retry-3ds-1").await;
    assert_eq!(
        asked_again.status,
        StatusCode::ACCEPTED,
        "{}",
        asked_again.body
    );
    assert_eq!(asked_again.body["clientSecret"], asked.body["clientSecret"]);
}

#[tokio::test]
async fn the_public_order_page_hides_contact_details_from_everyone_but_the_owner_and_admins() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let placed = app
        .place(checkout(
            &app.alice_email,
            json!([{"product": soda, "qty": 1}]),
        ))
        .await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let id = placed.body.as_str().unwrap().to_owned();
    let key = placed.headers["order-key"].to_str().unwrap().to_owned();

    // The bare id says where the order stands, and nothing of who placed it, where it goes or what it is.
    let uri = format!("/api/order/Orderdetails/{id}");
    let bare = app.orders.get(&uri).await.body;
    assert_eq!(bare["status"], "paid", "{bare}");
    assert_eq!(bare["view"], "progress", "{bare}");
    assert_eq!(bare["history"][0]["status"], "pending", "{bare}");
    assert!(bare["number"]
        .as_str()
        .is_some_and(|n| n.starts_with("PD-")));
    for private in [
        "fullname", "address", "postcode", "product", "total", "email", "phone", "card",
    ] {
        assert!(bare.get(private).is_none(), "{private} is shown: {bare}");
    }
    let stranger = app
        .orders
        .call(Method::GET, &uri, Some(&app.bob), None)
        .await
        .body;
    assert_eq!(
        stranger["view"], "progress",
        "another customer's token: {stranger}"
    );

    // The checkout's key (as the e-mails carry it) opens the page with the name and address.
    let uri_keyed = format!("/api/order/Orderdetails/{id}?key={key}");
    let public = app.orders.get(&uri_keyed).await.body;
    assert_eq!(public["status"], "paid");
    assert!(public.get("view").is_none(), "{public}");
    assert_eq!(public["product"][0]["product"], json!(soda));
    assert_eq!(public["fullname"], "Amira Haddad");
    assert_eq!(public["address"], "1 High St, Leeds LS1 1AA");
    for private in ["email", "phone", "card", "message"] {
        assert!(
            public.get(private).is_none(),
            "{private} is shown: {public}"
        );
    }
    let owner = app
        .orders
        .call(Method::GET, &uri, Some(&app.alice), None)
        .await
        .body;
    assert_eq!(owner["email"], json!(app.alice_email));
    assert_eq!(owner["card"]["last4"], "4242");
    assert_eq!(app.stored(&id).await["phone"], "07700 900123");

    // The discount code and Stripe's refund id are the owner's and the admins' too.
    app.code(json!({"code": "SECRET20", "discount": 20})).await;
    let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    body["code"] = json!("secret20");
    let coded = app.place(body).await.body.as_str().unwrap().to_owned();
    let cancelled = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{coded}"),
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    let public = app.order(&coded).await;
    assert_eq!(public["status"], "refunded", "{public}");
    for private in ["code", "refundId"] {
        assert!(
            public.get(private).is_none(),
            "{private} is shown: {public}"
        );
    }
    let uri = format!("/api/order/Orderdetails/{coded}");
    let owner = app
        .orders
        .call(Method::GET, &uri, Some(&app.alice), None)
        .await
        .body;
    assert_eq!(owner["code"], "SECRET20");
    assert!(
        owner["refundId"]
            .as_str()
            .is_some_and(|r| r.starts_with("re_")),
        "{owner}"
    );
}

#[tokio::test]
async fn the_checkout_is_told_the_publishable_key_where_stripe_js_lives_and_the_delivery_terms() {
    let app = spawn_app().await;
    let settings = app.orders.get("/api/order/payment-settings/").await;
    assert_eq!(settings.status, StatusCode::OK);
    assert_eq!(
        settings.body,
        json!({
            "publishableKey": "pk_test_orders",
            "jsUrl": "/_local/stripe.js",
            "deliveryFee": 4.99,
            "freeDeliveryFrom": 40.0
        })
    );
}

/// A payment that arrives after its order was released is refunded, and a refund Stripe fails
/// to make is not lost: it is recorded as due with the event, and the expiry job asks again until it is done.
#[tokio::test]
async fn a_late_payments_refund_that_fails_is_retried_until_done() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let (id, secret, intent) = waiting_for_3ds(&app, &soda, 1).await;
    // The shopper completes 3-D Secure and the bank takes the money...
    stripe().authenticate(&secret, true).unwrap();
    let confirmed = stripe()
        .api(
            "POST",
            &format!("/v1/payment_intents/{intent}/confirm"),
            &[],
        )
        .unwrap_or_else(|_| {
            stripe()
                .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
                .unwrap()
        });
    assert_eq!(confirmed["status"], "succeeded", "{confirmed}");
    // ... just after the shop had released the order (as an expiry whose cancel came too late would).
    app.state
        .db
        .update_item()
        .table_name(&app.state.tables.orders)
        .key("pk", shared::dynamo::s(format!("ORDER#{id}")))
        .key("sk", shared::dynamo::s("ORDER"))
        .update_expression("SET #status = :expired REMOVE gsi3pk, gsi3sk")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":expired", shared::dynamo::s("expired"))
        .send()
        .await
        .unwrap();

    // Stripe cannot be reached when the webhook tries the refund.
    let mut unreachable = app.state.clone();
    unreachable.stripe = orders::stripe::Stripe::new("http://127.0.0.1:9", "sk_test_unreachable");
    let offline = testkit::Client::new(orders::router(unreachable));
    let body = intent_event("payment_intent.succeeded", &intent, &id).to_string();
    let signature = orders::webhook::sign(
        body.as_bytes(),
        crate::helpers::WEBHOOK_SECRET,
        shared::time::now_unix(),
    );
    let request = http::Request::builder()
        .method(Method::POST)
        .uri("/api/order/webhook/stripe/")
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(axum::body::Body::from(body))
        .unwrap();
    let answered = offline.send(request).await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.body);
    assert!(
        answered.body["outcome"].as_str().unwrap().contains("due"),
        "{}",
        answered.body
    );
    let refunds = |intent: &str| {
        stripe()
            .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
            .map(|list| list["data"].as_array().map_or(0, Vec::len))
            .unwrap_or(0)
    };
    assert_eq!(refunds(&intent), 0, "nothing was refunded yet");

    // The expiry job's next run asks again: done, once, and the order says so.
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix())
        .await
        .unwrap();
    assert_eq!(run.refunded, 1);
    assert_eq!(refunds(&intent), 1);
    let order = app.stored(&id).await;
    assert!(
        order["refundId"]
            .as_str()
            .is_some_and(|r| r.starts_with("re_")),
        "{order}"
    );
    let again = orders::expiry::expire_pending(&app.state, shared::time::now_unix())
        .await
        .unwrap();
    assert_eq!(again.refunded, 0, "nothing is due any more");
    assert_eq!(refunds(&intent), 1);
}

#[tokio::test]
async fn an_order_counts_in_the_month_it_is_paid_not_the_month_it_was_placed() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    // Placed last month; the bank's 3-D Secure step is done this month.
    let (id, secret, _) = waiting_for_3ds(&app, &soda, 2).await;
    let (this_month, last_month) = app.move_a_month_back().await;
    stripe().authenticate(&secret, true).unwrap();
    let confirmed = app.confirm(&id).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "paid");
    assert!(
        order["createdAt"]
            .as_str()
            .unwrap()
            .starts_with(&last_month),
        "{order}"
    );

    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    let months: Vec<(String, Value, Value)> = results["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                format!(
                    "{}-{:02}",
                    m["_id"]["year"],
                    m["_id"]["month"].as_u64().unwrap()
                ),
                m["totalOrders"].clone(),
                m["totalPaid"].clone(),
            )
        })
        .collect();
    // Two at £2 and £4.99 delivery, all of it this month's.
    assert_eq!(months, vec![(this_month, json!(1), json!(8.99))]);
}
