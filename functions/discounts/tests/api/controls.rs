//! Control characters: a code's name and link refuse every one, its promotion text keeps line
//! breaks and tabs and refuses the rest.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_code_with_a_control_character_in_a_one_line_field_is_refused_and_nothing_changes() {
    let app = spawn_app().await;
    let created = app
        .admin(
            Method::POST,
            "/api/code/create/",
            Some(json!({"code": "SUMMER10", "discount": 10, "name": "Summer"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    for (field, value, message) in [
        (
            "name",
            "Summer\r\nBcc: x@example.com",
            "name cannot contain control characters",
        ),
        (
            "link",
            "/shop/\u{0}",
            "link cannot contain control characters",
        ),
        (
            "des",
            "Ten\u{b}off",
            "des cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let mut body = json!({});
        body[field] = json!(value);
        let updated = app
            .admin(Method::PUT, "/api/code/update/SUMMER10", Some(body.clone()))
            .await;
        assert_eq!(
            updated.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{value:?}"
        );
        assert_eq!(updated.body["message"], message, "{value:?}");
        body["code"] = json!("WINTER10");
        body["discount"] = json!(10);
        let new = app
            .admin(Method::POST, "/api/code/create/", Some(body))
            .await;
        assert_eq!(new.status, StatusCode::UNPROCESSABLE_ENTITY, "{value:?}");
    }
    let list = app.admin(Method::GET, "/api/code/", None).await.body;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0], created.body);

    let saved = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"des": "Ten per cent off.\r\n\tAll summer."})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["des"], "Ten per cent off.\r\n\tAll summer.");
}
