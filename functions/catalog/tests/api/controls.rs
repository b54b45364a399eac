//! Control characters: a drink's or a category's one-line fields refuse every one, its
//! descriptions and ingredients keep their line breaks and tabs and refuse the rest; search refuses them.

use crate::helpers::{drink, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

const ONE_LINE: &str = "cannot contain control characters";
const LINES: &str = "cannot contain control characters other than line breaks and tabs";

#[tokio::test]
async fn a_drink_with_a_control_character_in_a_one_line_field_is_refused_and_nothing_changes() {
    let app = spawn_app().await;
    let created = app.create_drink(drink("Mango Fizz", 1.99)).await;
    let id = created["_id"].as_str().unwrap();
    for (field, value, rule) in [
        ("name", "Mango\nFizz", ONE_LINE),
        ("name", "Mango Fizz\r\nBcc: x@example.com", ONE_LINE),
        ("name", "Mango\u{0}Fizz", ONE_LINE),
        ("name", "Mango Fizz\t", ONE_LINE),
        ("qty", "24 x\u{7f} 330ml", ONE_LINE),
        ("storage", "Cool\nand dry", ONE_LINE),
        ("category", "\u{1b}drinks", ONE_LINE),
        ("des", "Made in\u{c}small batches", LINES),
        ("des2", "Made\u{0}", LINES),
        ("ingredients", "Water,\u{b} sugar", LINES),
    ] {
        let mut body = json!({});
        body[field] = json!(value);
        for (method, uri) in [
            (Method::PUT, format!("/api/product/update/{id}")),
            (Method::POST, "/api/product/create/".to_owned()),
        ] {
            let mut body = body.clone();
            if method == Method::POST {
                body = drink("Lime Fizz", 1.5);
                body[field] = json!(value);
            }
            let reply = app.call(method, &uri, Some(&app.admin), Some(body)).await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{field}: {value:?}"
            );
            assert_eq!(
                reply.body["message"],
                format!("{field} {rule}"),
                "{field}: {value:?}"
            );
        }
    }
    assert_eq!(app.get(&format!("/api/product/{id}")).await.body, created);
    assert_eq!(app.product_count().await, 1);
}

#[tokio::test]
async fn a_drinks_descriptions_and_ingredients_keep_their_line_breaks() {
    let app = spawn_app().await;
    let mut body = drink("Barley Cola", 1.99);
    body["des"] = json!("Crisp.\nCold.");
    body["des2"] = json!("First paragraph.\r\n\r\n\tSecond paragraph.");
    body["ingredients"] = json!("Carbonated water,\nsugar,\n*barley* malt extract.");
    let created = app.create_drink(body).await;
    let id = created["_id"].as_str().unwrap();
    let read = app.get(&format!("/api/product/{id}")).await.body;
    assert_eq!(read["des"], "Crisp.\nCold.");
    assert_eq!(read["des2"], "First paragraph.\r\n\r\n\tSecond paragraph.");
    assert_eq!(
        read["ingredients"],
        "Carbonated water,\nsugar,\n*barley* malt extract."
    );
}

#[tokio::test]
async fn a_category_name_with_a_line_break_is_refused() {
    let app = spawn_app().await;
    for (body, message) in [
        (
            json!({"name": "Soft\r\ndrinks"}),
            "name cannot contain control characters",
        ),
        (
            json!({"name": "Soft drinks", "des": "a\u{0}b"}),
            "des cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let reply = app
            .call(
                Method::POST,
                "/api/category/create/",
                Some(&app.admin),
                Some(body),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.body["message"], message);
    }
    assert_eq!(app.get("/api/category/").await.body, json!([]));
    let created = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(json!({"name": "Soft drinks", "des": "Fizzy.\nStill."})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["des"], "Fizzy.\nStill.");
}

#[tokio::test]
async fn a_search_with_a_control_character_is_a_400() {
    let app = spawn_app().await;
    let reply = app
        .get("/api/home/search/uk/palestinedrinks?search=mango%0D%0Afizz")
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.body["message"],
        "search cannot contain control characters"
    );
    let fine = app
        .get("/api/home/search/uk/palestinedrinks?search=mango%20fizz")
        .await;
    assert_eq!(fine.status, StatusCode::OK);
}
