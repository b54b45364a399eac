//! Refunds as records of their own: an admin's (whole, lines, delivery, an amount; from paid, shipped or
//! delivered), Stripe's events driving them, a refund racing "shipped", credit notes, the refund e-mail, the
//! results, and deleted drinks and codes that never block an order's move.

use crate::helpers::{checkout, event_of, intent_at_stripe, spawn_app, stripe, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};

async fn put_status(app: &TestApp, id: &str, status: &str) -> testkit::Reply {
    app.admin(
        Method::PUT,
        &format!("/api/order/update/{id}"),
        Some(json!({"status": status})),
    )
    .await
}

/// What Stripe holds as refunded for a payment, in pence.
fn refunded_at_stripe(intent: &str) -> i64 {
    stripe()
        .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
        .unwrap()["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] != "failed")
        .map(|r| r["amount"].as_i64().unwrap())
        .sum()
}

async fn results_month(app: &TestApp) -> Value {
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    results["results"][0].clone()
}

/// The results of `month` (`YYYY-MM`), or null when nothing counted in it.
async fn results_of(app: &TestApp, month: &str) -> Value {
    let (year, number) = month.split_once('-').unwrap();
    let id = json!({"year": year.parse::<u32>().unwrap(), "month": number.parse::<u32>().unwrap()});
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    results["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["_id"] == id)
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_partial_refund_of_chosen_lines_is_recorded_with_its_credit_note_and_restocks_only_them()
{
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let lemon = app.drink("Lemonade", 2.5, 10, 0).await;
    let placed = app
        .place(checkout(
            &app.alice_email,
            json!([{"product": cola, "qty": 2}, {"product": lemon, "qty": 2}]),
        ))
        .await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let id = placed.body.as_str().unwrap().to_owned();
    let intent = app.intent_of(&id).await;
    // £6 + £5 + £4.99 delivery = £15.99.
    let reply = app
        .refund(
            &id,
            json!({"lines": [{"product": cola, "qty": 1}], "reason": "One can arrived dented", "restock": true}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(reply.body["amount"], 3.0);
    assert_eq!(reply.body["status"], "succeeded");
    assert_eq!(reply.body["by"], "admin@example.com");
    assert_eq!(
        reply.body["lines"],
        json!([{"product": cola, "name": "Cola", "qty": 1}])
    );
    assert_eq!(reply.body["creditNote"]["number"], "CN-10001");
    // VAT at 20% inside £3.00: 50p.
    assert_eq!(reply.body["creditNote"]["vat"], 0.5);
    assert_eq!(refunded_at_stripe(&intent), 300);
    assert_eq!(
        app.stock(&cola).await,
        9,
        "the dented can's unit is back on sale"
    );
    assert_eq!(app.stock(&lemon).await, 8);

    let order = app.stored(&id).await;
    assert_eq!(order["status"], "paid", "partly refunded, still paid");
    assert_eq!(order["refunded"], 3.0);
    assert_eq!(order["refunds"].as_array().unwrap().len(), 1);

    // The customer is told: how much, for what, when, and the credit note.
    let mails = app.queued_mails(&app.alice_email).await;
    let (subject, html) = mails
        .iter()
        .find(|(subject, _)| subject.starts_with("A refund of £3.00"))
        .expect("the refund e-mail");
    assert!(subject.contains("PD-10001"), "{subject}");
    assert!(html.contains("1 × Cola"), "{html}");
    assert!(html.contains("5 to 10 working days"), "{html}");
    assert!(html.contains("credit note CN-10001"), "{html}");
    assert!(
        html.contains(&format!("/order/{id}/receipt?creditNote=re_")),
        "{html}"
    );

    // The delivery and an amount: what is left, the status refunded, the code-free order's credit notes in turn.
    let rest = app
        .refund(
            &id,
            json!({"lines": [], "delivery": true, "amount": 12.99, "reason": "Cancelled within 14 days"}),
        )
        .await;
    assert_eq!(rest.status, StatusCode::CREATED, "{}", rest.body);
    assert_eq!(rest.body["creditNote"]["number"], "CN-10002");
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "refunded");
    assert_eq!(order["refunded"], 15.99);
    assert_eq!(refunded_at_stripe(&intent), 1599);
    assert_eq!(
        app.stock(&lemon).await,
        8,
        "no restock asked for the lemonade"
    );
    let more = app
        .refund(&id, json!({"lines": [], "amount": 0.01, "reason": "again"}))
        .await;
    assert_eq!(more.status, StatusCode::CONFLICT, "{}", more.body);

    // The month counts the payment, and the refunds where they were made.
    let month = results_month(&app).await;
    assert_eq!(month["totalOrders"], 1);
    assert_eq!(month["totalPaid"], 15.99);
    assert_eq!(month["totalRefunded"], 15.99);
    assert_eq!(month["totalRefunds"], 2);
    assert_eq!(month["totalPayments"], 0.0);
    assert_eq!(month["totalVat"], 0.0, "each credit note took its VAT back");
}

#[tokio::test]
async fn a_refund_asks_for_what_the_order_can_give_back_and_refuses_the_rest() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 2).await;
    let other = app.drink("Other", 1.0, 10, 0).await;
    for (body, status, words) in [
        (
            json!({"lines": [{"product": cola, "qty": 3}], "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "2 of Cola can still be refunded",
        ),
        (
            json!({"lines": [{"product": other, "qty": 1}], "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "is not on this order",
        ),
        (
            json!({"lines": [], "amount": 11.0, "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most £10.99",
        ),
        (
            json!({"lines": [], "amount": 1.005, "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "amount",
        ),
        (
            json!({"lines": [], "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose",
        ),
        (
            json!({"lines": [], "amount": 1.0, "reason": "   "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "reason",
        ),
        (
            json!({"lines": [], "amount": 1.0}),
            StatusCode::BAD_REQUEST,
            "reason",
        ),
        (
            json!({"amount": 1.0, "reason": "x"}),
            StatusCode::BAD_REQUEST,
            "lines",
        ),
        (
            json!({"lines": [], "amount": 1.0, "reason": "x", "total": 1}),
            StatusCode::BAD_REQUEST,
            "total",
        ),
    ] {
        let reply = app.refund(&id, body.clone()).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert!(
            reply.body["message"].as_str().unwrap().contains(words),
            "{body}: {}",
            reply.body
        );
    }
    let customer = app
        .orders
        .call(
            Method::POST,
            &format!("/api/order/refunds/{id}"),
            Some(&app.alice),
            Some(json!({"lines": [], "amount": 1.0, "reason": "x"})),
        )
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN);
    let unknown = app
        .refund(
            "no-such-order",
            json!({"lines": [], "amount": 1.0, "reason": "x"}),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let order = app.stored(&id).await;
    assert_eq!(order["refunded"], 0.0, "nothing changed: {order}");
    assert_eq!(refunded_at_stripe(&app.intent_of(&id).await), 0);
}

#[tokio::test]
async fn a_delivered_order_is_refunded_in_full_from_any_paid_status() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 1).await;
    assert_eq!(
        put_status(&app, &id, "shipped").await.status,
        StatusCode::OK
    );
    assert_eq!(
        put_status(&app, &id, "delivered").await.status,
        StatusCode::OK
    );
    // The normal case under the 14-day right to cancel: the drinks came back, unopened.
    let reply = app
        .refund(
            &id,
            json!({"lines": [{"product": cola, "qty": 1}], "delivery": true, "reason": "Returned unopened", "restock": true}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "refunded");
    assert_eq!(order["refunded"], order["total"]);
    assert_eq!(app.stock(&cola).await, 10);
    // The public page says so, without who refunded it; the VAT receipt's figures stay on the order.
    let public = app.order(&id).await;
    assert_eq!(public["refunds"][0]["amount"], 7.99);
    assert!(public["refunds"][0].get("by").is_none(), "{public}");
    assert!(public.get("holds").is_none(), "{public}");
    assert_eq!(public["vat"], order["vat"]);
}

#[tokio::test]
async fn a_refund_racing_shipped_always_ends_with_the_order_refunded() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 30, 0).await;
    for round in 0..3 {
        let id = app.paid_order(&cola, 1).await;
        let (shipped, cancelled) = tokio::join!(
            put_status(&app, &id, "shipped"),
            put_status(&app, &id, "cancelled")
        );
        assert!(
            [StatusCode::OK, StatusCode::CONFLICT].contains(&shipped.status),
            "{round}: {}",
            shipped.body
        );
        let intent = app.intent_of(&id).await;
        let order = app.stored(&id).await;
        if refunded_at_stripe(&intent) > 0 {
            assert_eq!(order["status"], "refunded", "{round}: {order}");
        } else {
            // The ship won and the refund was refused before Stripe was asked: refunding it now works.
            assert_eq!(
                cancelled.status,
                StatusCode::CONFLICT,
                "{round}: {}",
                cancelled.body
            );
            assert_eq!(
                put_status(&app, &id, "cancelled").await.status,
                StatusCode::OK
            );
            assert_eq!(app.stored(&id).await["status"], "refunded");
        }
    }
}

#[tokio::test]
async fn stripe_events_record_each_refund_once_and_a_failed_one_puts_the_money_back() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let id = app.paid_order(&cola, 2).await;
    let intent = app.intent_of(&id).await;
    // Two refunds made in Stripe's Dashboard; their events arrive late, twice and out of order.
    let first = stripe()
        .api(
            "POST",
            "/v1/refunds",
            &[("payment_intent", intent.as_str()), ("amount", "200")],
        )
        .unwrap();
    stripe()
        .api(
            "POST",
            "/v1/refunds",
            &[("payment_intent", intent.as_str())],
        )
        .unwrap();
    let mut events = crate::helpers::events_about(&intent);
    events.reverse();
    for event in events.iter().chain(events.iter()) {
        let reply = app.stripe_event(event, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "refunded", "{order}");
    assert_eq!(order["refunded"], 10.99);
    assert_eq!(order["refunds"].as_array().unwrap().len(), 2, "{order}");

    // The bank cannot return the first: refund.failed gives the money back to the shop.
    let failed = stripe()
        .api(
            "POST",
            &format!("/_shim/refunds/{}", first["id"].as_str().unwrap()),
            &[("status", "failed")],
        )
        .unwrap();
    assert_eq!(failed["status"], "failed");
    let outcomes = app.deliver_events_about(&intent).await;
    assert!(
        outcomes.iter().any(|o| o.starts_with("refund.failed")),
        "{outcomes:?}"
    );
    let order = app.stored(&id).await;
    assert_eq!(order["refunded"], 8.99);
    assert_eq!(
        order["status"], "paid",
        "back where it stood before: {order}"
    );
    let failed_record = order["refunds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["_id"] == first["id"])
        .unwrap()
        .clone();
    assert_eq!(failed_record["status"], "failed");
    let month = results_month(&app).await;
    assert_eq!(month["totalRefunded"], 8.99);
    assert_eq!(month["totalRefunds"], 1);
}

#[tokio::test]
async fn a_refund_event_before_its_payments_event_settles_the_payment_first() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (id, secret, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    stripe()
        .api(
            "POST",
            "/v1/refunds",
            &[("payment_intent", intent.as_str())],
        )
        .unwrap();
    // Only the refund's events: the payment's own event is lost.
    for event in crate::helpers::events_about(&intent)
        .into_iter()
        .filter(|e| e["type"] != "payment_intent.succeeded")
    {
        let reply = app.stripe_event(&event, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "refunded", "{order}");
    assert_eq!(order["refunded"], order["total"]);
}

#[tokio::test]
async fn a_deleted_drink_and_code_never_block_a_refund_the_webhook_or_the_expiry() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let gone = app.drink("Gone", 2.0, 10, 0).await;
    app.code(json!({"code": "BIN10", "discount": 10})).await;
    let mut body = checkout(&app.alice_email, json!([{"product": cola, "qty": 2}]));
    body["code"] = json!("BIN10");
    let paid = app.place(body).await.body.as_str().unwrap().to_owned();
    // An unpaid order holding a drink that is then deleted, and another unpaid one beside it.
    let (held, _, _) = app.waiting_for_3ds(&app.alice_email, &gone, 3).await;
    let (beside, _, _) = app.waiting_for_3ds("bob@example.com", &cola, 1).await;

    for (path, what) in [
        (format!("/api/product/delete/{cola}"), "cola"),
        (format!("/api/product/delete/{gone}"), "gone"),
    ] {
        let deleted = app
            .catalog
            .call(Method::DELETE, &path, Some(&app.admin), None)
            .await;
        assert!(deleted.status.is_success(), "{what}: {}", deleted.body);
    }
    let deleted = app
        .codes
        .call(
            Method::DELETE,
            "/api/code/delete/BIN10",
            Some(&app.admin),
            None,
        )
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.body);

    // Cancel and refund: done, and the units go to the binned drink (restoring it restores them).
    let cancelled = put_status(&app, &paid, "cancelled").await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    assert_eq!(app.stored(&paid).await["status"], "refunded");
    // Stripe's own events about it are answered 200, not 500, every time.
    for event in crate::helpers::events_about(&app.intent_of(&paid).await) {
        let reply = app.stripe_event(&event, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }

    // The expiry releases both unpaid orders, each on its own, whatever was deleted.
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 3600)
        .await
        .unwrap();
    assert_eq!((run.expired, run.failed), (2, 0), "{run:?}");
    assert_eq!(app.stored(&held).await["status"], "expired");
    assert_eq!(app.stored(&beside).await["status"], "expired");

    let restored = app
        .catalog
        .call(
            Method::POST,
            &format!("/api/product/restore/{cola}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert!(restored.status.is_success(), "{}", restored.body);
    assert_eq!(
        app.stock(&cola).await,
        10,
        "both orders' cola came back to the binned drink"
    );
    let restored = app
        .catalog
        .call(
            Method::POST,
            &format!("/api/product/restore/{gone}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert!(restored.status.is_success(), "{}", restored.body);
    assert_eq!(app.stock(&gone).await, 10);
    let restored = app
        .codes
        .call(
            Method::POST,
            "/api/code/restore/BIN10",
            Some(&app.admin),
            None,
        )
        .await;
    assert!(restored.status.is_success(), "{}", restored.body);
    assert_eq!(
        app.code_uses("BIN10").await,
        0,
        "the refunded order's use came back"
    );
}

#[tokio::test]
async fn one_order_the_expiry_cannot_handle_is_logged_and_the_rest_still_expire() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let mut waiting = Vec::new();
    for email in [app.alice_email.clone(), "bob@example.com".to_owned()] {
        waiting.push(app.waiting_for_3ds(&email, &cola, 1).await.0);
    }
    // One order's item is damaged (its lines unreadable): it can be neither read nor moved.
    app.state
        .db
        .update_item()
        .table_name(&app.state.tables.orders)
        .key("pk", shared::dynamo::s(format!("ORDER#{}", waiting[0])))
        .key("sk", shared::dynamo::s("ORDER"))
        .update_expression("SET #lines = :bad")
        .expression_attribute_names("#lines", "lines")
        .expression_attribute_values(":bad", shared::dynamo::s("not json"))
        .send()
        .await
        .unwrap();
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 3600)
        .await
        .unwrap();
    assert_eq!((run.expired, run.failed), (1, 1), "{run:?}");
    assert_eq!(app.stored(&waiting[1]).await["status"], "expired");
}

#[tokio::test]
async fn an_expired_orders_payment_is_cancelled_at_stripe_so_nobody_can_complete_it() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (id, secret, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    // The hold runs out first: released, and the PaymentIntent cancelled at Stripe...
    let run = orders::expiry::expire_pending(&app.state, shared::time::now_unix() + 3600)
        .await
        .unwrap();
    assert_eq!(run.expired, 1);
    assert_eq!(
        intent_at_stripe(&intent)["status"],
        "canceled",
        "a released order's payment is cancelled"
    );
    assert!(
        stripe().authenticate(&secret, true).is_err(),
        "nobody can complete it now"
    );
    assert_eq!(
        app.stored(&id).await["refunds"],
        json!([]),
        "nothing was taken, nothing to refund"
    );
}

#[tokio::test]
async fn a_failed_payment_event_cancels_the_payment_at_stripe() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (_, _, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    let event = event_of("payment_intent.payment_failed", intent_at_stripe(&intent));
    let reply = app.stripe_event(&event, None).await;
    assert_eq!(reply.body["outcome"], "released", "{}", reply.body);
    assert_eq!(intent_at_stripe(&intent)["status"], "canceled");
}

#[tokio::test]
async fn a_payment_for_another_amount_never_makes_the_order_paid_and_is_refunded() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    let (id, secret, intent) = app.waiting_for_3ds(&app.alice_email, &cola, 1).await;
    stripe().authenticate(&secret, true).unwrap();
    let mut object = intent_at_stripe(&intent);
    // The event says a different amount (and currency) than the order's: tampered, or not this order's.
    object["amount"] = json!(1);
    object["currency"] = json!("usd");
    let event = event_of("payment_intent.succeeded", object);
    let reply = app.stripe_event(&event, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let order = app.stored(&id).await;
    assert_eq!(order["status"], "expired", "{order}");
    assert_eq!(app.stock(&cola).await, 10);
    assert_eq!(
        refunded_at_stripe(&intent),
        799,
        "what the bank took is returned"
    );
    assert_eq!(order["refunds"][0]["late"], true);
    let told: Vec<_> = app
        .queued_mails(&app.alice_email)
        .await
        .into_iter()
        .filter(|(subject, _)| subject.contains("has been refunded"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    let month = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(month["results"], json!([]), "never a sale: nothing counted");
}

#[tokio::test]
async fn a_refund_counts_in_the_month_it_is_made_and_the_payment_stays_in_the_month_it_was_paid() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 3.0, 10, 0).await;
    // Two at £3 and £4.99 delivery: £10.99, placed and paid last month.
    let id = app.paid_order(&cola, 2).await;
    let (this_month, last_month) = app.move_a_month_back().await;
    let order = app.stored(&id).await;
    assert!(
        order["createdAt"]
            .as_str()
            .unwrap()
            .starts_with(&last_month),
        "{order}"
    );
    let vat = order["vat"].clone();

    let reply = app
        .refund(
            &id,
            json!({"lines": [{"product": cola, "qty": 1}], "reason": "Returned this month"}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);

    // Last month's figures are what they were when it ended.
    let last = results_of(&app, &last_month).await;
    assert_eq!(last["totalOrders"], 1, "{last}");
    assert_eq!(last["totalPaid"], 10.99);
    assert_eq!(last["totalRefunded"], 0.0);
    assert_eq!(last["totalRefunds"], 0);
    assert_eq!(last["totalPayments"], 10.99);
    assert_eq!(last["totalProductsSold"], 2);
    assert_eq!(last["totalVat"], vat);
    // This month has the refund alone: less money kept than paid in it.
    let this = results_of(&app, &this_month).await;
    assert_eq!(this["totalOrders"], 0, "{this}");
    assert_eq!(this["totalPaid"], 0.0);
    assert_eq!(this["totalRefunded"], 3.0);
    assert_eq!(this["totalRefunds"], 1);
    assert_eq!(this["totalPayments"], -3.0);
    assert_eq!(this["totalProductsSold"], -1);
    // VAT at 20% inside £3.00: 50p back.
    assert_eq!(this["totalVat"], -0.5);

    // The ledger the reconciliation reads agrees: the payment last month, the refund this month.
    for (month, payments, refunds) in [(&last_month, 1, 0), (&this_month, 0, 1)] {
        let report = app
            .admin(
                Method::GET,
                &format!("/api/order/reconciliation/{month}"),
                None,
            )
            .await;
        assert_eq!(report.status, StatusCode::OK, "{}", report.body);
        assert_eq!(report.body["shop"]["payments"], payments, "{month}");
        assert_eq!(report.body["shop"]["refunds"], refunds, "{month}");
    }
}
