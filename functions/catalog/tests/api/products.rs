//! Product and category CRUD through the router.

use crate::helpers::{drink, spawn_app};
use axum::body::Body;
use catalog::Store;
use http::{header, Method, Request, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_new_shop_lists_no_products() {
    let app = spawn_app().await;
    let reply = app.get("/api/product/").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, json!([]));
}

#[tokio::test]
async fn an_admin_creates_a_drink_that_everyone_can_read() {
    let app = spawn_app().await;
    let created = app
        .create_drink(
            json!({"name": "  Mango Fizz ", "price": 1.99, "qty": "24 x 330ml", "discount": 15,
            "Discountprice": 0.01, "TheNumber": 10, "Isdefault": true, "image": ["mango.png"]}),
        )
        .await;
    assert_eq!(created["name"], "Mango Fizz");
    assert_eq!(created["price"], 1.99);
    assert_eq!(created["Discountprice"], 1.69, "computed, not the client's");
    assert_eq!(created["TheNumber"], 10);
    let id = created["_id"].as_str().unwrap();
    assert_eq!(uuid_version(id), Some(4));

    let one = app.get(&format!("/api/product/{id}")).await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.body, created);
    let list = app.get("/api/product").await;
    assert_eq!(list.body, json!([created]));
}

/// The version digit of a hyphenated UUID.
fn uuid_version(id: &str) -> Option<u32> {
    (id.len() == 36)
        .then(|| id.chars().nth(14)?.to_digit(16))
        .flatten()
}

#[tokio::test]
async fn products_are_listed_in_sort_order_then_by_name() {
    let app = spawn_app().await;
    for (name, sort) in [
        ("Cherry Cola", 2),
        ("Apple Spritz", 2),
        ("Lemonade", 1),
        ("Zesty Lime", 0),
    ] {
        let mut body = drink(name, 1.5);
        body["sort"] = json!(sort);
        app.create_drink(body).await;
    }
    let names: Vec<String> = app
        .get("/api/product/")
        .await
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        ["Zesty Lime", "Lemonade", "Apple Spritz", "Cherry Cola"]
    );
}

#[tokio::test]
async fn an_update_changes_only_the_fields_sent() {
    let app = spawn_app().await;
    let created = app.create_drink(drink("Ginger Beer", 2.25)).await;
    let id = created["_id"].as_str().unwrap();
    let reply = app
        .call(Method::PUT, &format!("/api/product/update/{id}"), Some(&app.admin),
            Some(json!({"price": "2.50", "_id": "someone-else", "createdAt": "1999-01-01T00:00:00Z"})))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["price"], 2.5);
    assert_eq!(reply.body["name"], "Ginger Beer");
    assert_eq!(reply.body["_id"], id);
    assert_eq!(reply.body["createdAt"], created["createdAt"]);
    assert_eq!(
        app.get(&format!("/api/product/{id}")).await.body,
        reply.body
    );
}

