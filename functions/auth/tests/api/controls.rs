//! Control characters: a profile's name refuses every one, its address keeps line breaks and
//! tabs and refuses the rest.

use crate::helpers::{new_email, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_profile_name_with_a_control_character_is_refused_and_an_address_keeps_its_lines() {
    let app = spawn_app().await;
    let token = app.log_in(&new_email("profile")).await;
    let saved = app
        .call(
            Method::PUT,
            "/api/user/profile/",
            Some(&token),
            Some(json!({"fullname": "Amira Haddad", "address": "1 High St\r\nLeeds\nLS1 1AA"})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["address"], "1 High St\r\nLeeds\nLS1 1AA");
    for (body, message) in [
        (
            json!({"fullname": "Amira Haddad\r\nBcc: x@example.com"}),
            "fullname cannot contain control characters",
        ),
        (
            json!({"fullname": "\n"}),
            "fullname cannot contain control characters",
        ),
        (
            json!({"fullname": "Amira\u{0}Haddad"}),
            "fullname cannot contain control characters",
        ),
        (
            json!({"address": "1 High St\u{b}Leeds"}),
            "address cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let reply = app
            .call(
                Method::PUT,
                "/api/user/profile/",
                Some(&token),
                Some(body.clone()),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(profile.body["fullname"], "Amira Haddad");
    assert_eq!(profile.body["address"], "1 High St\r\nLeeds\nLS1 1AA");
}
