//! Order pages, customer histories, the admin's list, status changes, cancels, deletes and results.

use crate::helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn customers_see_only_their_own_orders_and_totals() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 50, 0).await;
    for _ in 0..2 {
        app.place(checkout(
            &app.alice_email,
            json!([{"product": soda, "qty": 1}]),
        ))
        .await;
    }
    app.place(checkout(
        "bob@example.com",
        json!([{"product": soda, "qty": 3}]),
    ))
    .await;
    let mine = app
        .orders
        .call(
            Method::GET,
            "/api/order/orderdetails/customer/order/?pageNumber=1",
            Some(&app.alice),
            None,
        )
        .await;
    assert_eq!(mine.status, StatusCode::OK);
    let orders = mine.body["product"].as_array().unwrap();
    assert_eq!(orders.len(), 2);
    assert!(orders
        .iter()
        .all(|o| o["email"] == app.alice_email.as_str()));
    let total = app
        .orders
        .call(Method::GET, "/api/order/total/", Some(&app.alice), None)
        .await
        .body;
    assert_eq!(total, json!({"totalOrders": 2, "totalPayments": 13.98}));
    let bobs = app
        .orders
        .call(Method::GET, "/api/order/total/", Some(&app.bob), None)
        .await
        .body;
    assert_eq!(bobs["totalOrders"], 1);
    let anonymous = app.orders.get("/api/order/total/").await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn admins_find_orders_by_name_email_or_id() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 50, 0).await;
    let mut body = checkout("zed@example.com", json!([{"product": soda, "qty": 1}]));
    body["fullname"] = json!("Zed Okonkwo");
    let zed = app.place(body).await.body.as_str().unwrap().to_owned();
    app.place(checkout(
        &app.alice_email,
        json!([{"product": soda, "qty": 1}]),
    ))
    .await;
    let by_name = app
        .admin(Method::GET, "/api/order?pageNumber=1&search=okonkwo", None)
        .await
        .body;
    assert_eq!(by_name["product"].as_array().unwrap().len(), 1);
    assert_eq!(by_name["product"][0]["_id"], zed.as_str());
    let by_email = app
        .admin(Method::GET, "/api/order?search=ZED@example.com", None)
        .await
        .body;
    assert_eq!(by_email["product"][0]["_id"], zed.as_str());
    let by_id = app
        .admin(Method::GET, &format!("/api/order?search={zed}"), None)
        .await
        .body;
    assert_eq!(by_id["product"][0]["_id"], zed.as_str());
    let all = app.admin(Method::GET, "/api/order", None).await.body;
    assert_eq!(all["product"].as_array().unwrap().len(), 2);
    let customer = app
        .orders
        .call(Method::GET, "/api/order", Some(&app.alice), None)
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_admins_list_reads_on_from_a_cursor() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 100, 0).await;
    let mut placed = Vec::new();
    for n in 0..23 {
        let email = format!("buyer{n}@example.com");
        let reply = app
            .place(checkout(&email, json!([{"product": soda, "qty": 1}])))
            .await;
        placed.push(reply.body.as_str().unwrap().to_owned());
    }
    let ids = |page: &serde_json::Value| -> Vec<String> {
        page["product"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let first = app.admin(Method::GET, "/api/order", None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(ids(&first.body).len(), 20);
    assert_eq!(first.body["pages"], 2);
    assert_eq!(first.body["result"]["next"]["page"], 2);
    let cursor = first.body["result"]["next"]["cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let last_of_first = &first.body["product"][19];
    assert_eq!(
        cursor,
        format!(
            "{}#{}",
            last_of_first["createdAt"].as_str().unwrap(),
            last_of_first["_id"].as_str().unwrap()
        )
    );
    // The cursor as a query value: its `:` and `#` escaped.
    let after = |query: &str, cursor: &str| {
        format!(
            "/api/order?{query}pageNumber=2&cursor={}",
            cursor.replace(':', "%3A").replace('#', "%23")
        )
    };
    let second = app.admin(Method::GET, &after("", &cursor), None).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.body);
    assert_eq!(ids(&second.body).len(), 3);
    assert!(second.body["result"].get("next").is_none());
    assert_eq!(second.body["pages"], 2);
    let mut every: Vec<String> = ids(&first.body)
        .into_iter()
        .chain(ids(&second.body))
        .collect();
    let by_number = app
        .admin(Method::GET, "/api/order?pageNumber=2", None)
        .await
        .body;
    assert_eq!(
        ids(&by_number),
        ids(&second.body),
        "page 2 by number is the page after the cursor"
    );
    every.sort();
    placed.sort();
    assert_eq!(every, placed, "every order once across the pages");
    for bad in ["yesterday", "2026-12-02T10%3A00%3A00Z%23nope"] {
        let refused = app
            .admin(Method::GET, &format!("/api/order?cursor={bad}"), None)
            .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(refused.body["message"].as_str().unwrap().contains("cursor"));
    }
    // A cursor of no order still names a place: everything older than it.
    let nobody = "00000000-0000-0000-0000-000000000000";
    let future = app
        .admin(
            Method::GET,
            &after("", &format!("9999-12-31T23:59:59Z#{nobody}")),
            None,
        )
        .await;
    assert_eq!(future.status, StatusCode::OK, "{}", future.body);
    assert_eq!(ids(&future.body), ids(&first.body));
    let past = app
        .admin(
            Method::GET,
            &after("", &format!("0000-01-01T00:00:00Z#{nobody}")),
            None,
        )
        .await;
    assert_eq!(past.status, StatusCode::OK, "{}", past.body);
    assert!(ids(&past.body).is_empty());
    // A search is cut into pages the same way, its cursor read within what it found.
    let found = app
        .admin(Method::GET, "/api/order?search=haddad", None)
        .await
        .body;
    assert_eq!(ids(&found), ids(&first.body));
    let cursor = found["result"]["next"]["cursor"].as_str().unwrap();
    let rest = app
        .admin(Method::GET, &after("search=haddad&", cursor), None)
        .await
        .body;
    assert_eq!(ids(&rest), ids(&second.body));
}

#[tokio::test]
async fn statuses_move_forward_and_a_cancel_puts_everything_back() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 10.0, 10, 0).await;
    app.code(json!({"code": "BACK", "discount": 10, "maxUses": 1, "oncePerEmail": true}))
        .await;
    let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 4}]));
    body["code"] = json!("BACK");
    let id = app
        .place(body.clone())
        .await
        .body
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.stock(&soda).await, 6);
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(results["results"][0]["totalOrders"], 1);
    assert_eq!(results["results"][0]["totalProductsSold"], 4);
    // 4 x £10 less 10% = £36, plus £4.99 delivery (below £40 after the code).
    assert_eq!(results["results"][0]["totalPayments"], 40.99);
    assert_eq!(results["emails"], json!([app.alice_email]));

    let shipped = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "shipped"})),
        )
        .await;
    assert_eq!(shipped.status, StatusCode::OK, "{}", shipped.body);
    let back = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "paid"})),
        )
        .await;
    assert_eq!(back.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        back.body["message"],
        "An order that is shipped cannot become paid"
    );
    let early_delete = app
        .admin(Method::DELETE, &format!("/api/order/delete/{id}"), None)
        .await;
    assert_eq!(early_delete.status, StatusCode::CONFLICT);

    let cancelled = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    // The order was paid: cancelling it refunds it.
    assert_eq!(app.order(&id).await["status"], "refunded");
    assert_eq!(app.stock(&soda).await, 10, "stock is back");
    assert_eq!(app.code_uses("BACK").await, 0, "the code's use is back");
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    // Paid money only: the order counts in the month it was paid, its refund in the month it was made.
    assert_eq!(results["results"][0]["totalOrders"], 1);
    assert_eq!(results["results"][0]["totalPayments"], 0.0);
    assert_eq!(
        results["results"][0]["totalRefunded"],
        results["results"][0]["totalPaid"]
    );
    assert_eq!(results["results"][0]["totalRefunds"], 1);
    assert_eq!(
        results["results"][0]["totalProductsSold"], 0,
        "every unit came back"
    );
    // The code works again for the same address.
    assert_eq!(app.place(body).await.status, StatusCode::CREATED);

    // Refunded, it was still paid once: the shop keeps it.
    let kept = app
        .admin(Method::DELETE, &format!("/api/order/delete/{id}"), None)
        .await;
    assert_eq!(kept.status, StatusCode::CONFLICT, "{}", kept.body);
    let bad = app
        .admin(
            Method::PUT,
            "/api/order/update/nope",
            Some(json!({"status": "shipped"})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::NOT_FOUND);
    let bad_status = app
        .admin(
            Method::PUT,
            "/api/order/update/nope",
            Some(json!({"status": "lost"})),
        )
        .await;
    assert_eq!(bad_status.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_order_confirmation_is_queued_for_the_customer_with_the_paid_order() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 2).await;
    let mails = app.queued_mails(&app.alice_email).await;
    assert_eq!(mails.len(), 1);
    assert!(mails[0].0.contains("£8.99"), "{}", mails[0].0);
    assert!(mails[0].1.contains(&id));
}

