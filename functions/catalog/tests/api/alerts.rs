//! Back-in-stock alerts (issue 21, item 5): an address waits for a sold-out drink; the restock mails each
//! address once through the outbox and clears the list; the mail's stop link ends the address's other waits.

use crate::helpers::{drink, spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::json;

/// The back-in-stock mails waiting in the outbox, as (to, subject, text).
async fn alert_mails(app: &TestApp) -> Vec<(String, String, String)> {
    outbox_mails(app, "is back in stock").await
}

/// The mails waiting in the outbox whose subject ends with `ending`, as (to, subject, text).
async fn outbox_mails(app: &TestApp, ending: &str) -> Vec<(String, String, String)> {
    let outbox = &app.state.alerts.as_ref().unwrap().outbox;
    shared::testing::outbox_pending(outbox)
        .await
        .into_iter()
        .map(|item| {
            (
                item.mail.mail.to,
                item.mail.mail.subject,
                item.mail.mail.text,
            )
        })
        .filter(|(_, subject, _)| subject.ends_with(ending))
        .collect()
}

async fn notify(app: &TestApp, id: &str, email: &str) -> shared::testing::Reply {
    app.call(
        Method::POST,
        &format!("/api/product/notify/{id}"),
        None,
        Some(json!({ "email": email })),
    )
    .await
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
    let mut answers = Vec::new();
    for email in ["a@example.com", " B@Example.com ", "a@example.com"] {
        let reply = notify(&app, id, email).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        answers.push(reply.body["message"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        answers[0],
        "We will e-mail you once when Ginger Fizz is back in stock. A confirmation is on its way to a@example.com."
    );
    assert_eq!(
        answers[2],
        "This address is already on the list for Ginger Fizz: we will e-mail it once when it is back in stock."
    );
    // Each address is told once that it waits, with a link to stop; asking again mails nothing more.
    let mut confirmations = outbox_mails(&app, "is back").await;
    confirmations.retain(|(_, subject, _)| subject == "We will tell you when Ginger Fizz is back");
    confirmations.sort();
    let to: Vec<&str> = confirmations.iter().map(|(to, _, _)| to.as_str()).collect();
    assert_eq!(to, ["a@example.com", "b@example.com"]);
    assert!(confirmations[0]
        .2
        .contains("/api/product/notify/stop/?token="));
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
        .contains(&format!("{}/drinks/{id}", shared::testing::SITE_URL)));
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
        notify(&app, drink["_id"].as_str().unwrap(), email).await;
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
        .trim_start_matches(shared::testing::SITE_URL)
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
