//! Tokens that end (logout, role change, deletion), admins seeded only once, deleted users kept
//! out, profile saves that touch only the profile, and the daily bound on wrong codes.

use crate::helpers::{latest_code, new_email, spawn_app, verify_from, wrong};
use http::{Method, StatusCode};
use serde_json::json;
use shared::auth::Role;

#[tokio::test]
async fn logging_out_ends_every_token_of_that_user_at_once() {
    let app = spawn_app().await;
    let email = new_email("leaver");
    let phone = app.log_in(&email).await;
    let laptop = app.log_in(&email).await;
    let someone_else = app.log_in(&new_email("stayer")).await;
    let out = app
        .call(Method::POST, "/api/user/logout/", Some(&phone), None)
        .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    for token in [&phone, &laptop] {
        let reply = app
            .call(Method::GET, "/api/user/profile/", Some(token), None)
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(reply.body["message"], "token failed");
    }
    let other = app
        .call(Method::GET, "/api/user/profile/", Some(&someone_else), None)
        .await;
    assert_eq!(other.status, StatusCode::OK, "other users stay logged in");
    // A fresh login works again.
    let again = app.log_in(&email).await;
    let reply = app
        .call(Method::GET, "/api/user/profile/", Some(&again), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    // Logging out needs a token.
    let anonymous = app
        .call(Method::POST, "/api/user/logout/", None, None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn tokens_live_twelve_hours_for_admins_and_a_week_for_customers() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let claims = app.keys.verify(&admin).unwrap();
    assert_eq!(claims.role, Role::Admin);
    assert_eq!(claims.exp - claims.iat, 12 * 60 * 60);
    let customer = app.log_in(&new_email("weekly")).await;
    let claims = app.keys.verify(&customer).unwrap();
    assert_eq!(claims.exp - claims.iat, 7 * 24 * 60 * 60);
}

#[tokio::test]
async fn the_auth_function_signs_with_ed25519_that_others_verify_with_the_public_key() {
    let app = spawn_app().await;
    let token = app.log_in(&new_email("signed")).await;
    let header = jsonwebtoken::decode_header(&token).unwrap();
    assert_eq!(header.alg, jsonwebtoken::Algorithm::EdDSA);
    let verifier =
        shared::auth::AuthKeys::verifying(&testkit::public_key(), "shop", "shop").unwrap();
    assert!(verifier.verify(&token).is_ok());
    assert!(!verifier.can_sign());
}

#[tokio::test]
async fn a_demoted_admin_in_admin_emails_stays_demoted_at_the_next_login() {
    let app = spawn_app().await;
    let boss = app.log_in(&app.admin_email).await;
    app.log_in(&app.other_admin).await;
    let promoted = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{}", app.other_admin),
            Some(&boss),
            Some(json!({"role": "admin"})),
        )
        .await;
    assert_eq!(promoted.status, StatusCode::OK, "{}", promoted.body);
    let demoted = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{}", app.other_admin),
            Some(&boss),
            Some(json!({"role": "customer"})),
        )
        .await;
    assert_eq!(demoted.status, StatusCode::OK, "{}", demoted.body);
    let token = app.log_in(&app.other_admin).await;
    assert_eq!(app.keys.verify(&token).unwrap().role, Role::Customer);
    assert_eq!(
        app.call(Method::GET, "/api/user/lists", Some(&token), None)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_deleted_user_stays_out_until_an_admin_gives_them_a_role_again() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let email = new_email("banned");
    app.log_in(&email).await;
    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/user/delete/{email}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(app.ask_code(&email).await.status, StatusCode::OK);
    let code = latest_code(&email).unwrap();
    let refused = app.verify(&email, &code).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let listed = app
        .call(Method::GET, "/api/user/lists", Some(&admin), None)
        .await;
    assert!(!listed.body.to_string().contains(&email), "{}", listed.body);

    let back = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{email}"),
            Some(&admin),
            Some(json!({"role": "customer"})),
        )
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    let token = app.log_in(&email).await;
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.body);
    assert_eq!(profile.body["fullname"], "", "the old profile was wiped");
}

#[tokio::test]
async fn profile_saves_racing_a_role_change_never_undo_it() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let email = new_email("racer");
    let token = app.log_in(&email).await;
    let mut saves = tokio::task::JoinSet::new();
    for i in 0..15 {
        let client = app.client.clone();
        let token = token.clone();
        saves.spawn(async move {
            client
                .call(
                    Method::PUT,
                    "/api/user/profile/",
                    Some(&token),
                    Some(json!({"fullname": format!("Racing Person {i}")})),
                )
                .await
        });
    }
    let promoted = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{email}"),
            Some(&admin),
            Some(json!({"role": "admin"})),
        )
        .await;
    assert_eq!(promoted.status, StatusCode::OK, "{}", promoted.body);
    while let Some(reply) = saves.join_next().await {
        let reply = reply.unwrap();
        assert!(
            reply.status == StatusCode::OK || reply.status == StatusCode::UNAUTHORIZED,
            "{}",
            reply.body
        );
    }
    let token = app.log_in(&email).await;
    assert_eq!(app.keys.verify(&token).unwrap().role, Role::Admin);
    let users = app
        .call(Method::GET, "/api/user/lists", Some(&token), None)
        .await;
    assert_eq!(users.status, StatusCode::OK, "the promotion stood");
}