#[tokio::test]
async fn unknown_ids_are_404_for_read_update_and_delete() {
    let app = spawn_app().await;
    let missing = "00000000-0000-4000-8000-000000000000";
    assert_eq!(
        app.get(&format!("/api/product/{missing}")).await.status,
        StatusCode::NOT_FOUND
    );
    let update = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{missing}"),
            Some(&app.admin),
            Some(json!({"price": 3})),
        )
        .await;
    assert_eq!(update.status, StatusCode::NOT_FOUND);
    assert_eq!(update.body["message"], "No drink has this id");
    let delete = app
        .call(
            Method::DELETE,
            &format!("/api/product/delete/{missing}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(delete.status, StatusCode::NOT_FOUND);
    assert_eq!(app.product_count().await, 0);
}

#[tokio::test]
async fn a_deleted_drink_is_gone() {
    let app = spawn_app().await;
    let id = app.create_drink(drink("Cloudy Lemonade", 1.2)).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let reply = app
        .call(
            Method::DELETE,
            &format!("/api/product/delete/{id}/"),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["message"], "The drink was deleted");
    assert_eq!(app.product_count().await, 0);
}

#[tokio::test]
async fn a_deleted_drink_waits_in_the_bin_and_comes_back_as_it_was() {
    let app = spawn_app().await;
    let mut body = drink("Orange Sparkle", 1.8);
    body["TheNumber"] = json!(7);
    let created = app.create_drink(body).await;
    let id = created["_id"].as_str().unwrap().to_owned();
    let admin = Some(app.admin.as_str());
    let delete = format!("/api/product/delete/{id}");
    assert_eq!(
        app.call(Method::DELETE, &delete, admin, None).await.status,
        StatusCode::OK
    );
    // Gone from the shop, in the bin with its name; only an admin sees the bin.
    assert_eq!(app.product_count().await, 0);
    assert_eq!(
        app.get(&format!("/api/product/{id}")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/product/bin/").await.status,
        StatusCode::UNAUTHORIZED
    );
    let bin = app
        .call(Method::GET, "/api/product/bin/", admin, None)
        .await;
    assert_eq!(bin.status, StatusCode::OK);
    let entries = bin.body.as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        (&entries[0]["_id"], &entries[0]["label"]),
        (&json!(id), &json!("Orange Sparkle"))
    );
    assert!(entries[0]["expiresAt"].as_str().unwrap() > entries[0]["deletedAt"].as_str().unwrap());
    // Deleting it again finds nothing to delete.
    assert_eq!(
        app.call(Method::DELETE, &delete, admin, None).await.status,
        StatusCode::NOT_FOUND
    );

    let restore = format!("/api/product/restore/{id}");
    let back = app.call(Method::POST, &restore, admin, None).await;
    assert_eq!(back.status, StatusCode::OK, "{:?}", back.body);
    assert_eq!(back.body["message"], "Orange Sparkle is back in the shop");
    let one = app.get(&format!("/api/product/{id}")).await;
    assert_eq!(one.body, created, "stock, price and all, as before");
    let bin = app
        .call(Method::GET, "/api/product/bin/", admin, None)
        .await;
    assert_eq!(bin.body, json!([]));
    // Restoring twice, or what was never deleted, is a clear 404.
    let again = app.call(Method::POST, &restore, admin, None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert_eq!(again.body["message"], "No drink with this id is in the bin");
}

#[tokio::test]
async fn bad_bodies_get_a_clear_4xx_and_store_nothing() {
    let app = spawn_app().await;
    let cases: Vec<(&str, Option<&str>, String, StatusCode, &str)> = vec![
        (
            "malformed",
            Some("application/json"),
            "{\"name\": ".into(),
            StatusCode::BAD_REQUEST,
            "The body is not valid JSON",
        ),
        (
            "not an object",
            Some("application/json"),
            "\"cola\"".into(),
            StatusCode::BAD_REQUEST,
            "The body does not fit",
        ),
        (
            "wrong type",
            Some("application/json"),
            r#"{"name": 12, "price": 1, "qty": "x"}"#.into(),
            StatusCode::BAD_REQUEST,
            "name: invalid type",
        ),
        (
            "missing name",
            Some("application/json"),
            r#"{"price": 1, "qty": "6 x 330ml"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name is required",
        ),
        (
            "missing price",
            Some("application/json"),
            r#"{"name": "Cola", "qty": "6 x 330ml"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "price is required",
        ),
        (
            "negative price",
            Some("application/json"),
            r#"{"name": "Cola", "price": -1, "qty": "6"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "price must not be negative",
        ),
        (
            "empty body",
            Some("application/json"),
            String::new(),
            StatusCode::BAD_REQUEST,
            "The body is empty",
        ),
        (
            "no content type",
            None,
            drink("Cola", 1.0).to_string(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the body as JSON",
        ),
        (
            "huge",
            Some("application/json"),
            format!(
                r#"{{"name": "Cola", "price": 1, "qty": "6", "des": "{}"}}"#,
                "x".repeat(1_100_000)
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "The body is too large",
        ),
        (
            "unknown category",
            Some("application/json"),
            r#"{"name": "Cola", "price": 1, "qty": "6", "category": "nope"}"#.into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "category: no category has this id",
        ),
    ];
    for (label, content_type, body, status, message) in cases {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri("/api/product/create/")
            .header(header::AUTHORIZATION, format!("Bearer {}", app.admin));
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let reply = app.send(request.body(Body::from(body)).unwrap()).await;
        assert_eq!(reply.status, status, "{label}: {}", reply.body);
        let text = reply.body["message"].as_str().unwrap_or_default();
        assert!(text.starts_with(message), "{label}: {text}");
    }
    assert_eq!(app.product_count().await, 0);
}

#[tokio::test]
async fn a_bad_update_changes_nothing() {
    let app = spawn_app().await;
    let created = app.create_drink(drink("Orangeade", 1.4)).await;
    let id = created["_id"].as_str().unwrap();
    for body in [
        json!({"price": 0}),
        json!({"name": "x"}),
        json!({"TheNumber": 2.5}),
        json!({"image": ["../x"]}),
    ] {
        let reply = app
            .call(
                Method::PUT,
                &format!("/api/product/update/{id}"),
                Some(&app.admin),
                Some(body),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            reply.body
        );
    }
    assert_eq!(app.get(&format!("/api/product/{id}")).await.body, created);
}

#[tokio::test]
async fn a_stale_save_is_refused_rather_than_overwriting() {
    let app = spawn_app().await;
    let id = app.create_drink(drink("Dandelion Brew", 1.8)).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let store: &Store = &app.state.store;
    let stale = store.get::<catalog::Product>(&id).await.unwrap().unwrap();
    let fresh = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{id}"),
            Some(&app.admin),
            Some(json!({"price": 2})),
        )
        .await;
    assert_eq!(fresh.status, StatusCode::OK);
    let err = store.replace(&stale).await.unwrap_err();
    assert_eq!(err.status(), StatusCode::CONFLICT);
    assert_eq!(
        app.get(&format!("/api/product/{id}")).await.body["price"],
        2.0
    );
}

#[tokio::test]
async fn categories_are_managed_and_guard_their_drinks() {
    let app = spawn_app().await;
    let reply = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(json!({"name": "Sparkling", "des": "Bubbles"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let category = reply.body["_id"].as_str().unwrap().to_owned();
    let mut body = drink("Sparkling Elderflower", 2.1);
    body["category"] = json!(category);
    let drink_id = app.create_drink(body).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let renamed = app
        .call(
            Method::PUT,
            &format!("/api/category/update/{category}"),
            Some(&app.admin),
            Some(json!({"name": "Fizzy"})),
        )
        .await;
    assert_eq!(renamed.body["name"], "Fizzy");
    assert_eq!(renamed.body["des"], "Bubbles");
    assert_eq!(
        app.get("/api/category/")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let refused = app
        .call(
            Method::DELETE,
            &format!("/api/category/delete/{category}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(
        app.get("/api/category/")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );

    app.call(
        Method::DELETE,
        &format!("/api/product/delete/{drink_id}"),
        Some(&app.admin),
        None,
    )
    .await;
    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/category/delete/{category}"),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    assert_eq!(app.get("/api/category/").await.body, json!([]));
}

#[tokio::test]
async fn a_category_needs_a_name() {
    let app = spawn_app().await;
    let reply = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(json!({"des": "x"})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.body["message"], "name is required");
    assert_eq!(app.get("/api/category/").await.body, json!([]));
}

fn cola_nutrition() -> serde_json::Value {
    json!({"energyKj": 180, "energyKcal": 42, "fat": 0, "saturates": 0, "carbohydrate": 10.6,
        "sugars": 10.6, "protein": 0, "salt": 0})
}

#[tokio::test]
async fn a_drink_carries_its_food_information() {
    let app = spawn_app().await;
    let mut body = drink("Barley Cola", 1.99);
    body["ingredients"] = json!("Carbonated water, sugar, *barley* malt extract, caffeine.");
    body["allergens"] = json!(["sulphites", "gluten"]);
    body["nutrition"] = cola_nutrition();
    body["caffeineMgPerLitre"] = json!(320);
    body["storage"] = json!("Store in a cool, dry place.");
    let created = app.create_drink(body).await;
    assert_eq!(created["allergens"], json!(["gluten", "sulphites"]));
    assert_eq!(created["nutrition"]["sugars"], 10.6);
    assert_eq!(created["nutrition"]["energyKj"], 180);
    assert_eq!(created["caffeineMgPerLitre"], 320);
    let id = created["_id"].as_str().unwrap();
    assert_eq!(app.get(&format!("/api/product/{id}")).await.body, created);

    // null clears the declaration and the caffeine; fields left out stay.
    let cleared = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{id}"),
            Some(&app.admin),
            Some(json!({"nutrition": null, "caffeineMgPerLitre": null})),
        )
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.body);
    assert_eq!(cleared.body["nutrition"], json!(null));
    assert_eq!(cleared.body["caffeineMgPerLitre"], json!(null));
    assert_eq!(cleared.body["allergens"], json!(["gluten", "sulphites"]));

    // A drink with none of it answers empty fields, not missing ones.
    let plain = app.create_drink(drink("Plain Water", 0.99)).await;
    assert_eq!(
        (
            &plain["ingredients"],
            &plain["allergens"],
            &plain["nutrition"]
        ),
        (&json!(""), &json!([]), &json!(null))
    );
}

#[tokio::test]
async fn food_information_that_breaks_a_rule_is_422_naming_the_field_and_changes_nothing() {
    let app = spawn_app().await;
    let created = app.create_drink(drink("Lemon Fizz", 1.49)).await;
    let id = created["_id"].as_str().unwrap();
    let with = |field: &str, value: serde_json::Value| {
        let mut nutrition = cola_nutrition();
        nutrition[field] = value;
        json!({ "nutrition": nutrition })
    };
    for (body, message) in [
        (
            with("sugars", json!(11)),
            "nutrition.sugars cannot be more than nutrition.carbohydrate",
        ),
        (
            with("saturates", json!(0.5)),
            "nutrition.saturates cannot be more than nutrition.fat",
        ),
        (
            with("salt", json!(-1)),
            "nutrition.salt must be grams from 0 to 100",
        ),
        (
            with("protein", json!(0.25)),
            "nutrition.protein must have at most 1 decimal",
        ),
        (
            json!({"allergens": ["gluten", "chocolate"]}),
            "allergens: \"chocolate\" is not one of the 14 allergens",
        ),
        (
            json!({"caffeineMgPerLitre": 2.5}),
            "caffeineMgPerLitre must be a whole number from 0 to 2000",
        ),
        (
            json!({"ingredients": "Water, *barley malt"}),
            "ingredients: an allergen mark is not closed",
        ),
    ] {
        let reply = app
            .call(
                Method::PUT,
                &format!("/api/product/update/{id}"),
                Some(&app.admin),
                Some(body.clone()),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(
            reply.body["message"].as_str().unwrap().starts_with(message),
            "{}",
            reply.body
        );
    }
    // A declaration missing a value does not fit the document: 400 naming it.
    let reply = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{id}"),
            Some(&app.admin),
            Some(json!({"nutrition": {"energyKj": 1}})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(reply.body["message"]
        .as_str()
        .unwrap()
        .contains("nutrition"));
    assert_eq!(app.get(&format!("/api/product/{id}")).await.body, created);
}

#[tokio::test]
async fn a_drink_over_150_mg_of_caffeine_a_litre_is_sold_from_16() {
    let app = spawn_app().await;
    let mut body = drink("Night Shift", 2.49);
    body["caffeineMgPerLitre"] = json!(150);
    let at_the_line = app.create_drink(body.clone()).await;
    assert_eq!(at_the_line["minimumAge"], json!(null));
    body["name"] = json!("Night Shift Max");
    body["caffeineMgPerLitre"] = json!(151);
    let over = app.create_drink(body).await;
    assert_eq!(over["minimumAge"], 16);
    let id = over["_id"].as_str().unwrap();
    assert_eq!(
        app.get(&format!("/api/product/{id}")).await.body["minimumAge"],
        16
    );
    let decaf = app
        .call(
            Method::PUT,
            &format!("/api/product/update/{id}"),
            Some(&app.admin),
            Some(json!({"caffeineMgPerLitre": null})),
        )
        .await;
    assert_eq!(decaf.body["minimumAge"], json!(null));
    let plain = app.create_drink(drink("Still Water", 0.99)).await;
    assert_eq!(plain["minimumAge"], json!(null));
}
