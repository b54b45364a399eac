//! Control characters: a review's name and date refuse every one, its comment keeps line breaks
//! and tabs and refuses the rest.

use crate::helpers::{review_of, spawn_app};
use http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_review_with_a_control_character_in_a_one_line_field_is_refused_and_stores_nothing() {
    let app = spawn_app().await;
    for (field, value, message) in [
        (
            "fullname",
            "Layla Haddad\r\nBcc: x@example.com",
            "fullname cannot contain control characters",
        ),
        (
            "fullname",
            "Layla\u{0}Haddad",
            "fullname cannot contain control characters",
        ),
        (
            "Date",
            "22 November\n2026",
            "Date cannot contain control characters",
        ),
        (
            "comment",
            "Crisp and\u{1b}[2J fizzy",
            "comment cannot contain control characters other than line breaks and tabs",
        ),
        (
            "comment",
            "Crisp and fizzy\u{c}",
            "comment cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let mut body = review_of(&app.cola, 5, "Layla Haddad");
        body[field] = json!(value);
        for uri in ["/api/reviews/create/", "/api/reviews/x/"] {
            let reply = app.post(uri, body.clone()).await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{uri} {value:?}"
            );
            assert_eq!(reply.body["message"], message, "{uri} {value:?}");
        }
    }
    assert_eq!(app.stored().await, 0);
}

#[tokio::test]
async fn a_review_comment_keeps_its_line_breaks() {
    let app = spawn_app().await;
    let mut body = review_of(&app.cola, 5, "Layla Haddad");
    body["comment"] = json!("Crisp.\r\nFizzy.\n\tNot too sweet.");
    let created = app.write(body).await;
    assert_eq!(created["comment"], "crisp.\r\nfizzy.\n\tnot too sweet.");
}
