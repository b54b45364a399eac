//! Passkeys, with webauthn-authenticator-rs's software passkey playing the browser and its authenticator:
//! registered by a signed-in user, listed and removed, and signing in whatever codes were asked or guessed
//! for the address meanwhile.

use crate::helpers::{latest_code, new_email, spawn_app, verify_from, wrong, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use webauthn_authenticator_rs::softpasskey::SoftPasskey;
use webauthn_authenticator_rs::WebauthnAuthenticator;
use webauthn_rs::prelude::Url;

/// The origin the test suites' shop answers at (testkit::SITE_URL).
fn origin() -> Url {
    Url::parse(testkit::SITE_URL).unwrap()
}

/// Registers a passkey held by `authenticator` for the holder of `token`: the finish's reply.
async fn register(
    app: &TestApp,
    token: &str,
    authenticator: &mut SoftPasskey,
    name: &str,
) -> crate::helpers::Reply {
    let start = app
        .call(
            Method::POST,
            "/api/user/passkey/register/start/",
            Some(token),
            None,
        )
        .await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let options = serde_json::from_value(start.body["options"].clone()).unwrap();
    let credential = authenticator
        .do_registration(origin(), options)
        .expect("the software passkey registers");
    app.call(
        Method::POST,
        "/api/user/passkey/register/finish/",
        Some(token),
        Some(json!({
            "ceremony": start.body["ceremony"],
            "credential": credential,
            "name": name,
        })),
    )
    .await
}

/// Starts a sign-in for `email`: the start's reply.
async fn start_sign_in(app: &TestApp, email: &str) -> crate::helpers::Reply {
    app.call(
        Method::POST,
        "/api/user/passkey/login/start/",
        None,
        Some(json!({ "email": email })),
    )
    .await
}

/// What the authenticator signs for a started sign-in.
fn sign(authenticator: &mut SoftPasskey, start: &Value) -> Value {
    let options = serde_json::from_value(start["options"].clone()).unwrap();
    serde_json::to_value(
        authenticator
            .do_authentication(origin(), options)
            .expect("the software passkey signs"),
    )
    .unwrap()
}

async fn finish_sign_in(
    app: &TestApp,
    email: &str,
    start: &Value,
    credential: Value,
) -> crate::helpers::Reply {
    app.call(
        Method::POST,
        "/api/user/passkey/login/finish/",
        None,
        Some(json!({
            "email": email,
            "ceremony": start["ceremony"],
            "credential": credential,
        })),
    )
    .await
}

#[tokio::test]
async fn the_admin_registers_a_passkey_and_signs_in_with_it_while_strangers_flood_the_codes() {
    let app = spawn_app().await;
    let email = app.admin_email.clone();
    let token = app.log_in(&email).await;
    let mut authenticator = SoftPasskey::new(true);
    let registered = register(&app, &token, &mut authenticator, "Office laptop").await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "{}",
        registered.body
    );
    assert_eq!(registered.body["name"], "Office laptop");
    let listed = app
        .call(Method::GET, "/api/user/passkeys/", Some(&token), None)
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body.as_array().unwrap().len(), 1);
    assert_eq!(listed.body[0]["_id"], registered.body["_id"]);
    assert_eq!(listed.body[0]["lastUsedAt"], "");

    // Strangers ask for codes from many networks until the address's cap, and guess them wrong until
    // the address itself is locked for codes.
    for network in 0..10 {
        let ip = format!("203.0.113.{}", 100 + network);
        let _ = app.ask_code_from(&ip, &email).await;
        let code = latest_code(&email).unwrap();
        for _ in 0..5 {
            verify_from(&app.client, Some(&ip), &email, &wrong(&code)).await;
        }
    }
    let code_refused = app.ask_code_from("198.51.100.1", &email).await;
    assert_eq!(code_refused.status, StatusCode::TOO_MANY_REQUESTS);

    // The passkey signs in all the same, as the admin.
    let start = start_sign_in(&app, &email).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let credential = sign(&mut authenticator, &start.body);
    let session = finish_sign_in(&app, &email, &start.body, credential.clone()).await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.body);
    assert_eq!(session.body["userInfo"]["role"], "admin");
    let claims = app
        .keys
        .verify(session.body["token"].as_str().unwrap())
        .unwrap();
    assert_eq!(claims.sub, email);

    // A ceremony is used once: the same signature again is refused.
    let replayed = finish_sign_in(&app, &email, &start.body, credential).await;
    assert_eq!(
        replayed.status,
        StatusCode::BAD_REQUEST,
        "{}",
        replayed.body
    );
    assert!(replayed.body.get("token").is_none());
    let listed = app
        .call(Method::GET, "/api/user/passkeys/", Some(&token), None)
        .await;
    assert_ne!(listed.body[0]["lastUsedAt"], "");
}

