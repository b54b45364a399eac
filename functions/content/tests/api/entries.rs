//! About, who-we-are, policies and links: one shape, four lists.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;

/// The policies every shop has (content's `policies::STANDARD`).
const STANDARD_POLICIES: [&str; 5] = ["terms", "delivery", "returns", "privacy", "cookies"];

/// The spec's path for one policy.
fn show(id: &str) -> String {
    format!("/api/_uk_home/palestine/show/details/website/{id}")
}

const POLICY_SHOW_RETURNS: &str = "/api/_uk_home/palestine/show/details/website/returns";

fn is_standard(entry: &serde_json::Value) -> bool {
    STANDARD_POLICIES.contains(&entry["_id"].as_str().unwrap_or_default())
}

#[tokio::test]
async fn each_list_is_created_read_updated_and_deleted() {
    let app = spawn_app().await;
    for kind in ["about", "whoweare", "policy", "link"] {
        let mut body = json!({"name": format!("First {kind}"), "des": "Some words", "sort": 2});
        if kind == "link" {
            body["link"] = json!("https://example.com/recipes");
        }
        let first = app
            .admin(Method::POST, &format!("/api/{kind}/create/"), Some(body))
            .await;
        assert_eq!(first.status, StatusCode::CREATED, "{kind}: {}", first.body);
        let second = app
            .admin(
                Method::POST,
                &format!("/api/{kind}/create/"),
                Some(json!({"name": "Earlier", "sort": 1, "link": "/shop/drinks/"})),
            )
            .await;
        assert_eq!(
            second.status,
            StatusCode::CREATED,
            "{kind}: {}",
            second.body
        );
        let names: Vec<String> = app
            .get(&format!("/api/{kind}/"))
            .await
            .body
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| !is_standard(e))
            .map(|e| e["name"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            names,
            ["Earlier".to_owned(), format!("First {kind}")],
            "{kind}: in sort order"
        );

        let id = first.body["_id"].as_str().unwrap();
        let updated = app
            .admin(
                Method::PUT,
                &format!("/api/{kind}/update/{id}"),
                Some(json!({"des": "New words"})),
            )
            .await;
        assert_eq!(updated.body["des"], "New words");
        assert_eq!(updated.body["name"], format!("First {kind}"));
        let deleted = app
            .admin(Method::DELETE, &format!("/api/{kind}/delete/{id}"), None)
            .await;
        assert_eq!(deleted.status, StatusCode::OK);
        assert_eq!(
            app.get(&format!("/api/{kind}/"))
                .await
                .body
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| !is_standard(e))
                .count(),
            1
        );
        let gone = app
            .admin(Method::DELETE, &format!("/api/{kind}/delete/{id}"), None)
            .await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_policy_page_is_public_by_id() {
    let app = spawn_app().await;
    let policy = app
        .admin(
            Method::POST,
            "/api/policy/create/",
            Some(json!({"name": "Delivery", "des": "We deliver across the UK."})),
        )
        .await
        .body;
    let id = policy["_id"].as_str().unwrap();
    let page = app
        .get(&format!(
            "/api/_uk_home/palestine/show/details/website/{id}"
        ))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body["des"], "We deliver across the UK.");
    let missing = app
        .get("/api/_uk_home/palestine/show/details/website/nope")
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.body["message"], "No policy has this id");
}

#[tokio::test]
async fn bad_entries_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    for (kind, body, message) in [
        ("about", json!({"des": "no name"}), "name is required"),
        ("link", json!({"name": "Recipes"}), "link is required"),
        (
            "link",
            json!({"name": "Recipes", "link": "javascript:alert(1)"}),
            "link must be a web address (https://...) or a path in the shop (/...)",
        ),
        // Protocol-relative: another site to a browser, though it starts like a shop path.
        (
            "link",
            json!({"name": "Recipes", "link": "//evil.example/drinks"}),
            "link must be a web address (https://...) or a path in the shop (/...)",
        ),
        (
            "about",
            json!({"name": "About us", "link": "/\\evil.example"}),
            "link must be a web address (https://...) or a path in the shop (/...)",
        ),
        (
            "policy",
            json!({"name": "x"}),
            "name must be at least 3 characters",
        ),
    ] {
        let reply = app
            .admin(Method::POST, &format!("/api/{kind}/create/"), Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{kind}");
        assert_eq!(reply.body["message"], message);
    }
    let too_long = app
        .admin(
            Method::POST,
            "/api/about/create/",
            Some(json!({"name": "Long", "des": "x".repeat(5_001)})),
        )
        .await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY);
    for kind in ["about", "link"] {
        assert_eq!(app.get(&format!("/api/{kind}/")).await.body, json!([]));
    }
    let policies = app.get("/api/policy/").await.body;
    assert!(policies.as_array().unwrap().iter().all(is_standard));
}

#[tokio::test]
async fn the_policies_the_law_asks_for_are_always_there_and_editable() {
    let app = spawn_app().await;
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(
            json!({"name": "Fizz Ltd", "address": "1 Mill Yard, Leeds LS1 1AA",
            "email": "hello@fizz.example"}),
        ),
    )
    .await;
    let list = app.get("/api/policy/").await.body;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, STANDARD_POLICIES);
    let returns = app.get(POLICY_SHOW_RETURNS).await;
    assert_eq!(returns.status, StatusCode::OK);
    let text = returns.body["des"].as_str().unwrap();
    assert!(text.contains("## Model cancellation form"), "{text}");
    // The statutory form (schedule 3, part B), the trader's details filled in.
    assert!(text.contains("To Fizz Ltd, 1 Mill Yard, Leeds LS1 1AA, hello@fizz.example:\nI/We [*] hereby give notice"), "{text}");

    // Deleting a standard policy that was never saved is refused: the shop must show it.
    let refused = app
        .admin(Method::DELETE, "/api/policy/delete/terms", None)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);

    // The first save stores it under its id; later reads answer the saved text.
    let saved = app
        .admin(
            Method::PUT,
            "/api/policy/update/terms",
            Some(json!({"des": "Our own terms."})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["name"], "Terms of sale");
    assert_eq!(app.get(&show("terms")).await.body["des"], "Our own terms.");
    let again = app
        .admin(
            Method::PUT,
            "/api/policy/update/terms",
            Some(json!({"des": "Our own terms, revised."})),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    // Deleting the saved version brings the standard text back.
    let deleted = app
        .admin(Method::DELETE, "/api/policy/delete/terms", None)
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    let back = app.get(&show("terms")).await.body;
    assert!(back["des"]
        .as_str()
        .unwrap()
        .contains("The seller is Fizz Ltd"));
    assert_eq!(
        app.get(&show("no-such")).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_about_page_brings_about_who_we_are_and_site_info_together() {
    let app = spawn_app().await;
    app.admin(
        Method::POST,
        "/api/about/create/",
        Some(json!({"name": "Our story", "des": "Since 2020"})),
    )
    .await;
    app.admin(
        Method::POST,
        "/api/whoweare/create/",
        Some(json!({"name": "The team", "des": "Drink makers"})),
    )
    .await;
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks"})),
    )
    .await;
    let page = app
        .get("/api/home_uk/palestine/about/show_result/")
        .await
        .body;
    assert_eq!(page["about"][0]["name"], "Our story");
    assert_eq!(page["whoweare"][0]["name"], "The team");
    assert_eq!(page["connect"]["name"], "Palestine Drinks");
}
