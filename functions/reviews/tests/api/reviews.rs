//! Reviews: writing one (and every way to get it wrong), the public list and summary, paging, the admin's
//! list and delete, and the summary's counts after each.

use crate::helpers::{has_key, review_of, spawn_app};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::auth::Role;

#[tokio::test]
async fn a_shopper_writes_a_review_and_the_public_never_sees_the_email() {
    let app = spawn_app().await;
    let created = app
        .write(json!({
            "rating": 4,
            "comment": "  Crisp, FIZZY and not too sweet.  ",
            "fullname": "  Layla Haddad ",
            "email": " Layla.Haddad@Example.COM ",
            "products": app.cola,
            "Date": " 22 November 2026 ",
        }))
        .await;
    let id = created["_id"].as_str().unwrap().to_owned();
    assert_eq!(
        created,
        json!({
            "_id": id, "rating": 4, "Date": "22 November 2026", "createdAt": created["createdAt"],
            "fullname": "Layla Haddad", "comment": "crisp, fizzy and not too sweet.", "image": "",
            "products": app.cola, "verified": false,
        })
    );
    assert!(created["createdAt"].as_str().unwrap().ends_with('Z'));

    let public = app
        .get("/api/home_uk/palestine/comment/reviews?pageNumber=1")
        .await;
    assert_eq!(public.status, StatusCode::OK);
    assert_eq!(public.body["product"], json!([created.clone()]));
    assert_eq!(
        (public.body["pages"].as_u64(), public.body["result"].clone()),
        (Some(1), json!({}))
    );
    let summary = app.summary().await;
    assert_eq!(summary["comment"]["product"], json!([created]));
    for body in [&public.body, &summary] {
        assert!(
            !body.to_string().to_lowercase().contains("layla.haddad@"),
            "{body}"
        );
    }
    assert!(!has_key(&public.body, "email"));
    assert!(!has_key(&summary["comment"], "email"));

    let admin = app
        .admin(Method::GET, "/api/reviews?pageNumber=1", None)
        .await;
    assert_eq!(admin.status, StatusCode::OK, "{}", admin.body);
    let listed = &admin.body["product"][0];
    assert_eq!(listed["email"], "layla.haddad@example.com");
    assert_eq!(listed["productName"], "Classic Cola");
    assert_eq!(listed["_id"], id);
}

#[tokio::test]
async fn bad_reviews_get_the_rule_they_break_and_store_nothing() {
    let app = spawn_app().await;
    let good = || review_of(&app.cola, 5, "Layla Haddad");
    let with = |field: &str, value: Value| {
        let mut body = good();
        body[field] = value;
        body
    };
    let without = |field: &str| {
        let mut body = good();
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let required = "rating: This field is required.";
    let cases = [
        (without("rating"), required),
        (with("rating", json!(0)), required),
        (with("rating", json!(6)), required),
        (with("rating", json!(4.5)), required),
        (with("rating", json!("5")), required),
        (with("rating", Value::Null), required),
        (
            without("comment"),
            "comment must be longer than 7 characters",
        ),
        (
            with("comment", json!("  1234567  ")),
            "comment must be longer than 7 characters",
        ),
        (
            with("comment", json!("x".repeat(2001))),
            "comment must be at most 2000 characters",
        ),
        (
            without("fullname"),
            "fullname must be longer than 5 characters",
        ),
        (
            with("fullname", json!("  Layla  ")),
            "fullname must be longer than 5 characters",
        ),
        (
            with("fullname", json!("L".repeat(101))),
            "fullname must be at most 100 characters",
        ),
        (without("email"), "email must be a valid e-mail address"),
        (
            with("email", json!("layla@example")),
            "email must be a valid e-mail address",
        ),
        (
            with("email", json!("lay la@example.com")),
            "email must be a valid e-mail address",
        ),
        (
            with("Date", json!("d".repeat(41))),
            "Date must be at most 40 characters",
        ),
        (
            without("products"),
            "products: choose the drink you are reviewing",
        ),
        (
            with("products", json!("  ")),
            "products: choose the drink you are reviewing",
        ),
        (
            with("products", json!("no-such-drink")),
            "products: no drink has this id",
        ),
        (
            with("products", json!("p".repeat(3000))),
            "products: no drink has this id",
        ),
    ];
    for (body, message) in cases {
        for route in ["/api/reviews/create/", "/api/reviews/x/"] {
            let reply = app.post(route, body.clone()).await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{route} {body}"
            );
            assert_eq!(reply.body["message"], message, "{route} {body}");
        }
    }
    // Bodies that cannot be read at all are 400s, and still JSON.
    for body in [with("comment", json!(12345678)), json!([1, 2])] {
        let reply = app.post("/api/reviews/create/", body.clone()).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(reply.body["message"].is_string());
    }
    let summary = app.summary().await;
    assert_eq!(summary["Thecount"], 0);
    assert_eq!(summary["ratings"]["totalComments"], 0);
    assert_eq!(app.stored().await, 0);

    // The edges of the rules pass: 8 characters of comment, 6 of name.
    let edge = app
        .write(
            json!({"rating": 1, "comment": " 12345678 ", "fullname": " Laylaa ",
            "email": "edge@example.com", "products": app.mango}),
        )
        .await;
    assert_eq!(
        (edge["comment"].as_str(), edge["fullname"].as_str()),
        (Some("12345678"), Some("Laylaa"))
    );
}

