//! The contact form: stored, e-mailed to the shop, validated, rate-limited.

use crate::helpers::{shop_address, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;
use testkit::{mails_to, new_email};

fn message(email: &str) -> serde_json::Value {
    json!({"fullname": "Amira Haddad", "email": email, "phone": "07700 900123", "message": "Do you deliver to Belfast?"})
}

const FEEDBACK: &str = "/api/_uk_home/palestine/feedback/send/only/";

#[tokio::test]
async fn a_message_reaches_the_shops_address() {
    let app = spawn_app().await;
    let shop = shop_address();
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks", "email": shop})),
    )
    .await;
    let sender = new_email("visitor");
    let reply = app
        .client
        .call(Method::POST, FEEDBACK, None, Some(message(&sender)))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(
        reply.body["message"],
        "Thank you: we reply within 24 hours on business days (Monday to Friday)."
    );
    let mails = mails_to(&shop);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].0, "Message from Amira Haddad via the contact form");
    assert!(mails[0].1.contains("Do you deliver to Belfast?"));
    assert!(mails[0].1.contains(&sender));
    // Kept a year, as the privacy notice says, then gone by the table's TTL.
    let id = reply.body["_id"].as_str().unwrap();
    let stored = app
        .state
        .store
        .client()
        .get_item()
        .table_name(app.state.store.table())
        .key("pk", shared::dynamo::s(format!("FEEDBACK#{id}")))
        .key("sk", shared::dynamo::s("FEEDBACK"))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    let expires: i64 = shared::dynamo::get_n(&stored, "expiresAt").unwrap();
    let year = content::feedback::KEEP_SECONDS;
    assert!(
        (expires - shared::time::now_unix() - year).abs() < 60,
        "{expires}"
    );
}

#[tokio::test]
async fn bad_messages_are_refused_and_send_nothing() {
    let app = spawn_app().await;
    let shop = shop_address();
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks", "email": shop})),
    )
    .await;
    let sender = new_email("visitor");
    for (field, value, status) in [
        ("fullname", json!("Amy"), StatusCode::UNPROCESSABLE_ENTITY),
        (
            "email",
            json!("not-an-email"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        ("phone", json!("123"), StatusCode::UNPROCESSABLE_ENTITY),
        ("message", json!("Hi"), StatusCode::UNPROCESSABLE_ENTITY),
        ("message", json!(42), StatusCode::BAD_REQUEST),
    ] {
        let mut body = message(&sender);
        body[field] = value;
        let reply = app
            .client
            .call(Method::POST, FEEDBACK, None, Some(body))
            .await;
        assert_eq!(reply.status, status, "{field}");
        assert!(
            reply.body["message"].as_str().unwrap().contains(field),
            "{}",
            reply.body
        );
    }
    assert!(mails_to(&shop).is_empty());
}

#[tokio::test]
async fn a_sender_can_send_five_messages_an_hour() {
    let app = spawn_app().await;
    let shop = shop_address();
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks", "email": shop})),
    )
    .await;
    let sender = new_email("chatty");
    for _ in 0..5 {
        assert_eq!(
            app.client
                .call(Method::POST, FEEDBACK, None, Some(message(&sender)))
                .await
                .status,
            StatusCode::CREATED
        );
    }
    let sixth = app
        .client
        .call(Method::POST, FEEDBACK, None, Some(message(&sender)))
        .await;
    assert_eq!(sixth.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(mails_to(&shop).len(), 5);
}

/// The contact form's free text is capped (name 100, message 1000); past a cap it is a 4xx that
/// says the cap, and nothing is sent.
#[tokio::test]
async fn over_long_contact_fields_are_refused_with_their_cap() {
    let app = spawn_app().await;
    let sender = new_email("long");
    for (field, value, expected) in [
        (
            "message",
            "m".repeat(1001),
            "message must be from 10 to 1000 characters",
        ),
        (
            "fullname",
            "n".repeat(101),
            "fullname must be at most 100 characters",
        ),
    ] {
        let mut body = message(&sender);
        body[field] = json!(value);
        let reply = app
            .client
            .call(Method::POST, FEEDBACK, None, Some(body))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            reply.body
        );
        assert_eq!(reply.body["message"], expected);
    }
    let mut longest = message(&sender);
    longest["message"] = json!("m".repeat(1000));
    let reply = app
        .client
        .call(Method::POST, FEEDBACK, None, Some(longest))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
}

/// A sender's address past 254 characters is a 422 (it was a 500), and nothing is sent.
#[tokio::test]
async fn a_sender_address_over_254_characters_is_refused() {
    let app = spawn_app().await;
    let long = format!("{}@example.com", "a".repeat(3_000));
    let reply = app
        .client
        .call(Method::POST, FEEDBACK, None, Some(message(&long)))
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(
        reply.body["message"],
        "email must be at most 254 characters"
    );
}

/// One network cannot make the shop mail on behalf of any number of addresses: past the limit per
/// viewer address a message is refused, whichever e-mail it gives, and another network is not held up.
#[tokio::test]
async fn one_network_is_limited_whatever_addresses_it_gives() {
    let app = spawn_app().await;
    for i in 0..content::feedback::PER_ADDRESS.limit {
        let reply = app
            .client
            .call_from(
                "198.51.100.23",
                Method::POST,
                FEEDBACK,
                Some(message(&new_email(&format!("sender{i}")))),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{i}: {}", reply.body);
    }
    let fresh = new_email("fresh");
    let refused = app
        .client
        .call_from(
            "198.51.100.23",
            Method::POST,
            FEEDBACK,
            Some(message(&fresh)),
        )
        .await;
    testkit::assert_too_many(&refused, content::feedback::PER_ADDRESS.refusal);
    let elsewhere = app
        .client
        .call_from(
            "198.51.100.24",
            Method::POST,
            FEEDBACK,
            Some(message(&fresh)),
        )
        .await;
    assert_eq!(elsewhere.status, StatusCode::CREATED, "{}", elsewhere.body);
}
