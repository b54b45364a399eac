//! The storefront's public lists: home, the drinks pages and search.

use crate::helpers::{drink, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn home_puts_default_drinks_first_and_lists_categories() {
    let app = spawn_app().await;
    let category = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(json!({"name": "Still"})),
        )
        .await
        .body;
    app.create_drink(drink("Apple Juice", 1.0)).await;
    let mut featured = drink("Berry Burst", 1.0);
    featured["Isdefault"] = json!(true);
    app.create_drink(featured).await;
    let home = app.get("/api/home/home/uk/").await;
    assert_eq!(home.status, StatusCode::OK);
    let names: Vec<&str> = home.body["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Berry Burst", "Apple Juice"]);
    assert_eq!(home.body["category"], json!([category]));
}

#[tokio::test]
async fn the_drinks_list_pages_by_twelve() {
    let app = spawn_app().await;
    for i in 0..14 {
        let mut body = drink(&format!("Drink {i:02}"), 1.0);
        body["sort"] = json!(i);
        app.create_drink(body).await;
    }
    let first = app.get("/api/home/drinks/hom/uk/uk/").await.body;
    assert_eq!(first["product"].as_array().unwrap().len(), 12);
    assert_eq!(first["pages"], 2);
    assert_eq!(first["result"], json!({"next": {"page": 2}}));
    let second = app
        .get("/api/home/drinks/hom/uk/uk/?pageNumber=2")
        .await
        .body;
    assert_eq!(second["product"].as_array().unwrap().len(), 2);
    assert_eq!(second["product"][0]["name"], "Drink 12");
    assert_eq!(second["result"], json!({}));
    let bad = app.get("/api/home/drinks/hom/uk/uk/?pageNumber=zero").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad.body["message"],
        "pageNumber must be a whole number from 1"
    );
}

#[tokio::test]
async fn the_drinks_list_filters_by_category() {
    let app = spawn_app().await;
    let category = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(json!({"name": "Juices"})),
        )
        .await
        .body["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut juice = drink("Pressed Apple", 2.0);
    juice["category"] = json!(category);
    app.create_drink(juice).await;
    app.create_drink(drink("Plain Soda", 1.0)).await;
    let page = app
        .get(&format!("/api/home/drinks/hom/uk/uk/?category={category}"))
        .await
        .body;
    let names: Vec<&str> = page["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Pressed Apple"]);
}

#[tokio::test]
async fn search_matches_every_word_and_answers_under_comment() {
    let app = spawn_app().await;
    app.create_drink(drink("Mango Fizz", 1.0)).await;
    app.create_drink(drink("Mango Still", 1.0)).await;
    app.create_drink(drink("Lemon Fizz", 1.0)).await;
    let found = app
        .get("/api/home/search/uk/palestinedrinks?search=MANGO%20fizz")
        .await;
    assert_eq!(found.status, StatusCode::OK);
    let names: Vec<&str> = found.body["comment"]["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Mango Fizz"]);
    assert_eq!(found.body["comment"]["pages"], 1);
    let none = app
        .get("/api/home/search/uk/palestinedrinks?search=cucumber")
        .await
        .body;
    assert_eq!(none["comment"]["product"], json!([]));
    let too_long = app
        .get(&format!(
            "/api/home/search/uk/palestinedrinks?search={}",
            "a".repeat(101)
        ))
        .await;
    assert_eq!(too_long.status, StatusCode::BAD_REQUEST);
}
