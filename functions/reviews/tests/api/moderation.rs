//! Moderation and paging: a shopper reports a review with a reason, the admin sees it reported, hides it
//! (out of the lists and counts, kept under the hidden ones) and shows it again; every list reads a page at
//! a time with a cursor, and the spec's `?pageNumber=` still answers.

use crate::helpers::{review_of, spawn_app};
use http::{Method, StatusCode};
use serde_json::{json, Value};

fn names(body: &Value) -> Vec<String> {
    body["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["fullname"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_reported_review_is_hidden_by_the_admin_and_shown_again() {
    let app = spawn_app().await;
    let kept = app.write(review_of(&app.cola, 5, "Layla Haddad")).await;
    let spam = app.write(review_of(&app.cola, 1, "Spammy Person")).await;
    let id = spam["_id"].as_str().unwrap();
    for reason in ["Advertises another shop", "Not about the drink at all"] {
        let reply = app
            .post(
                &format!("/api/reviews/report/{id}"),
                json!({ "reason": reason }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }
    let reported = app.admin(Method::GET, "/api/reviews/reported/", None).await;
    assert_eq!(reported.status, StatusCode::OK, "{}", reported.body);
    assert_eq!(reported.body.as_array().unwrap().len(), 1);
    assert_eq!(reported.body[0]["review"]["_id"], id);
    assert_eq!(reported.body[0]["reports"], 2);
    let reasons = reported.body[0]["reasons"].as_array().unwrap();
    assert!(reasons[1]
        .as_str()
        .unwrap()
        .ends_with("Not about the drink at all"));

    let hidden = app
        .admin(Method::POST, &format!("/api/reviews/hide/{id}"), None)
        .await;
    assert_eq!(hidden.status, StatusCode::OK, "{}", hidden.body);
    // Out of the public lists and counts, the drink's too, and settled.
    let summary = app.summary().await;
    assert_eq!(summary["Thecount"], 1);
    assert_eq!(summary["ratings"]["1"], 0);
    assert_eq!(names(&summary["comment"]), ["Layla Haddad"]);
    let cola = app
        .get(&format!("/api/home/uk/review/?ProductsId={}", app.cola))
        .await
        .body;
    assert_eq!(cola["Thecount"], 1);
    assert_eq!(
        app.admin(Method::GET, "/api/reviews/reported/", None)
            .await
            .body,
        json!([])
    );
    let shown = app
        .admin(Method::GET, "/api/reviews?pageNumber=1", None)
        .await;
    assert_eq!(names(&shown.body), ["Layla Haddad"]);
    let hidden_list = app
        .admin(Method::GET, "/api/reviews?hidden=true", None)
        .await;
    assert_eq!(hidden_list.status, StatusCode::OK, "{}", hidden_list.body);
    assert_eq!(names(&hidden_list.body), ["Spammy Person"]);
    assert_eq!(hidden_list.body["product"][0]["hidden"], true);
    assert_eq!(hidden_list.body["pages"], 1);
    // A hidden review cannot be reported, nor hidden twice.
    let report = app
        .post(
            &format!("/api/reviews/report/{id}"),
            json!({"reason": "Still spam"}),
        )
        .await;
    assert_eq!(report.status, StatusCode::NOT_FOUND);
    let twice = app
        .admin(Method::POST, &format!("/api/reviews/hide/{id}"), None)
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT);

    let back = app
        .admin(Method::POST, &format!("/api/reviews/unhide/{id}"), None)
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    let summary = app.summary().await;
    assert_eq!(summary["Thecount"], 2);
    assert_eq!(summary["ratings"]["1"], 1);
    let cola = app
        .get(&format!(
            "/api/home_uk/palestine/comment/reviews?ProductsId={}",
            app.cola
        ))
        .await
        .body;
    assert_eq!(names(&cola), ["Spammy Person", "Layla Haddad"]);
    assert_eq!(
        app.admin(Method::GET, "/api/reviews?hidden=true", None)
            .await
            .body["product"],
        json!([])
    );

    // Reported, then kept shown by the admin: the reports are settled, the review stays.
    app.post(
        &format!("/api/reviews/report/{}", kept["_id"].as_str().unwrap()),
        json!({"reason": "I disagree with it"}),
    )
    .await;
    let keep = app
        .admin(
            Method::POST,
            &format!("/api/reviews/unhide/{}", kept["_id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(keep.status, StatusCode::OK, "{}", keep.body);
    assert_eq!(
        app.admin(Method::GET, "/api/reviews/reported/", None)
            .await
            .body,
        json!([])
    );
    assert_eq!(app.summary().await["Thecount"], 2);
}

#[tokio::test]
async fn reports_need_a_reason_and_a_real_review_and_moderation_needs_an_admin() {
    let app = spawn_app().await;
    let review = app.write(review_of(&app.mango, 4, "Sami Khalil")).await;
    let id = review["_id"].as_str().unwrap();
    for (body, status) in [
        (json!({}), StatusCode::UNPROCESSABLE_ENTITY),
        (json!({"reason": "bad"}), StatusCode::UNPROCESSABLE_ENTITY),
        (
            json!({"reason": "x".repeat(501)}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"reason": "Spam\u{1b}[2J here"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"reason": 12}), StatusCode::BAD_REQUEST),
    ] {
        let reply = app
            .post(&format!("/api/reviews/report/{id}"), body.clone())
            .await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert!(reply.body["message"].is_string());
    }
    for missing in ["00000000-0000-4000-8000-000000000000", "x1"] {
        let reply = app
            .post(
                &format!("/api/reviews/report/{missing}"),
                json!({"reason": "Spam and more spam"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{missing}");
    }
    assert_eq!(
        app.admin(Method::GET, "/api/reviews/reported/", None)
            .await
            .body,
        json!([])
    );
    for (method, uri) in [
        (Method::GET, "/api/reviews/reported/".to_owned()),
        (Method::POST, format!("/api/reviews/hide/{id}")),
        (Method::POST, format!("/api/reviews/unhide/{id}")),
        (Method::GET, "/api/reviews?hidden=true".to_owned()),
    ] {
        let anonymous = app.client.call(method.clone(), &uri, None, None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{uri}");
        let customer = app
            .client
            .call(method.clone(), &uri, Some(&app.customer), None)
            .await;
        assert_eq!(customer.status, StatusCode::FORBIDDEN, "{uri}");
    }
    assert_eq!(app.summary().await["Thecount"], 1);
    let bad = app
        .admin(Method::GET, "/api/reviews?hidden=maybe", None)
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_deleted_hidden_review_leaves_the_hidden_count_and_comes_back_hidden() {
    let app = spawn_app().await;
    let review = app.write(review_of(&app.cola, 3, "Hidden Person")).await;
    let id = review["_id"].as_str().unwrap();
    let hidden = app
        .admin(Method::POST, &format!("/api/reviews/hide/{id}"), None)
        .await;
    assert_eq!(hidden.status, StatusCode::OK, "{}", hidden.body);
    let deleted = app
        .admin(Method::DELETE, &format!("/api/reviews/delete/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let hidden = app
        .admin(Method::GET, "/api/reviews?hidden=true", None)
        .await;
    assert_eq!(hidden.body["product"], json!([]));
    assert_eq!(hidden.body["pages"], 1);
    assert_eq!(app.summary().await["Thecount"], 0);
    let back = app
        .admin(Method::POST, &format!("/api/reviews/restore/{id}"), None)
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert_eq!(app.summary().await["Thecount"], 0, "it is still hidden");
    let hidden = app
        .admin(Method::GET, "/api/reviews?hidden=true", None)
        .await;
    assert_eq!(names(&hidden.body), ["Hidden Person"]);
}

#[tokio::test]
async fn lists_read_a_page_at_a_time_with_a_cursor() {
    let app = spawn_app().await;
    for n in 1..=23 {
        app.write(review_of(&app.cola, 5, &format!("Reviewer {n:02}")))
            .await;
    }
    // The public list, ten a page: follow the cursors to the end.
    let mut seen = Vec::new();
    let mut uri = "/api/home_uk/palestine/comment/reviews".to_owned();
    let mut pages = 0;
    loop {
        let page = app.get(&uri).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert_eq!(page.body["pages"], 3);
        pages += 1;
        seen.extend(names(&page.body));
        match page.body["result"]["next"]["cursor"].as_str() {
            Some(cursor) => {
                assert_eq!(page.body["result"]["next"]["page"], pages + 1);
                uri = format!(
                    "/api/home_uk/palestine/comment/reviews?pageNumber={}&cursor={}",
                    pages + 1,
                    cursor.replace('#', "%23")
                );
            }
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let expected: Vec<String> = (1..=23).rev().map(|n| format!("Reviewer {n:02}")).collect();
    assert_eq!(seen, expected);
    // The spec's page numbers answer the same pages.
    let second = app
        .get("/api/home_uk/palestine/comment/reviews?pageNumber=2")
        .await;
    assert_eq!(names(&second.body), expected[10..20]);
    assert_eq!(second.body["result"]["next"]["page"], 3);
    // The admin's list, twenty a page, the same way.
    let first = app.admin(Method::GET, "/api/reviews", None).await;
    assert_eq!(names(&first.body).len(), 20);
    let cursor = first.body["result"]["next"]["cursor"].as_str().unwrap();
    let rest = app
        .admin(
            Method::GET,
            &format!(
                "/api/reviews?pageNumber=2&cursor={}",
                cursor.replace('#', "%23")
            ),
            None,
        )
        .await;
    assert_eq!(names(&rest.body), expected[20..]);
    assert_eq!(rest.body["result"], json!({}));
    // A cursor that is not one is refused.
    for bad in ["nonsense", "123%23abc"] {
        let reply = app
            .get(&format!(
                "/api/home_uk/palestine/comment/reviews?cursor={bad}"
            ))
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(
            reply.body["message"],
            "cursor must be the result.next.cursor of a page"
        );
    }
}
