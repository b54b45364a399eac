//! Back-in-stock alerts: an address confirms (double opt-in) and then waits for a sold-out drink; the
//! restock mails each address once through the outbox and clears the list; the mail's stop link ends the
//! address's other waits.

use crate::helpers::{drink, spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::json;

/// The back-in-stock mails waiting in the outbox, as (to, subject, text).
async fn alert_mails(app: &TestApp) -> Vec<(String, String, String)> {
    let outbox = &app.state.alerts.as_ref().unwrap().outbox;
    testkit::outbox_pending(outbox)
        .await
        .into_iter()
        .map(|item| {
            (
                item.mail.mail.to,
                item.mail.mail.subject,
                item.mail.mail.text,
            )
        })
        .filter(|(_, subject, _)| subject.ends_with("is back in stock"))
        .collect()
}

async fn notify(app: &TestApp, id: &str, email: &str) -> testkit::Reply {
    app.call(
        Method::POST,
        &format!("/api/product/notify/{id}"),
        None,
        Some(json!({ "email": email })),
    )
    .await
}

/// The confirmation mails waiting in the outbox for `email`: their text.
async fn confirmations(app: &TestApp, email: &str) -> Vec<String> {
    let outbox = &app.state.alerts.as_ref().unwrap().outbox;
    testkit::outbox_pending(outbox)
        .await
        .into_iter()
        .filter(|item| item.mail.mail.to == email && item.mail.mail.subject.starts_with("Confirm"))
        .map(|item| item.mail.mail.text)
        .collect()
}

/// The token of the newest confirmation link mailed to `email`.
async fn confirmation_token(app: &TestApp, email: &str) -> String {
    let text = confirmations(app, email)
        .await
        .pop()
        .expect("a confirmation");
    let start = text.find("/confirm/alert?token=").unwrap() + "/confirm/alert?token=".len();
    text[start..].split_whitespace().next().unwrap().to_owned()
}

async fn confirm(app: &TestApp, token: &str) -> testkit::Reply {
    app.call(
        Method::POST,
        "/api/product/notify/confirm/",
        None,
        Some(json!({ "token": token })),
    )
    .await
}

/// Asks for the alert and confirms it from the mail it sent, as its reader would (the new confirmation,
/// whatever the outbox's order: two asked within one second sort by their ids).
async fn wait_for(app: &TestApp, id: &str, email: &str) {
    let normalised = email.trim().to_lowercase();
    let before = confirmations(app, &normalised).await;
    let asked = notify(app, id, email).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);
    let text = confirmations(app, &normalised)
        .await
        .into_iter()
        .find(|text| !before.contains(text))
        .expect("a new confirmation");
    let start = text.find("/confirm/alert?token=").unwrap() + "/confirm/alert?token=".len();
    let token = text[start..].split_whitespace().next().unwrap().to_owned();
    let confirmed = confirm(app, &token).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
}

#[tokio::test]
async fn a_restock_mails_each_waiting_address_once_and_clears_the_list() {
    let app = spawn_app().await;
    let mut body = drink("Ginger Fizz", 2.0);
    body["TheNumber"] = json!(0);
    let sold_out = app.create_drink(body).await;
    let id = sold_out["_id"].as_str().unwrap();
    let in_stock = app.create_drink(drink("Cola", 2.0)).await;

    let refused = notify(&app, in_stock["_id"].as_str().unwrap(), "a@example.com").await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    let bad = notify(&app, id, "not-an-address").await;
    assert!(bad.status.is_client_error());
    for email in ["a@example.com", " B@Example.com "] {
        wait_for(&app, id, email).await;
    }
    // Asking again while waiting mails nothing more and waits once.
    let again = notify(&app, id, "a@example.com").await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(confirmations(&app, "a@example.com").await.len(), 1);
    let counts = app
        .call(Method::GET, "/api/product/alerts/", Some(&app.admin), None)
        .await;
    assert_eq!(counts.body, json!([{"_id": id, "waiting": 2}]));

    // An edit that leaves it sold out mails nobody; the restock mails both, once.
    let update = |stock: u32| json!({ "TheNumber": stock });
    app.call(
        Method::PUT,
        &format!("/api/product/update/{id}"),
        Some(&app.admin),
        Some(json!({"des": "Hot ginger"})),
    )
    .await;
    assert!(alert_mails(&app).await.is_empty());
    for stock in [12, 15] {
        let restocked = app
            .call(
                Method::PUT,
                &format!("/api/product/update/{id}"),
                Some(&app.admin),
                Some(update(stock)),
            )
            .await;
        assert_eq!(restocked.status, StatusCode::OK, "{}", restocked.body);
    }
    let mut mails = alert_mails(&app).await;
    mails.sort();
    let to: Vec<&str> = mails.iter().map(|(to, _, _)| to.as_str()).collect();
    assert_eq!(to, ["a@example.com", "b@example.com"]);
    assert_eq!(mails[0].1, "Ginger Fizz is back in stock");
    assert!(mails[0]
        .2
        .contains(&format!("{}/drinks/{id}", testkit::SITE_URL)));
    let counts = app
        .call(Method::GET, "/api/product/alerts/", Some(&app.admin), None)
        .await;
    assert_eq!(counts.body, json!([]));
}