#[tokio::test]
async fn the_check_route_answers_ok_and_stores_nothing() {
    let app = spawn_app().await;
    let reply = app
        .post("/api/reviews/x/", review_of(&app.cola, 3, "Layla Haddad"))
        .await;
    assert_eq!(
        (reply.status, reply.body),
        (StatusCode::OK, json!({"message": "ok"}))
    );
    assert_eq!(app.summary().await["Thecount"], 0);
    assert_eq!(app.stored().await, 0);
}

#[tokio::test]
async fn the_summary_counts_follow_every_create_and_delete() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    for (product, rating) in [
        (&app.cola, 5),
        (&app.cola, 5),
        (&app.cola, 4),
        (&app.cola, 1),
        (&app.mango, 3),
    ] {
        ids.push(
            app.write(review_of(product, rating, "Sami Khalil")).await["_id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let summary = app.summary().await;
    assert_eq!(
        summary["ratings"],
        json!({"5": 2, "4": 1, "3": 1, "2": 0, "1": 1, "avgRating": 3.6, "totalComments": 5})
    );
    assert_eq!(summary["Thecount"], 5);
    let cola = app
        .get(&format!("/api/home/uk/review/?ProductsId={}", app.cola))
        .await
        .body;
    assert_eq!(
        cola["ratings"],
        json!({"5": 2, "4": 1, "3": 0, "2": 0, "1": 1, "avgRating": 3.8, "totalComments": 4})
    );
    assert_eq!(cola["comment"]["product"].as_array().unwrap().len(), 4);

    // The first five-star review of the cola goes.
    let deleted = app
        .admin(
            Method::DELETE,
            &format!("/api/reviews/delete/{}", ids[0]),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(deleted.body["message"], "The review was deleted");
    let after =
        json!({"5": 1, "4": 1, "3": 1, "2": 0, "1": 1, "avgRating": 3.3, "totalComments": 4});
    assert_eq!(app.summary().await["ratings"], after);
    let cola = app
        .get(&format!("/api/home/uk/review/?ProductsId={}", app.cola))
        .await
        .body;
    assert_eq!(cola["ratings"]["5"], 1);
    assert_eq!(cola["Thecount"], 3);

    // Deleting it again, or what was never a review, changes nothing.
    for id in [
        ids[0].as_str(),
        "00000000-0000-4000-8000-000000000000",
        "x1",
    ] {
        let reply = app
            .admin(Method::DELETE, &format!("/api/reviews/delete/{id}"), None)
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{id}");
        assert_eq!(reply.body["message"], "No review has this id");
    }
    assert_eq!(app.summary().await["ratings"], after);
    assert_eq!(app.stored().await, 4);
    let public = app.get("/api/home_uk/palestine/comment/reviews").await.body;
    assert!(public["product"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["_id"] != ids[0].as_str()));

    // It waits in the bin, and comes back with its stars in the counts.
    let bin = app.admin(Method::GET, "/api/reviews/bin/", None).await;
    assert_eq!(bin.status, StatusCode::OK);
    assert_eq!(bin.body[0]["_id"], ids[0].as_str());
    assert!(bin.body[0]["label"]
        .as_str()
        .unwrap()
        .starts_with("Sami Khalil (5 stars)"));
    let restore = format!("/api/reviews/restore/{}", ids[0]);
    let back = app.admin(Method::POST, &restore, None).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert_eq!(
        app.summary().await["ratings"],
        json!({"5": 2, "4": 1, "3": 1, "2": 0, "1": 1, "avgRating": 3.6, "totalComments": 5})
    );
    assert_eq!(app.stored().await, 5);
    assert_eq!(
        app.admin(Method::GET, "/api/reviews/bin/", None).await.body,
        json!([])
    );
    // A second restore changes nothing.
    let again = app.admin(Method::POST, &restore, None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert_eq!(app.summary().await["ratings"]["totalComments"], 5);
}

#[tokio::test]
async fn lists_are_newest_first_and_paged() {
    let app = spawn_app().await;
    for n in 1..=12 {
        let product = if n % 3 == 0 { &app.mango } else { &app.cola };
        app.write(review_of(product, 5, &format!("Reviewer {n:02}")))
            .await;
    }
    let names = |body: &Value| -> Vec<String> {
        body["product"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["fullname"].as_str().unwrap().to_owned())
            .collect()
    };
    let first = app
        .get("/api/home_uk/palestine/comment/reviews?pageNumber=1")
        .await
        .body;
    assert_eq!(
        names(&first),
        (3..=12)
            .rev()
            .map(|n| format!("Reviewer {n:02}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(first["pages"], 2);
    assert_eq!(first["result"]["next"]["page"], 2);
    assert!(first["result"]["next"]["cursor"].is_string());
    let second = app
        .get("/api/home_uk/palestine/comment/reviews?pageNumber=2")
        .await
        .body;
    assert_eq!(names(&second), ["Reviewer 02", "Reviewer 01"]);
    assert_eq!(second["result"], json!({}));
    let beyond = app
        .get("/api/home_uk/palestine/comment/reviews?pageNumber=3")
        .await
        .body;
    assert_eq!(
        (beyond["product"].clone(), beyond["pages"].as_u64()),
        (json!([]), Some(2))
    );
    // The summary's comment is the first page.
    assert_eq!(app.summary().await["comment"], first);

    let mango = app
        .get(&format!(
            "/api/home_uk/palestine/comment/reviews?pageNumber=1&ProductsId={}",
            app.mango
        ))
        .await
        .body;
    assert_eq!(
        names(&mango),
        ["Reviewer 12", "Reviewer 09", "Reviewer 06", "Reviewer 03"]
    );
    assert_eq!(mango["pages"], 1);
    let nothing = app
        .get("/api/home_uk/palestine/comment/reviews?ProductsId=no-such-drink")
        .await
        .body;
    assert_eq!(nothing, json!({"product": [], "pages": 1, "result": {}}));

    let admin = app
        .admin(Method::GET, "/api/reviews?pageNumber=1", None)
        .await
        .body;
    assert_eq!(admin["product"].as_array().unwrap().len(), 12);
    assert_eq!(
        (admin["pages"].as_u64(), admin["result"].clone()),
        (Some(1), json!({}))
    );
    assert_eq!(admin["product"][0]["fullname"], "Reviewer 12");

    for uri in [
        "/api/home_uk/palestine/comment/reviews?pageNumber=0",
        "/api/home_uk/palestine/comment/reviews?pageNumber=two",
    ] {
        let reply = app.get(uri).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{uri}");
        assert_eq!(
            reply.body["message"],
            "pageNumber must be a whole number from 1"
        );
    }
    // An empty ProductsId means every drink.
    let all = app.get("/api/home/uk/review/?ProductsId=").await;
    assert_eq!(all.body["Thecount"], 12);
    let long = format!("/api/home/uk/review/?ProductsId={}", "p".repeat(101));
    assert_eq!(app.get(&long).await.status, StatusCode::BAD_REQUEST);
    // The cap counts characters, as the document's maxLength does: 100 two-byte characters are allowed
    // (no such drink: nothing to show), 101 are not.
    for (path, count) in [
        ("/api/home/uk/review/", "Thecount"),
        ("/api/home_uk/palestine/comment/reviews", "pages"),
    ] {
        let at_cap = format!("{path}?ProductsId={}", "%C3%A9".repeat(100));
        let reply = app.get(&at_cap).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        assert!(reply.body[count].is_number(), "{}", reply.body);
        let over = format!("{path}?ProductsId={}", "%C3%A9".repeat(101));
        assert_eq!(
            app.get(&over).await.status,
            StatusCode::BAD_REQUEST,
            "{path}"
        );
    }
}

#[tokio::test]
async fn the_admin_routes_refuse_everyone_but_an_admin() {
    let app = spawn_app().await;
    let id = app.write(review_of(&app.cola, 2, "Sami Khalil")).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let claims_admin = app
        .keys
        .issue("shopper@example.com", Role::Admin, 600)
        .unwrap();
    let mut cases: Vec<(Option<String>, u16, &str)> = vec![
        (None, 401, "Not authorized"),
        (Some(app.customer.clone()), 403, "Only an admin can do this"),
        (Some(claims_admin), 403, "Only an admin can do this"),
    ];
    for (token, _) in testkit::bad_tokens("admin@example.com") {
        cases.push((Some(token), 401, "token failed"));
    }
    for (method, uri) in [
        (Method::GET, "/api/reviews?pageNumber=1".to_owned()),
        (Method::DELETE, format!("/api/reviews/delete/{id}")),
    ] {
        for (token, status, message) in &cases {
            let reply = app
                .client
                .call(method.clone(), &uri, token.as_deref(), None)
                .await;
            assert_eq!(reply.status.as_u16(), *status, "{method} {uri} {token:?}");
            assert_eq!(reply.body["message"], *message, "{method} {uri}");
        }
    }
    assert_eq!(app.summary().await["Thecount"], 1);
    assert_eq!(app.stored().await, 1);
}

#[tokio::test]
async fn the_summary_carries_the_site_info_once_it_exists() {
    let app = spawn_app().await;
    let before = app.summary().await;
    assert_eq!(
        before,
        json!({
            "connect": null,
            "ratings": {"5": 0, "4": 0, "3": 0, "2": 0, "1": 0, "avgRating": 0.0, "totalComments": 0},
            "Thecount": 0,
            "comment": {"product": [], "pages": 1, "result": {}},
        })
    );
    let site = app
        .content
        .call(
            Method::POST,
            "/api/connect/create/",
            Some(&app.admin),
            Some(json!({"name": "Palestine Drinks", "email": "hello@example.com"})),
        )
        .await;
    assert_eq!(site.status, StatusCode::CREATED, "{}", site.body);
    let after = app.summary().await;
    assert_eq!(after["connect"]["name"], "Palestine Drinks");
    assert_eq!(after["connect"]["_id"], "main");
}