#[tokio::test]
async fn a_paid_order_is_never_deleted_but_an_unpaid_finished_one_is() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let paid = app.paid_order(&soda, 1).await;
    for status in ["shipped", "delivered"] {
        app.admin(
            Method::PUT,
            &format!("/api/order/update/{paid}"),
            Some(json!({ "status": status })),
        )
        .await;
    }
    let listed = app.stored(&paid).await;
    assert_eq!(listed["status"], "delivered");
    assert_eq!(listed["wasPaid"], true);
    let refused = app
        .admin(Method::DELETE, &format!("/api/order/delete/{paid}"), None)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(
        refused.body["message"],
        "A paid order is kept for the accounts and cannot be deleted: archive it instead"
    );
    assert_eq!(
        app.stored(&paid).await["status"],
        "delivered",
        "still there"
    );

    let unpaid = app.cancelled_unpaid_order(&soda, 1).await;
    assert_eq!(app.stored(&unpaid).await["wasPaid"], false);
    let deleted = app
        .admin(Method::DELETE, &format!("/api/order/delete/{unpaid}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(
        app.orders
            .get(&format!("/api/order/Orderdetails/{unpaid}"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_finished_order_is_archived_and_stays_in_searches_and_results() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let paid = app.paid_order(&soda, 2).await;
    let archive = |archived: bool| json!({ "archived": archived });

    // Paid and not yet shipped: it still needs the admin, so it stays on the list.
    let early = app
        .admin(
            Method::PUT,
            &format!("/api/order/archive/{paid}"),
            Some(archive(true)),
        )
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    assert!(app.stored(&paid).await["archivedAt"].is_null());

    for status in ["shipped", "delivered"] {
        app.admin(
            Method::PUT,
            &format!("/api/order/update/{paid}"),
            Some(json!({ "status": status })),
        )
        .await;
    }
    let archived = app
        .admin(
            Method::PUT,
            &format!("/api/order/archive/{paid}"),
            Some(archive(true)),
        )
        .await;
    assert_eq!(archived.status, StatusCode::OK, "{}", archived.body);
    let at = archived.body["archivedAt"].as_str().unwrap().to_owned();
    assert_eq!(archived.body["status"], "delivered");
    // Archiving again keeps the first time.
    let again = app
        .admin(
            Method::PUT,
            &format!("/api/order/archive/{paid}"),
            Some(archive(true)),
        )
        .await;
    assert_eq!(again.body["archivedAt"], at.as_str());

    // Kept whole: the admin's list and search, the customer's history and the month's figures have it.
    let all = app.admin(Method::GET, "/api/order", None).await.body;
    assert_eq!(all["product"][0]["_id"], paid.as_str());
    assert_eq!(all["product"][0]["archivedAt"], at.as_str());
    let found = app
        .admin(
            Method::GET,
            &format!("/api/order?search={}", app.alice_email),
            None,
        )
        .await
        .body;
    assert_eq!(found["product"][0]["_id"], paid.as_str());
    let mine = app
        .orders
        .call(
            Method::GET,
            "/api/order/orderdetails/customer/order/?pageNumber=1",
            Some(&app.alice),
            None,
        )
        .await
        .body;
    assert_eq!(mine["product"][0]["_id"], paid.as_str());
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    assert_eq!(results["results"][0]["totalOrders"], 1);

    let back = app
        .admin(
            Method::PUT,
            &format!("/api/order/archive/{paid}"),
            Some(archive(false)),
        )
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert!(back.body["archivedAt"].is_null());

    for (uri, body, status) in [
        (
            "/api/order/archive/nope",
            archive(true),
            StatusCode::NOT_FOUND,
        ),
        (
            &*format!("/api/order/archive/{paid}"),
            json!({"archived": "yes"}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let reply = app.admin(Method::PUT, uri, Some(body)).await;
        assert_eq!(reply.status, status, "{uri}: {}", reply.body);
    }
    let customer = app
        .orders
        .call(
            Method::PUT,
            &format!("/api/order/archive/{paid}"),
            Some(&app.alice),
            Some(archive(true)),
        )
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_guest_order_shows_in_the_history_of_whoever_logs_in_with_its_address() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    // Placed without a token, the address typed with capitals and spaces.
    let typed = format!(" {} ", app.alice_email.to_uppercase());
    let guest = app
        .place(checkout(&typed, json!([{"product": soda, "qty": 1}])))
        .await;
    assert_eq!(guest.status, StatusCode::CREATED, "{}", guest.body);
    let mine = app
        .orders
        .call(
            Method::GET,
            "/api/order/orderdetails/customer/order/?pageNumber=1",
            Some(&app.alice),
            None,
        )
        .await
        .body;
    assert_eq!(mine["product"][0]["_id"], guest.body);
    // Whole, as its owner sees it: the details the account page offers for the profile.
    assert_eq!(mine["product"][0]["phone"], "07700 900123");
    assert_eq!(mine["product"][0]["address"], "1 High St, Leeds LS1 1AA");
}

#[tokio::test]
async fn a_customer_cancels_their_own_paid_order_before_it_ships_and_is_refunded_in_full() {
    let app = spawn_app().await;
    let soda = app.drink("Cancel Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 2).await;
    assert_eq!(app.stock(&soda).await, 8);
    let cancel = |token: String| {
        let uri = format!("/api/order/cancel/{id}");
        let orders = &app.orders;
        async move { orders.call(Method::POST, &uri, Some(&token), None).await }
    };
    // Someone else's token finds no such order, and changes nothing.
    let stranger = cancel(app.bob.clone()).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND, "{}", stranger.body);
    assert_eq!(app.order(&id).await["status"], "paid");

    let done = cancel(app.alice.clone()).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["status"], "refunded");
    assert_eq!(app.stock(&soda).await, 10);
    assert_eq!(done.body["refunded"], done.body["total"], "{}", done.body);
    // Asked again, nothing more happens.
    let again = cancel(app.alice.clone()).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body["status"], "refunded");
}

#[tokio::test]
async fn a_shipped_order_is_not_cancelled_by_its_customer() {
    let app = spawn_app().await;
    let soda = app.drink("Shipped Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 1).await;
    let shipped = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "shipped"})),
        )
        .await;
    assert_eq!(shipped.status, StatusCode::OK, "{}", shipped.body);
    let refused = app
        .orders
        .call(
            Method::POST,
            &format!("/api/order/cancel/{id}"),
            Some(&app.alice),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("14 days"));
    assert_eq!(app.order(&id).await["status"], "shipped");
}
