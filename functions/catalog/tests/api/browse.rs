//! Finding a drink: the shop's orders and filters (paging continues the chosen order), the ratings on the
//! cards, and search that forgives a misspelt word.

use crate::helpers::{drink, spawn_app, TestApp};
use catalog::{Product, Store};
use http::{Method, StatusCode};
use serde_json::{json, Value};

const DRINKS: &str = "/api/home/drinks/hom/uk/uk/";
const SEARCH: &str = "/api/home/search/uk/palestinedrinks";

async fn category(app: &TestApp, name: &str) -> String {
    app.call(
        Method::POST,
        "/api/category/create/",
        Some(&app.admin),
        Some(json!({"name": name})),
    )
    .await
    .body["_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A drink in the admin's position `sort`, with a price, a discount, a stock and a category.
async fn stocked(
    app: &TestApp,
    name: &str,
    sort: u32,
    price: f64,
    discount: u32,
    stock: u32,
    category: Option<&str>,
) -> String {
    let mut body = drink(name, price);
    body["sort"] = json!(sort);
    body["discount"] = json!(discount);
    body["TheNumber"] = json!(stock);
    if let Some(category) = category {
        body["category"] = json!(category);
    }
    app.create_drink(body).await["_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn names(app: &TestApp, uri: &str) -> Vec<String> {
    let reply = app.get(uri).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.body);
    TestApp::names(&reply.body)
}

#[tokio::test]
async fn the_shop_sorts_by_the_price_paid_the_newest_and_the_best_rated() {
    let app = spawn_app().await;
    // Prices paid: Apple 3.00, Berry 2.00 (4.00 less half), Cherry 5.00, Damson 1.00.
    let apple = stocked(&app, "Apple", 1, 3.0, 0, 5, None).await;
    let berry = stocked(&app, "Berry", 2, 4.0, 50, 5, None).await;
    let cherry = stocked(&app, "Cherry", 3, 5.0, 0, 5, None).await;
    stocked(&app, "Damson", 4, 1.0, 0, 5, None).await;
    // Added on different days: Cherry last, Apple first.
    let store: &Store = &app.state.store;
    for (id, day) in [(&apple, "01"), (&berry, "02"), (&cherry, "03")] {
        let mut stored = store.get::<Product>(id).await.unwrap().unwrap();
        stored.created_at = format!("2026-03-{day}T10:00:00Z");
        store.replace(&stored).await.unwrap();
    }
    app.rate(&berry, &[5, 4]).await; // 4.5 of 2
    app.rate(&cherry, &[5, 5, 4, 4]).await; // 4.5 of 4
    app.rate(&apple, &[5]).await; // 5.0 of 1

    assert_eq!(
        names(&app, DRINKS).await,
        ["Apple", "Berry", "Cherry", "Damson"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?sort=featured")).await,
        ["Apple", "Berry", "Cherry", "Damson"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?sort=price-asc")).await,
        ["Damson", "Berry", "Apple", "Cherry"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?sort=price-desc")).await,
        ["Cherry", "Apple", "Berry", "Damson"]
    );
    // Damson was created just now, after the dates written above.
    assert_eq!(
        names(&app, &format!("{DRINKS}?sort=newest")).await,
        ["Damson", "Cherry", "Berry", "Apple"]
    );
    // Equal averages: more reviews first; unreviewed last.
    assert_eq!(
        names(&app, &format!("{DRINKS}?sort=rating")).await,
        ["Apple", "Cherry", "Berry", "Damson"]
    );
}

#[tokio::test]
async fn the_cards_carry_the_average_rating_and_the_number_of_reviews() {
    let app = spawn_app().await;
    let cola = stocked(&app, "Cola", 1, 2.0, 0, 5, None).await;
    stocked(&app, "Lime", 2, 2.0, 0, 5, None).await;
    app.rate(&cola, &[5, 4, 4]).await;
    let page = app.get(DRINKS).await.body;
    assert_eq!(page["product"][0]["avgRating"], 4.3);
    assert_eq!(page["product"][0]["totalComments"], 3);
    // No reviews: a count of 0, never a made-up average.
    assert_eq!(page["product"][1]["avgRating"], 0.0);
    assert_eq!(page["product"][1]["totalComments"], 0);
    let home = app.get("/api/home/home/uk/").await.body;
    assert_eq!(home["product"][0]["totalComments"], 3);
    let search = app.get(&format!("{SEARCH}?search=cola")).await.body;
    assert_eq!(search["comment"]["product"][0]["avgRating"], 4.3);
}

#[tokio::test]
async fn the_shop_filters_by_category_stock_and_price_range() {
    let app = spawn_app().await;
    let colas = category(&app, "Colas").await;
    stocked(&app, "Classic Cola", 1, 2.5, 0, 5, Some(&colas)).await;
    stocked(&app, "Cherry Cola", 2, 3.0, 0, 0, Some(&colas)).await;
    stocked(&app, "Spring Water", 3, 1.0, 0, 9, None).await;
    stocked(&app, "Mango Fizz", 4, 6.0, 50, 2, None).await; // 3.00 paid

    assert_eq!(
        names(&app, &format!("{DRINKS}?category={colas}")).await,
        ["Classic Cola", "Cherry Cola"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?inStock=true")).await,
        ["Classic Cola", "Spring Water", "Mango Fizz"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?inStock=false")).await.len(),
        4
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?minPrice=2.50&maxPrice=3")).await,
        ["Classic Cola", "Cherry Cola", "Mango Fizz"]
    );
    assert_eq!(
        names(&app, &format!("{DRINKS}?maxPrice=2.49")).await,
        ["Spring Water"]
    );
    assert_eq!(
        names(
            &app,
            &format!("{DRINKS}?category={colas}&inStock=true&sort=price-desc&minPrice=1")
        )
        .await,
        ["Classic Cola"]
    );
    let none = app.get(&format!("{DRINKS}?minPrice=100")).await.body;
    assert_eq!(
        (none["product"].clone(), none["pages"].clone()),
        (json!([]), json!(1))
    );
}

#[tokio::test]
async fn a_sorted_page_two_continues_page_one() {
    let app = spawn_app().await;
    // The admin's order runs against the price, so a sort that paged before sorting would show.
    for i in 0..15u32 {
        let stock = if i % 4 == 0 { 0 } else { 3 };
        stocked(
            &app,
            &format!("Drink {i:02}"),
            i,
            f64::from(i) + 1.0,
            0,
            stock,
            None,
        )
        .await;
    }
    let uri = format!("{DRINKS}?sort=price-desc");
    let first = app.get(&uri).await.body;
    assert_eq!(first["pages"], 2);
    assert_eq!(first["result"], json!({"next": {"page": 2}}));
    let second = app.get(&format!("{uri}&pageNumber=2")).await.body;
    assert_eq!(second["result"], json!({}));
    let mut all = TestApp::names(&first);
    all.extend(TestApp::names(&second));
    let expected: Vec<String> = (0..15).rev().map(|i| format!("Drink {i:02}")).collect();
    assert_eq!(all, expected);

    // Filtered too: 11 in stock, one page of them.
    let in_stock = app
        .get(&format!("{uri}&inStock=true&pageNumber=1"))
        .await
        .body;
    assert_eq!(in_stock["pages"], 1);
    assert_eq!(TestApp::names(&in_stock)[0], "Drink 14");
    assert_eq!(TestApp::names(&in_stock).len(), 11);
}

#[tokio::test]
async fn bad_sort_and_filter_values_are_refused_with_a_message() {
    let app = spawn_app().await;
    for (query, message) in [
        (
            "sort=cheapest",
            "sort must be featured, price-asc, price-desc, newest or rating",
        ),
        ("inStock=1", "inStock must be true or false"),
        (
            "minPrice=abc",
            "minPrice must be an amount in pounds, like 4 or 4.99",
        ),
        (
            "maxPrice=-2",
            "maxPrice must be an amount in pounds, like 4 or 4.99",
        ),
        (
            "maxPrice=2.555",
            "maxPrice must be an amount in pounds, like 4 or 4.99",
        ),
        (
            "minPrice=9&maxPrice=3",
            "minPrice must not be above maxPrice",
        ),
        (
            "sort=rating&pageNumber=0",
            "pageNumber must be a whole number from 1",
        ),
    ] {
        let reply = app.get(&format!("{DRINKS}?{query}")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(reply.body, json!({"message": message}), "{query}");
    }
    let twice = app.get(&format!("{DRINKS}?sort=newest&sort=rating")).await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST);
    assert!(twice.body["message"].is_string());
}

async fn search(app: &TestApp, query: &str) -> crate::helpers::Reply {
    app.get(&format!("{SEARCH}?search={query}")).await
}

#[tokio::test]
async fn a_misspelt_search_finds_the_drinks_and_says_what_it_searched() {
    let app = spawn_app().await;
    let sodas = category(&app, "Fruit Sodas").await;
    stocked(&app, "Classic Cola", 1, 2.0, 0, 5, None).await;
    stocked(&app, "Cherry Cola", 2, 2.0, 0, 5, None).await;
    let mut lemon = drink("Lemon & Lime", 2.0);
    lemon["des"] = json!("Zesty lemons and limes, lightly sparkling.");
    lemon["category"] = json!(sodas);
    app.create_drink(lemon).await;
    stocked(&app, "Spring Water", 4, 1.0, 0, 5, None).await;

    let colla = search(&app, "colla").await.body;
    assert_eq!(
        TestApp::names(&colla["comment"]),
        ["Classic Cola", "Cherry Cola"]
    );
    assert_eq!(colla["didYouMean"], "cola");

    let lemmon = search(&app, "LEMMON").await.body;
    assert_eq!(TestApp::names(&lemmon["comment"]), ["Lemon & Lime"]);
    assert_eq!(lemmon["didYouMean"], "lemon");

    // Two words, one right and one two edits off (a long word may be).
    let two = search(&app, "cherry%20cloa").await.body;
    assert_eq!(TestApp::names(&two["comment"]), ["Cherry Cola"]);
    assert_eq!(two["didYouMean"], "cherry cola");
    let long = search(&app, "sparkilng").await.body;
    assert_eq!(long["didYouMean"], "sparkling");

    // Matched as typed: no correction, even where a nearer spelling exists.
    let exact = search(&app, "cola").await.body;
    assert_eq!(exact["didYouMean"], Value::Null);
    assert_eq!(TestApp::names(&exact["comment"]).len(), 2);
    // The category's name is searched too.
    let category = search(&app, "sodas").await.body;
    assert_eq!(TestApp::names(&category["comment"]), ["Lemon & Lime"]);
    assert_eq!(category["didYouMean"], Value::Null);

    // Nothing near: nothing found, nothing suggested.
    for far in ["cucumber", "xq", "cola%20zzzzzz"] {
        let none = search(&app, far).await.body;
        assert_eq!(none["comment"]["product"], json!([]), "{far}");
        assert_eq!(none["didYouMean"], Value::Null, "{far}");
    }
}

#[tokio::test]
async fn the_lists_show_the_admins_changes_at_once() {
    let app = spawn_app().await;
    stocked(&app, "First Fizz", 1, 2.0, 0, 5, None).await;
    assert_eq!(names(&app, DRINKS).await, ["First Fizz"]);
    let id = stocked(&app, "Second Fizz", 2, 2.0, 0, 5, None).await;
    assert_eq!(names(&app, DRINKS).await, ["First Fizz", "Second Fizz"]);
    let renamed = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{id}"),
            Some(&app.admin),
            Some(json!({"name": "Lemon Fizz"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK);
    let found = app.get(&format!("{SEARCH}?search=lemon")).await.body;
    assert_eq!(TestApp::names(&found["comment"]), ["Lemon Fizz"]);
    let gone = app
        .call(
            Method::DELETE,
            &format!("/api/product/delete/{id}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(gone.status, StatusCode::OK);
    assert_eq!(names(&app, DRINKS).await, ["First Fizz"]);
}
