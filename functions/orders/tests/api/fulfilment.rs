//! Fulfilment: shipped, delivered and refunded e-mails written with the move, once; the
//! status history and tracking on the order; signed order links that open only their order, for 90 days.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;

/// The order link in a mail's HTML: `…/myorder/{id}?key=…`.
fn order_link(html: &str) -> String {
    let start = html.find("/myorder/").expect("an order link");
    let rest = &html[start..];
    let end = rest.find('"').unwrap();
    rest[..end].replace("&amp;", "&")
}

#[tokio::test]
async fn shipping_tells_the_customer_once_with_the_tracking_link() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 1).await;
    let ship = json!({"status": "shipped", "carrier": "royal-mail", "trackingNumber": " AB 1234 5678 9GB "});
    let shipped = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(ship.clone()),
        )
        .await;
    assert_eq!(shipped.status, StatusCode::OK, "{}", shipped.body);
    assert_eq!(shipped.body["carrier"], "royal-mail");
    assert_eq!(shipped.body["trackingNumber"], "AB 1234 5678 9GB");
    assert_eq!(
        shipped.body["trackingUrl"],
        "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"
    );
    let history: Vec<&str> = shipped.body["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["pending", "paid", "shipped"]);

    // Set again: nothing moves, nothing more is sent.
    let again = app
        .admin(Method::PUT, &format!("/api/order/update/{id}"), Some(ship))
        .await;
    assert_eq!(again.status, StatusCode::OK);
    let mails = app.queued_mails(&app.alice_email).await;
    let on_its_way: Vec<_> = mails
        .iter()
        .filter(|(subject, _)| subject == "Your order PD-10001 is on its way")
        .collect();
    assert_eq!(on_its_way.len(), 1, "{mails:?}");
    let html = &on_its_way[0].1;
    assert!(html.contains("Royal Mail"), "{html}");
    assert!(html.contains("tracking-results/AB123456789GB"), "{html}");

    // Delivered has its own mail; the public page (by the mail's link) shows the tracking.
    let delivered = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "delivered"})),
        )
        .await;
    assert_eq!(delivered.status, StatusCode::OK);
    let mails = app.queued_mails(&app.alice_email).await;
    assert!(mails
        .iter()
        .any(|(subject, _)| subject == "Your order PD-10001 has been delivered"));
    let link = order_link(html);
    let opened = app
        .orders
        .get(&format!(
            "/api/order/Orderdetails/{}",
            &link["/myorder/".len()..]
        ))
        .await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.body);
    assert_eq!(opened.body["trackingNumber"], "AB 1234 5678 9GB");
    assert_eq!(
        opened.body["fullname"], "Amira Haddad",
        "the key opens the details"
    );
    assert_eq!(opened.body.get("email"), None, "the public view's rules");
}

#[tokio::test]
async fn a_refund_is_told_once_and_a_bad_tracking_number_is_refused() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let id = app.paid_order(&soda, 1).await;
    let bad = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "shipped", "trackingNumber": "AB<script>"})),
        )
        .await;
    assert!(bad.status.is_client_error(), "{}", bad.body);
    assert_eq!(app.order(&id).await["status"], "paid", "nothing changed");
    for _ in 0..2 {
        let cancelled = app
            .admin(
                Method::PUT,
                &format!("/api/order/update/{id}"),
                Some(json!({"status": "cancelled"})),
            )
            .await;
        assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    }
    let refunded: Vec<_> = app
        .queued_mails(&app.alice_email)
        .await
        .into_iter()
        .filter(|(subject, _)| subject == "Your order PD-10001 is refunded: £6.99")
        .collect();
    assert_eq!(refunded.len(), 1);
    assert!(refunded[0].1.contains("£6.99"), "{}", refunded[0].1);
}

#[tokio::test]
async fn an_order_link_opens_only_its_order_and_only_for_ninety_days() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 10, 0).await;
    let mine = app.paid_order(&soda, 1).await;
    let other = app.paid_order(&soda, 1).await;
    let now = shared::time::now_unix();
    let key = app.state.links.key(&mine, now + 90 * 24 * 3600);
    let open = |id: &str, key: &str| format!("/api/order/Orderdetails/{id}?key={key}");
    assert_eq!(
        app.orders.get(&open(&mine, &key)).await.status,
        StatusCode::OK
    );
    let elsewhere = app.orders.get(&open(&other, &key)).await;
    assert_eq!(
        elsewhere.status,
        StatusCode::FORBIDDEN,
        "{}",
        elsewhere.body
    );
    let old = app.state.links.key(&mine, now - 1);
    assert_eq!(
        app.orders.get(&open(&mine, &old)).await.status,
        StatusCode::FORBIDDEN
    );
    // The confirmation's link carries a key good for 90 days.
    let (_, html) = app
        .queued_mails(&app.alice_email)
        .await
        .into_iter()
        .find(|(_, html)| html.contains(&format!("/myorder/{mine}?key=")))
        .expect("the confirmation links the order");
    let link = order_link(&html);
    let expires: i64 = link
        .split("key=")
        .nth(1)
        .unwrap()
        .split('.')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((expires - now - 90 * 24 * 3600).abs() < 120, "{expires}");
}

#[tokio::test]
async fn stock_a_refund_gives_back_mails_whoever_waits_for_the_drink() {
    let app = spawn_app().await;
    let soda = app.drink("Last Soda", 2.0, 1, 0).await;
    let id = app.paid_order(&soda, 1).await;
    assert_eq!(app.stock(&soda).await, 0);
    let waiting = app
        .catalog
        .call(
            Method::POST,
            &format!("/api/product/notify/{soda}"),
            None,
            Some(json!({"email": "waiting@example.com"})),
        )
        .await;
    assert_eq!(waiting.status, StatusCode::CREATED, "{}", waiting.body);
    // Double opt-in: the address confirms from the mail's page before it waits.
    let asked = app.queued_mails("waiting@example.com").await;
    let html = &asked[0].1;
    let start = html.find("/confirm/alert?token=").unwrap() + "/confirm/alert?token=".len();
    let token = &html[start..start + html[start..].find('"').unwrap()];
    let confirmed = app
        .catalog
        .call(
            Method::POST,
            "/api/product/notify/confirm/",
            None,
            Some(json!({ "token": token })),
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    let cancelled = app
        .admin(
            Method::PUT,
            &format!("/api/order/update/{id}"),
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.body);
    let mails = app.queued_mails("waiting@example.com").await;
    assert_eq!(
        mails
            .iter()
            .map(|(s, _)| s.as_str())
            .filter(|s| s.ends_with("is back in stock"))
            .collect::<Vec<_>>(),
        ["Last Soda is back in stock"]
    );
}
