//! The API Gateway event fixtures in events/auth, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{latest_code, new_email, spawn_app};
use http::StatusCode;
use serde_json::Value;
use webauthn_authenticator_rs::softpasskey::SoftPasskey;
use webauthn_authenticator_rs::WebauthnAuthenticator;

/// `value` as it sits inside an event's JSON body (itself a JSON string).
fn embedded(value: &Value) -> String {
    let inner = serde_json::to_string(value).unwrap();
    let quoted = serde_json::to_string(&inner).unwrap();
    quoted[1..quoted.len() - 1].to_owned()
}

#[tokio::test]
async fn every_auth_event_fixture_is_served() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let customer_email = new_email("fixture");
    let customer = app.log_in(&customer_email).await;
    let other = new_email("other");
    app.log_in(&other).await;
    let email = new_email("event");
    let eraser_email = new_email("eraser");
    let eraser = app.log_in(&eraser_email).await;
    let passkey_email = new_email("passkey");
    let passkey_token = app.log_in(&passkey_email).await;
    let mut authenticator = SoftPasskey::new(true);
    let origin = webauthn_rs::prelude::Url::parse(testkit::SITE_URL).unwrap();
    // What a start answered: its ceremony and options, for the finish after it.
    let mut started = Value::Null;
    let mut passkey_id = String::new();

    let dir = testkit::emulator::repo_root().join("events/auth");
    let order = [
        "request-code",
        "verify-code",
        "show-profile",
        "update-profile",
        "list-users",
        "change-role",
        "delete-user",
        "export-my-data",
        "request-erasure",
        "confirm-erasure",
        "admin-erasure",
        "list-erasures",
        "start-passkey-registration",
        "finish-passkey-registration",
        "list-passkeys",
        "start-passkey-sign-in",
        "finish-passkey-sign-in",
        "delete-passkey",
        // Last: it ends the customer's token.
        "log-out",
    ];
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        auth::routes().len(),
        "one event per auth route"
    );
    for name in order {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let code = latest_code(&email).unwrap_or_default();
        let mut text = text
            .replace("PASSKEY_EMAIL", &passkey_email)
            .replace("PASSKEY_TOKEN", &passkey_token)
            .replace("PASSKEY_ID", &passkey_id)
            .replace("OTHER_EMAIL", &other)
            .replace(
                "ERASE_CODE",
                &latest_code(&eraser_email).unwrap_or_default(),
            )
            .replace("EMAIL", &email)
            .replace("ERASER_TOKEN", &eraser)
            .replace("CODE", &code)
            .replace("ADMIN_TOKEN", &admin)
            .replace("CUSTOMER_TOKEN", &customer);
        // The browser's part of a ceremony, played by a software passkey, after the placeholders above (a
        // credential's base64 could hold one of their names).
        if name.starts_with("finish-passkey") {
            let options = started["options"].clone();
            let credential = if name == "finish-passkey-registration" {
                serde_json::to_value(
                    authenticator
                        .do_registration(origin.clone(), serde_json::from_value(options).unwrap())
                        .unwrap(),
                )
            } else {
                serde_json::to_value(
                    authenticator
                        .do_authentication(origin.clone(), serde_json::from_value(options).unwrap())
                        .unwrap(),
                )
            }
            .unwrap();
            text = text
                .replace("CEREMONY", started["ceremony"].as_str().unwrap())
                .replace("\\\"CREDENTIAL\\\"", &embedded(&credential));
        }
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status == StatusCode::OK || reply.status == StatusCode::CREATED,
            "{name}: {} {}",
            reply.status,
            reply.body
        );
        if name.starts_with("start-passkey") {
            started = reply.body.clone();
        }
        if name == "list-passkeys" {
            passkey_id = reply.body[0]["_id"].as_str().unwrap().to_owned();
        }
    }
}