#[tokio::test]
async fn ten_wrong_codes_a_day_lock_the_address_even_for_the_right_code() {
    let app = spawn_app().await;
    let email = new_email("guesser");
    // Two codes, five wrong tries each: the per-code limit alone would allow this forever.
    for _ in 0..2 {
        app.ask_code(&email).await;
        let code = latest_code(&email).unwrap();
        for _ in 0..5 {
            let reply = app.verify(&email, &wrong(&code)).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        }
    }
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    let refused = app.verify(&email, &code).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    let message = refused.body["message"].as_str().unwrap();
    assert!(
        message.starts_with("Too many wrong codes for this address today: try again in"),
        "{message}"
    );
    assert!(refused.headers.contains_key("retry-after"));
    // Another address is not affected.
    let other = new_email("innocent");
    app.log_in(&other).await;
}

#[tokio::test]
async fn one_viewer_address_asks_for_a_bounded_number_of_codes_an_hour() {
    let app = spawn_app().await;
    let ask = |ip: &'static str, email: String| {
        let client = app.client.clone();
        async move {
            client
                .call_from(
                    ip,
                    Method::POST,
                    "/api/user/login/",
                    Some(json!({ "email": email })),
                )
                .await
        }
    };
    for _ in 0..30 {
        let reply = ask("203.0.113.99", new_email("spray")).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let victim = new_email("victim");
    let refused = ask("203.0.113.99", victim.clone()).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert!(refused.headers.contains_key("retry-after"));
    assert!(
        crate::helpers::mails(&victim).is_empty(),
        "nothing was sent"
    );
    let elsewhere = ask("198.51.100.99", victim.clone()).await;
    assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.body);
}

/// Fifty different wrong codes at once, from one viewer address.
async fn guess_in_parallel(
    app: &crate::helpers::TestApp,
    email: &str,
    code: &str,
    ip: Option<&str>,
) -> Vec<String> {
    let mut guesses = tokio::task::JoinSet::new();
    let right: u32 = code.parse().unwrap();
    for i in 1..=50u32 {
        let client = app.client.clone();
        let email = email.to_owned();
        let ip = ip.map(str::to_owned);
        let guess = format!("{:06}", (right + i) % 1_000_000);
        guesses.spawn(async move { verify_from(&client, ip.as_deref(), &email, &guess).await });
    }
    let mut messages = Vec::new();
    while let Some(reply) = guesses.join_next().await {
        let reply = reply.unwrap();
        assert!(
            reply.status == StatusCode::BAD_REQUEST
                || reply.status == StatusCode::TOO_MANY_REQUESTS,
            "a wrong guess never succeeds: {} {}",
            reply.status,
            reply.body
        );
        messages.push(
            reply.body["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
    }
    messages
}

#[tokio::test]
async fn fifty_parallel_wrong_guesses_burn_the_code_and_the_right_one_is_refused() {
    let app = spawn_app().await;
    let email = new_email("racer.guess");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    let messages = guess_in_parallel(&app, &email, &code, None).await;
    let compared = messages
        .iter()
        .filter(|m| m.starts_with("That code is wrong"))
        .count();
    assert!(
        compared <= 5,
        "only the code's five tries reach the comparison, {compared} did: {messages:?}"
    );
    let right = app.verify(&email, &code).await;
    assert!(
        right.status == StatusCode::BAD_REQUEST || right.status == StatusCode::TOO_MANY_REQUESTS,
        "the right code after fifty wrong ones is refused: {} {}",
        right.status,
        right.body
    );
    assert!(right.body.get("token").is_none());
}

#[tokio::test]
async fn one_network_guessing_cannot_lock_the_address_out_for_everyone() {
    let app = spawn_app().await;
    let email = app.admin_email.clone();
    let attacker = Some("203.0.113.66");
    for _ in 0..2 {
        app.ask_code(&email).await;
        let code = latest_code(&email).unwrap();
        for _ in 0..5 {
            let reply = verify_from(&app.client, attacker, &email, &wrong(&code)).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        }
    }
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    let attacker_right = verify_from(&app.client, attacker, &email, &code).await;
    assert_eq!(
        attacker_right.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the guessing network is locked out of this address: {}",
        attacker_right.body
    );
    assert!(attacker_right.headers.contains_key("retry-after"));
    // The admin, elsewhere, still logs in with the same code.
    let admin = verify_from(&app.client, Some("198.51.100.7"), &email, &code).await;
    assert_eq!(admin.status, StatusCode::OK, "{}", admin.body);
    assert_eq!(admin.body["userInfo"]["role"], "admin");
}

#[tokio::test]
async fn wrong_codes_from_many_networks_lock_the_address_itself() {
    let app = spawn_app().await;
    let email = new_email("spread");
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    // Ten networks, five guesses each: the code's five tries go first, every later guess still counts.
    for network in 0..10 {
        let ip = format!("203.0.113.{}", 10 + network);
        for _ in 0..5 {
            let reply = verify_from(&app.client, Some(&ip), &email, &wrong(&code)).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        }
    }
    app.ask_code(&email).await;
    let code = latest_code(&email).unwrap();
    let refused = verify_from(&app.client, Some("198.51.100.8"), &email, &code).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    // Another address is not affected.
    app.log_in(&new_email("bystander")).await;
}
