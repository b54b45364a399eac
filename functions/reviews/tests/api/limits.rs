//! Rate limits on writing reviews: five an hour per e-mail address, thirty per viewer address (as
//! CloudFront reports it, shared::edge). A refused review stores nothing and moves no count.

use crate::helpers::{review_of, spawn_app};
use http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn one_email_address_writes_five_reviews_an_hour() {
    let app = spawn_app().await;
    for n in 0..reviews::LIMIT_PER_EMAIL {
        let mut body = review_of(&app.cola, 5, "Layla Haddad");
        // The limit is per address, however it is written.
        body["email"] = json!(if n % 2 == 0 {
            "layla@example.com"
        } else {
            " LAYLA@example.com "
        });
        app.write(body).await;
    }
    let mut sixth = review_of(&app.mango, 4, "Layla Haddad");
    sixth["email"] = json!("Layla@Example.com");
    let refused = app.post("/api/reviews/create/", sixth).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    let message = refused.body["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "You have written several reviews with this e-mail address already: try again in"
        ),
        "{message}"
    );
    assert_eq!(app.summary().await["Thecount"], 5);
    assert_eq!(app.stored().await, 5);
    // Someone else is not held up.
    app.write(review_of(&app.mango, 4, "Sami Khalil")).await;
    assert_eq!(app.summary().await["ratings"]["4"], 1);
}

#[tokio::test]
async fn one_viewer_address_writes_thirty_reviews_an_hour() {
    let app = spawn_app().await;
    let send = |email: String| {
        let mut body = review_of(&app.cola, 5, "Layla Haddad");
        body["email"] = json!(email);
        let client = app.client.clone();
        async move {
            client
                .call_from(
                    "203.0.113.44",
                    http::Method::POST,
                    "/api/reviews/create/",
                    Some(body),
                )
                .await
        }
    };
    for _ in 0..reviews::LIMIT_PER_IP {
        let reply = send(testkit::new_email("crowd")).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }
    let refused = send(testkit::new_email("crowd")).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Many reviews were written from your network in the last hour"));
    assert_eq!(app.summary().await["Thecount"], reviews::LIMIT_PER_IP);
    // Without a viewer address (the local gateway) only the e-mail limit applies.
    app.write(review_of(&app.cola, 5, "Layla Haddad")).await;
}

#[tokio::test]
async fn the_check_route_uses_up_no_part_of_an_addresss_hourly_limit() {
    let app = spawn_app().await;
    let mut body = review_of(&app.cola, 5, "Layla Haddad");
    body["email"] = json!("checked.often@example.com");
    // The storefront posts every review's payload to /api/reviews/x/ beside the create: were those counted,
    // a shopper who retried a refused review would be locked out by checks alone.
    for _ in 0..reviews::LIMIT_PER_EMAIL + 2 {
        let reply = app.post("/api/reviews/x/", body.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert_eq!(app.stored().await, 0);
    assert_eq!(app.summary().await["Thecount"], 0);
    for _ in 0..reviews::LIMIT_PER_EMAIL {
        app.write(body.clone()).await;
    }
    assert_eq!(app.stored().await, reviews::LIMIT_PER_EMAIL);
}