#[tokio::test]
async fn another_users_passkey_or_a_forged_credential_signs_nobody_in() {
    let app = spawn_app().await;
    let owner = new_email("owner");
    let mut owners_key = SoftPasskey::new(true);
    let token = app.log_in(&owner).await;
    let registered = register(&app, &token, &mut owners_key, "Phone").await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "{}",
        registered.body
    );

    // A stranger with a passkey of their own answers the owner's challenge.
    let stranger = new_email("stranger");
    let mut strangers_key = SoftPasskey::new(true);
    let strangers_token = app.log_in(&stranger).await;
    register(&app, &strangers_token, &mut strangers_key, "Theirs").await;
    let start = start_sign_in(&app, &owner).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let theirs = start_sign_in(&app, &stranger).await;
    let wrong_key = sign(&mut strangers_key, &theirs.body);
    let refused = finish_sign_in(&app, &owner, &start.body, wrong_key).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(refused.body.get("token").is_none());

    // Not a credential at all, or an unknown ceremony.
    let start = start_sign_in(&app, &owner).await;
    for (ceremony, credential, message) in [
        (
            start.body["ceremony"].clone(),
            json!({"id": "x"}),
            "credential is not a WebAuthn credential",
        ),
        (
            json!("00000000-0000-4000-8000-000000000000"),
            sign(&mut owners_key, &start.body),
            "This passkey request has expired or was used: start again",
        ),
    ] {
        let reply = app
            .call(
                Method::POST,
                "/api/user/passkey/login/finish/",
                None,
                Some(json!({"email": owner, "ceremony": ceremony, "credential": credential})),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        assert_eq!(reply.body["message"], message);
    }
}

#[tokio::test]
async fn a_removed_passkey_no_longer_signs_in_and_an_address_without_one_is_told_to_use_a_code() {
    let app = spawn_app().await;
    let email = new_email("remover");
    let token = app.log_in(&email).await;
    let mut authenticator = SoftPasskey::new(true);
    let registered = register(&app, &token, &mut authenticator, "").await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "{}",
        registered.body
    );
    assert!(registered.body["name"]
        .as_str()
        .unwrap()
        .starts_with("Passkey added "));
    let id = registered.body["_id"].as_str().unwrap();
    let removed = app
        .call(
            Method::DELETE,
            &format!("/api/user/passkeys/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    let again = app
        .call(
            Method::DELETE,
            &format!("/api/user/passkeys/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    for address in [email.as_str(), "never.here@example.com"] {
        let start = start_sign_in(&app, address).await;
        assert_eq!(start.status, StatusCode::BAD_REQUEST, "{}", start.body);
        assert_eq!(
            start.body["message"],
            "No passkey of this address could be used: sign in with an e-mailed code instead"
        );
    }
    // Registering needs a session; another user cannot remove someone's passkey.
    let anonymous = app
        .call(
            Method::POST,
            "/api/user/passkey/register/start/",
            None,
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let registered = register(&app, &token, &mut authenticator, "Back").await;
    let id = registered.body["_id"].as_str().unwrap().to_owned();
    let other = app.log_in(&new_email("other")).await;
    let theirs = app
        .call(
            Method::DELETE,
            &format!("/api/user/passkeys/{id}"),
            Some(&other),
            None,
        )
        .await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    let start = start_sign_in(&app, &email).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
}

#[tokio::test]
async fn a_closed_account_cannot_sign_in_with_its_passkey() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let email = new_email("closed");
    let token = app.log_in(&email).await;
    let mut authenticator = SoftPasskey::new(true);
    register(&app, &token, &mut authenticator, "Mine").await;
    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/user/delete/{email}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    // The passkey is kept for when an admin opens the account again, and signs nobody in meanwhile.
    let start = start_sign_in(&app, &email).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let credential = sign(&mut authenticator, &start.body);
    let refused = finish_sign_in(&app, &email, &start.body, credential).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(refused.body.get("token").is_none());
}
