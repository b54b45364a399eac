//! Control characters: an order's name refuses every one (it reaches the mails' text), its
//! address and note keep line breaks and tabs and refuse the rest; the admin's search refuses them.

use crate::helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn an_order_with_a_control_character_in_its_name_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 5, 0).await;
    let good = || checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    for (field, value, message) in [
        (
            "fullname",
            "Amira Haddad\r\nBcc: x@example.com",
            "fullname cannot contain control characters",
        ),
        (
            "fullname",
            "Amira\u{0}Haddad",
            "fullname cannot contain control characters",
        ),
        (
            "address",
            "1 High St\u{b}Leeds LS1 1AA",
            "address cannot contain control characters other than line breaks and tabs",
        ),
        (
            "message",
            "Leave it\u{7} by the door",
            "message cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let mut body = good();
        body[field] = json!(value);
        let reply = app.place(body).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{value:?}");
        assert_eq!(reply.body["message"], message, "{value:?}");
    }
    assert_eq!(app.stock(&soda).await, 5);
    let listed = app.admin(Method::GET, "/api/order", None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body["product"], json!([]), "{}", listed.body);

    let mut body = good();
    body["address"] = json!("1 High St\r\nLeeds\nLS1 1AA");
    body["message"] = json!("Leave it\n\tby the door");
    let placed = app.place(body).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let order = app.stored(placed.body.as_str().unwrap()).await;
    assert_eq!(order["address"], "1 High St\r\nLeeds\nLS1 1AA");
    assert_eq!(order["message"], "Leave it\n\tby the door");
}

#[tokio::test]
async fn an_order_search_with_a_control_character_is_a_400() {
    let app = spawn_app().await;
    let reply = app
        .admin(Method::GET, "/api/order?search=amira%0Ahaddad", None)
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.body["message"],
        "search cannot contain control characters"
    );
}