#[tokio::test]
async fn the_stop_link_ends_only_its_own_address_waits() {
    let app = spawn_app().await;
    let mut first = drink("Ginger Fizz", 2.0);
    first["TheNumber"] = json!(0);
    let first = app.create_drink(first).await;
    let mut second = drink("Lemon Fizz", 2.0);
    second["TheNumber"] = json!(0);
    let second = app.create_drink(second).await;
    for (drink, email) in [
        (&first, "a@example.com"),
        (&second, "a@example.com"),
        (&second, "c@example.com"),
    ] {
        wait_for(&app, drink["_id"].as_str().unwrap(), email).await;
    }
    app.call(
        Method::PUT,
        &format!("/api/product/update/{}", first["_id"].as_str().unwrap()),
        Some(&app.admin),
        Some(json!({"TheNumber": 3})),
    )
    .await;
    let mails = alert_mails(&app).await;
    assert_eq!(mails.len(), 1);
    let stop = mails[0]
        .2
        .split_whitespace()
        .find(|word| word.contains("/api/product/notify/stop/?token="))
        .unwrap()
        .trim_start_matches(testkit::SITE_URL)
        .to_owned();
    let forged = app.get(&stop.replace("token=", "token=00")).await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST);
    let stopped = app.get(&stop).await;
    assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.body);
    let counts = app
        .call(Method::GET, "/api/product/alerts/", Some(&app.admin), None)
        .await;
    assert_eq!(
        counts.body,
        json!([{"_id": second["_id"], "waiting": 1}]),
        "c@example.com still waits"
    );
}

#[tokio::test]
async fn an_alert_waits_only_once_its_address_confirms_and_a_fetched_link_confirms_nothing() {
    let app = spawn_app().await;
    let mut body = drink("Ginger Fizz", 2.0);
    body["TheNumber"] = json!(0);
    let sold_out = app.create_drink(body).await;
    let id = sold_out["_id"].as_str().unwrap();
    let asked = notify(&app, id, "reader@example.com").await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);
    assert_eq!(asked.body["message"], catalog::alerts::ASKED);
    // A stranger's address gets the very same answer, and nobody waits until a mailbox confirms.
    let other = notify(&app, id, "someone.else@example.com").await;
    assert_eq!(other.body, asked.body);
    let counts = app
        .call(Method::GET, "/api/product/alerts/", Some(&app.admin), None)
        .await;
    assert_eq!(counts.body, json!([]));
    let mails = confirmations(&app, "reader@example.com").await;
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains(&format!("{}/confirm/alert?token=", testkit::SITE_URL)));
    // Asking again within the hour mails no second confirmation.
    notify(&app, id, "reader@example.com").await;
    assert_eq!(confirmations(&app, "reader@example.com").await.len(), 1);

    let token = confirmation_token(&app, "reader@example.com").await;
    // A mail scanner's GET reaches no confirming route.
    let fetched = app
        .get(&format!("/api/product/notify/confirm/?token={token}"))
        .await;
    assert_ne!(fetched.status, StatusCode::OK);
    for forged in [format!("{token}0"), "x.y.1.z".to_owned(), String::new()] {
        let reply = confirm(&app, &forged).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{forged}");
        assert_eq!(reply.body["message"], catalog::alerts::BAD_CONFIRM);
    }
    let confirmed = confirm(&app, &token).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    let counts = app
        .call(Method::GET, "/api/product/alerts/", Some(&app.admin), None)
        .await;
    assert_eq!(counts.body, json!([{"_id": id, "waiting": 1}]));
    let twice = confirm(&app, &token).await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST, "a link works once");

    // Once the drink is back, a late confirmation has nothing to wait for.
    let late = notify(&app, id, "late@example.com").await;
    assert_eq!(late.status, StatusCode::CREATED);
    let late_token = confirmation_token(&app, "late@example.com").await;
    app.call(
        Method::PUT,
        &format!("/api/product/update/{id}"),
        Some(&app.admin),
        Some(json!({"TheNumber": 5})),
    )
    .await;
    let refused = confirm(&app, &late_token).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    let restocked = alert_mails(&app).await;
    assert_eq!(restocked.len(), 1, "only the confirmed address is mailed");
    assert_eq!(restocked[0].0, "reader@example.com");
}
