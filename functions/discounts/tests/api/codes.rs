//! Discount codes: the admin's list and form, and the shopper's check.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn an_admin_creates_updates_and_deletes_a_code() {
    let app = spawn_app().await;
    let created = app
        .admin(
            Method::POST,
            "/api/code/create/",
            Some(json!({"code": " summer10 ", "discount": "10", "name": "Summer"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["_id"], "SUMMER10");
    assert_eq!(created.body["discount"], 10);
    assert_eq!(created.body["emailCount"], 0);
    assert_eq!(created.body["open"], true);

    let duplicate = app
        .admin(
            Method::POST,
            "/api/code/create/",
            Some(json!({"code": "SUMMER10", "discount": 5})),
        )
        .await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);

    let updated = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"discount": 15, "maxUses": 3})),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(
        (
            updated.body["discount"].as_u64(),
            updated.body["maxUses"].as_u64()
        ),
        (Some(15), Some(3))
    );
    // The admin's form sends null for an emptied limit or last day: both clear; a field left out stays.
    let cleared = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"maxUses": null, "expiresOn": null})),
        )
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.body);
    assert!(cleared.body["maxUses"].is_null(), "{}", cleared.body);
    assert!(cleared.body["expiresOn"].is_null(), "{}", cleared.body);
    assert_eq!(cleared.body["discount"].as_u64(), Some(15));
    let kept = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"maxUses": 4, "expiresOn": "2099-12-31"})),
        )
        .await;
    assert_eq!(kept.body["maxUses"].as_u64(), Some(4), "{}", kept.body);
    let untouched = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"open": true})),
        )
        .await;
    assert_eq!(
        untouched.body["maxUses"].as_u64(),
        Some(4),
        "{}",
        untouched.body
    );
    assert_eq!(untouched.body["expiresOn"], "2099-12-31");
    let restored = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"maxUses": 3, "expiresOn": null})),
        )
        .await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.body);
    let renamed = app
        .admin(
            Method::PUT,
            "/api/code/update/SUMMER10",
            Some(json!({"code": "WINTER10"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::UNPROCESSABLE_ENTITY);

    let list = app.admin(Method::GET, "/api/code/", None).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    assert_eq!(
        app.admin(Method::DELETE, "/api/code/delete/summer10", None)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        app.admin(Method::GET, "/api/code/", None).await.body,
        json!([])
    );
    assert_eq!(
        app.admin(Method::DELETE, "/api/code/delete/SUMMER10", None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // The deleted code waits in the bin and comes back as it was.
    let bin = app.admin(Method::GET, "/api/code/bin/", None).await;
    assert_eq!(bin.status, StatusCode::OK);
    assert_eq!(
        (&bin.body[0]["_id"], &bin.body[0]["label"]),
        (&json!("SUMMER10"), &json!("SUMMER10"))
    );
    let back = app
        .admin(Method::POST, "/api/code/restore/summer10", None)
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.body);
    assert_eq!(back.body["message"], "SUMMER10 works again");
    assert_eq!(
        app.admin(Method::GET, "/api/code/", None).await.body[0]["code"],
        "SUMMER10"
    );
    // Deleted again, and a new code takes its text meanwhile: restoring it would overwrite that one.
    app.admin(Method::DELETE, "/api/code/delete/SUMMER10", None)
        .await;
    let new = app
        .admin(
            Method::POST,
            "/api/code/create/",
            Some(json!({"code": "SUMMER10", "discount": 20})),
        )
        .await;
    assert_eq!(new.status, StatusCode::CREATED, "{}", new.body);
    let clash = app
        .admin(Method::POST, "/api/code/restore/SUMMER10", None)
        .await;
    assert_eq!(clash.status, StatusCode::CONFLICT, "{}", clash.body);
    assert_eq!(
        app.admin(Method::GET, "/api/code/", None).await.body[0]["discount"],
        20
    );
}

#[tokio::test]
async fn bad_codes_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    for (body, message) in [
        (json!({"discount": 10}), "code is required"),
        (json!({"code": "OK10"}), "discount is required"),
        (
            json!({"code": "OK10", "discount": "ten"}),
            "discount must be a number",
        ),
        (
            json!({"code": "OK10", "discount": 0}),
            "discount must be a rate from 1 to 100",
        ),
        (
            json!({"code": "OK10", "discount": 101}),
            "discount must be a rate from 1 to 100",
        ),
        (
            json!({"code": "OK10", "discount": 12.5}),
            "discount must be a whole percentage",
        ),
        (
            json!({"code": "no spaces", "discount": 10}),
            "code must be 3 to 32 letters, digits, - or _",
        ),
        (
            json!({"code": "OK10", "discount": 10, "expiresOn": "tomorrow"}),
            "expiresOn must be a date as YYYY-MM-DD",
        ),
        (
            json!({"code": "OK10", "discount": 10, "maxUses": 0}),
            "maxUses must be 1 or more (or null for no limit)",
        ),
    ] {
        let reply = app
            .admin(Method::POST, "/api/code/create/", Some(body.clone()))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    assert_eq!(
        app.admin(Method::GET, "/api/code/", None).await.body,
        json!([])
    );
}

#[tokio::test]
async fn shoppers_check_a_code_without_logging_in() {
    let app = spawn_app().await;
    app.admin(
        Method::POST,
        "/api/code/create/",
        Some(json!({"code": "HELLO10", "discount": 10})),
    )
    .await;
    app.admin(
        Method::POST,
        "/api/code/create/",
        Some(json!({"code": "PAUSED", "discount": 10, "open": false})),
    )
    .await;
    app.admin(
        Method::POST,
        "/api/code/create/",
        Some(json!({"code": "OLD", "discount": 10, "expiresOn": "2020-01-31"})),
    )
    .await;
    app.admin(
        Method::POST,
        "/api/code/create/",
        Some(json!({"code": "LATER", "discount": 20, "expiresOn": "2099-12-31"})),
    )
    .await;
    assert_eq!(
        app.check("hello10").await,
        json!({"status": true, "data": {"code": "HELLO10", "discount": 10}, "message": "10% off your order"})
    );
    assert_eq!(app.check("LATER").await["status"], true);
    assert_eq!(
        app.check("PAUSED").await,
        json!({"status": false, "message": "This code is not active"})
    );
    assert_eq!(
        app.check("OLD").await,
        json!({"status": false, "message": "This code has expired"})
    );
    assert_eq!(
        app.check("NOPE").await,
        json!({"status": false, "message": "This code does not exist"})
    );
    assert_eq!(app.check("!").await["status"], false);
    let bad = app
        .client
        .call(
            Method::POST,
            "/api/code/customer/",
            None,
            Some(json!({"code": 10})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn every_discounts_event_fixture_is_served() {
    let app = spawn_app().await;
    let dir = testkit::emulator::repo_root().join("events/discounts");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(
        files.len(),
        discounts::routes().len(),
        "one event per discounts route"
    );
    for name in [
        "create-code",
        "list-codes",
        "check-code",
        "update-code",
        "delete-code",
        "list-binned-codes",
        "restore-code",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json")))
            .unwrap()
            .replace("ADMIN_TOKEN", &app.admin);
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{name}: {} {}",
            reply.status,
            reply.body
        );
    }
}

/// One viewer address can try only so many codes an hour; the next try gets 429 with
/// `Retry-After`, even for a real code, and another address is not held up.
#[tokio::test]
async fn one_address_cannot_guess_codes_past_the_hourly_limit() {
    let app = spawn_app().await;
    app.admin(
        Method::POST,
        "/api/code/create/",
        Some(json!({"code": "REAL10", "discount": 10})),
    )
    .await;
    let lookup = |ip: &'static str, code: String| {
        let client = app.client.clone();
        async move {
            client
                .call_from(
                    ip,
                    Method::POST,
                    "/api/code/customer/",
                    Some(json!({ "code": code })),
                )
                .await
        }
    };
    for i in 0..discounts::LOOKUP_LIMIT.limit {
        let reply = lookup("203.0.113.50", format!("GUESS{i}")).await;
        assert_eq!(reply.body["status"], false, "{}", reply.body);
    }
    let refused = lookup("203.0.113.50", "REAL10".to_owned()).await;
    testkit::assert_too_many(&refused, discounts::LOOKUP_LIMIT.refusal);
    let other = lookup("2001:db8::7", "REAL10".to_owned()).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);
}

/// An IPv6 viewer is counted by their /64, so stepping through the addresses of one network
/// (every subscriber has 2^64 of them) does not reset the limit; the next network has its own.
#[tokio::test]
async fn ipv6_guessers_are_limited_per_64_not_per_address() {
    let app = spawn_app().await;
    let lookup = |ip: String, code: String| {
        let client = app.client.clone();
        async move {
            client
                .call_from(
                    &ip,
                    Method::POST,
                    "/api/code/customer/",
                    Some(json!({ "code": code })),
                )
                .await
        }
    };
    for i in 0..discounts::LOOKUP_LIMIT.limit {
        let reply = lookup(format!("2001:db8:5:6::{:x}", i + 1), format!("GUESS{i}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let refused = lookup("2001:db8:5:6:ffff::1".to_owned(), "GUESS".to_owned()).await;
    testkit::assert_too_many(&refused, discounts::LOOKUP_LIMIT.refusal);
    let next = lookup("2001:db8:5:7::1".to_owned(), "GUESS".to_owned()).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.body);
}
