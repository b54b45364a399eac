//! The trader's company in the site info, the policies' standard words (delivery terms, privacy) and their
//! versions: an admin's every save kept, the terms' version an order records.

use crate::helpers::{spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};

async fn terms_version(app: &TestApp) -> u32 {
    let trader = app.state.trader().await.unwrap();
    content::versions::current_terms_version(
        app.state.store.client(),
        app.state.store.table(),
        &trader,
        &app.state.delivery,
    )
    .await
    .unwrap()
}

async fn policy(app: &TestApp, id: &str) -> Value {
    let reply = app
        .get(&format!(
            "/api/_uk_home/palestine/show/details/website/{id}"
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

#[tokio::test]
async fn the_company_is_kept_checked_and_named_as_the_seller_in_the_terms() {
    let app = spawn_app().await;
    let created = app
        .admin(
            Method::POST,
            "/api/connect/create/",
            Some(json!({"name": "Fizz", "address": "1 Mill Yard\nLeeds LS1 1AA", "companyName": "Fizz Drinks Ltd",
                "companyNumber": " sc123456 ", "registeredOffice": "2 Park Row\nLeeds LS1 5AB"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(
        (
            &created.body["companyName"],
            &created.body["companyNumber"],
            &created.body["registeredOffice"]
        ),
        (
            &json!("Fizz Drinks Ltd"),
            &json!("SC123456"),
            &json!("2 Park Row\nLeeds LS1 5AB")
        )
    );
    let refused = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"companyNumber": "1234"})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.body["message"],
        "companyNumber must be the 8 characters Companies House gives, e.g. 01234567 or SC123456"
    );
    let terms = policy(&app, "terms").await;
    let text = terms["des"].as_str().unwrap();
    assert!(
        text.contains("The seller is Fizz Drinks Ltd, company number SC123456, registered office 2 Park Row, Leeds LS1 5AB, trading as Fizz from 1 Mill Yard, Leeds LS1 1AA."),
        "{text}"
    );
    // The standard texts were last updated when their wording was, not at every view.
    assert_eq!(terms["updatedAt"], content::STANDARD_TEXTS_REVISED);
}

#[tokio::test]
async fn the_delivery_policy_states_the_charge_and_threshold_the_checkout_uses() {
    let app = spawn_app().await;
    let fee = app.state.delivery.fee.to_string();
    let free = shared::delivery::whole_pounds(app.state.delivery.free_from);
    let text = policy(&app, "delivery").await["des"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        text.contains(&format!(
            "costs {fee} per order, and is free when your basket comes to {free} or more"
        )),
        "{text}"
    );
    // An admin's own delivery policy may name them too, and is filled in as served.
    let saved = app
        .admin(
            Method::PUT,
            "/api/policy/update/delivery",
            Some(json!({"des": "Delivery is {deliveryFee}; free from {freeDeliveryFrom}."})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(
        policy(&app, "delivery").await["des"],
        format!("Delivery is {fee}; free from {free}.")
    );
    let listed = app.get("/api/policy/").await.body;
    let delivery = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["_id"] == "delivery")
        .unwrap();
    assert_eq!(
        delivery["des"],
        format!("Delivery is {fee}; free from {free}.")
    );
}

#[tokio::test]
async fn every_save_of_a_policy_is_kept_as_a_version_and_old_versions_stay_readable() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/api/policy/versions/privacy").await.body,
        json!([])
    );
    for des in ["First words of our own.", "Second words of our own."] {
        let saved = app
            .admin(
                Method::PUT,
                "/api/policy/update/privacy",
                Some(json!({"des": des})),
            )
            .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    }
    // Saving the same words again keeps no new version.
    app.admin(
        Method::PUT,
        "/api/policy/update/privacy",
        Some(json!({"des": "Second words of our own."})),
    )
    .await;
    let versions = app.get("/api/policy/versions/privacy").await;
    assert_eq!(versions.status, StatusCode::OK);
    let numbers: Vec<u64> = versions
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [2, 1], "newest first");
    assert_eq!(versions.body[0]["source"], "admin");
    let first = app.get("/api/policy/versions/privacy/1").await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(
        (first.body["des"].as_str(), first.body["_id"].as_str()),
        (Some("First words of our own."), Some("privacy"))
    );
    assert_eq!(
        app.get("/api/policy/versions/privacy/9").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/policy/versions/nonsense").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/api/policy/versions/privacy/first").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_terms_version_an_order_records_is_the_text_served_at_the_time() {
    let app = spawn_app().await;
    // Never saved: the standard terms as served now become version 1, once.
    assert_eq!(terms_version(&app).await, 1);
    assert_eq!(terms_version(&app).await, 1);
    let one = app.get("/api/policy/versions/terms/1").await.body;
    assert_eq!(one["source"], "standard");
    assert_eq!(one["des"], policy(&app, "terms").await["des"]);
    // The site info changes the standard words: the next order is sold under a new version.
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Fizz", "companyName": "Fizz Drinks Ltd"})),
    )
    .await;
    assert_eq!(terms_version(&app).await, 2);
    // The admin's own terms are version 3 as soon as saved; the checkout finds them kept.
    app.admin(
        Method::PUT,
        "/api/policy/update/terms",
        Some(json!({"des": "Our own terms, in full."})),
    )
    .await;
    assert_eq!(terms_version(&app).await, 3);
    assert_eq!(
        app.get("/api/policy/versions/terms/3").await.body["source"],
        "admin"
    );
    assert!(app.get("/api/policy/versions/terms/2").await.body["des"]
        .as_str()
        .unwrap()
        .contains("Fizz Drinks Ltd"));
}
