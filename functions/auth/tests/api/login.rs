//! Login by e-mailed code: the login rules, each against the real table and SES emulator.

use crate::helpers::{latest_code, mails as mails_to, new_email, spawn_app, wrong};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_code_by_email_logs_a_new_customer_in() {
    let app = spawn_app().await;
    let email = new_email("first");
    let asked = app.ask_code(&email.to_uppercase()).await;
    assert_eq!(asked.status, StatusCode::OK);
    let mails = mails_to(&email);
    assert_eq!(mails.len(), 1, "one mail, to the lower-cased address");
    assert!(
        mails[0].1.contains("<html"),
        "an HTML body (the text part is there too)"
    );
    let code = latest_code(&email).unwrap();
    assert!(
        !mails[0].0.contains(&code),
        "the code is in the body only, never the subject a lock screen shows: {}",
        mails[0].0
    );
    let session = app.verify(&email, &code).await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.body);
    assert_eq!(session.body["userInfo"]["email"], email.as_str());
    assert_eq!(session.body["userInfo"]["role"], "customer");
    let token = session.body["token"].as_str().unwrap();
    let claims = app.keys.verify(token).unwrap();
    assert_eq!(claims.exp - claims.iat, 7 * 24 * 60 * 60);
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(token), None)
        .await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.body["email"], email.as_str());
}

#[tokio::test]
async fn the_answer_is_the_same_for_known_and_unknown_addresses() {
    let app = spawn_app().await;
    let known = new_email("known");
    app.log_in(&known).await;
    let unknown = new_email("unknown");
    let a = app.ask_code(&known).await;
    let b = app.ask_code(&unknown).await;
    assert_eq!((a.status, &a.body), (b.status, &b.body));
}

#[tokio::test]
async fn a_code_works_once() {
    let app = spawn_app().await;
    let email = new_email("once");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    assert_eq!(app.verify(&email, &code).await.status, StatusCode::OK);
    let again = app.verify(&email, &code).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        again.body["message"],
        "This code is wrong or has expired: ask for a new one"
    );
}

#[tokio::test]
async fn a_code_expires_after_ten_minutes() {
    let app = spawn_app().await;
    let email = new_email("late");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    // Ten minutes pass: move the stored expiry into the past (TTL removal itself is lazy in DynamoDB).
    let items = app.code_items(&email).await;
    assert_eq!(items.len(), 1);
    app.state
        .auth
        .users
        .client()
        .update_item()
        .table_name(&app.table)
        .set_key(Some(shared::dynamo::key_of(&items[0])))
        .update_expression("SET expiresAt = :past")
        .expression_attribute_values(":past", shared::dynamo::n(shared::time::now_unix() - 1))
        .send()
        .await
        .unwrap();
    let reply = app.verify(&email, &code).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_code_is_stored_only_as_a_keyed_hash_with_a_ttl() {
    let app = spawn_app().await;
    let email = new_email("hash");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    let items = app.code_items(&email).await;
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert!(item.values().all(|v| !format!("{v:?}").contains(&code)));
    let expires: i64 = item["expiresAt"].as_n().unwrap().parse().unwrap();
    let left = expires - shared::time::now_unix();
    assert!((590..=600).contains(&left), "{left}");
}

#[tokio::test]
async fn five_wrong_tries_burn_the_code() {
    let app = spawn_app().await;
    let email = new_email("guess");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    for left in (0..5).rev() {
        let reply = app.verify(&email, &wrong(&code)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        let expected = if left == 0 {
            "That code is wrong, and now used up: ask for a new one".to_owned()
        } else {
            format!("That code is wrong: {left} tries left")
        };
        assert_eq!(reply.body["message"], expected.as_str());
    }
    assert_eq!(
        app.verify(&email, &code).await.status,
        StatusCode::BAD_REQUEST,
        "the right code no longer works"
    );
}

#[tokio::test]
async fn the_eleventh_request_in_an_hour_is_refused_and_every_code_sent_still_works() {
    let app = spawn_app().await;
    let email = new_email("busy");
    let mut codes = Vec::new();
    for _ in 0..auth::MAX_CODES_PER_HOUR {
        assert_eq!(app.ask_code(&email).await.status, StatusCode::OK);
        codes.push(latest_code(&email).unwrap());
    }
    let refused = app.ask_code(&email).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Too many codes"));
    assert_eq!(mails_to(&email).len(), auth::MAX_CODES_PER_HOUR);
    // No request replaced an earlier code: the first and the last both log in, once each.
    for code in [&codes[0], codes.last().unwrap()] {
        let reply = app.verify(&email, code).await;
        assert_eq!(reply.status, StatusCode::OK, "{code}: {}", reply.body);
    }
    let again = app.verify(&email, &codes[0]).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "single use");
}

#[tokio::test]
async fn admin_emails_seed_the_first_admin_only_while_the_shop_has_none() {
    let app = spawn_app().await;
    let token = app.log_in(&app.admin_email).await;
    assert_eq!(
        app.keys.verify(&token).unwrap().role,
        shared::auth::Role::Admin
    );
    // An admin exists now: the second listed address signs up as a customer, like anyone else.
    let other = app.log_in(&app.other_admin).await;
    assert_eq!(
        app.keys.verify(&other).unwrap().role,
        shared::auth::Role::Customer
    );
    let users = app
        .call(
            Method::GET,
            "/api/user/lists?pageNumber=1",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(users.status, StatusCode::OK, "{}", users.body);
    let refused = app
        .call(Method::GET, "/api/user/lists", Some(&other), None)
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn bad_login_input_is_refused_and_sends_nothing() {
    let app = spawn_app().await;
    for (body, status) in [
        (
            json!({"email": "not-an-email"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"email": "a@b.co"}), StatusCode::UNPROCESSABLE_ENTITY),
        (json!({"email": 42}), StatusCode::BAD_REQUEST),
        (json!({}), StatusCode::BAD_REQUEST),
    ] {
        let reply = app
            .call(Method::POST, "/api/user/login/", None, Some(body.clone()))
            .await;
        assert_eq!(reply.status, status, "{body}");
        assert!(reply.body["message"].is_string());
    }
    assert!(mails_to("a@b.co").is_empty());
    let email = new_email("codes");
    for code in ["12345", "abcdef", "1234567", ""] {
        let reply = app.verify(&email, code).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{code}");
        assert_eq!(
            reply.body["message"],
            "code must be the 6 digits from the e-mail"
        );
    }
}

/// An address past RFC 5321's 254 characters is a 422 (it was a 500: too long a key).
#[tokio::test]
async fn an_address_over_254_characters_is_refused_and_one_at_254_is_taken() {
    let app = spawn_app().await;
    let reply = app
        .ask_code(&format!("{}@example.com", "a".repeat(3_000)))
        .await;
    assert_eq!(
        reply.status,
        http::StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(
        reply.body["message"],
        "email must be at most 254 characters"
    );
    let longest = format!("{}@{}.uk", "a".repeat(64), "b".repeat(254 - 68));
    assert_eq!(longest.len(), 254);
    let reply = app.ask_code(&longest).await;
    assert_eq!(reply.status, http::StatusCode::OK, "{}", reply.body);
}
