//! Profiles, the user list, roles and deleted users.

use crate::helpers::{new_email, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;
use testkit::bad_tokens;

#[tokio::test]
async fn a_customer_edits_their_profile_and_bad_values_change_nothing() {
    let app = spawn_app().await;
    let email = new_email("profile");
    let token = app.log_in(&email).await;
    let saved = app
        .call(Method::PUT, "/api/user/profile/", Some(&token),
            Some(json!({"fullname": " Amira Haddad ", "phone": "07700 900123", "address": "1 High St, Leeds"})))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["fullname"], "Amira Haddad");
    for (body, message) in [
        (
            json!({"fullname": "Amy"}),
            "fullname must be longer than 5 characters",
        ),
        (
            json!({"phone": "12345"}),
            "phone must be at least 10 digits",
        ),
        (
            json!({"address": "Leeds"}),
            "address must be longer than 6 characters",
        ),
    ] {
        let reply = app
            .call(Method::PUT, "/api/user/profile/", Some(&token), Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.body["message"], message);
    }
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(profile.body["fullname"], "Amira Haddad");
    assert_eq!(profile.body["phone"], "07700 900123");
    assert_eq!(profile.body["address"], "1 High St, Leeds");
}

#[tokio::test]
async fn admins_page_through_users_newest_first_and_customers_cannot() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let mut emails = Vec::new();
    for i in 0..3 {
        let email = new_email(&format!("u{i}"));
        app.log_in(&email).await;
        emails.push(email);
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    }
    let page = app
        .call(
            Method::GET,
            "/api/user/lists?pageNumber=1",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let listed: Vec<&str> = page.body["product"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        &listed[..3],
        &[emails[2].as_str(), emails[1].as_str(), emails[0].as_str()]
    );
    assert_eq!(page.body["pages"], 1);
    let customer = app.log_in(&new_email("nosy")).await;
    let refused = app
        .call(
            Method::GET,
            "/api/user/lists?pageNumber=1",
            Some(&customer),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let bad_page = app
        .call(
            Method::GET,
            "/api/user/lists?pageNumber=0",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(bad_page.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_role_change_takes_effect_at_once() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let email = new_email("promoted");
    let token = app.log_in(&email).await;
    assert_eq!(
        app.call(Method::GET, "/api/user/lists", Some(&token), None)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let promoted = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{email}"),
            Some(&admin),
            Some(json!({"role": "admin"})),
        )
        .await;
    assert_eq!(promoted.status, StatusCode::OK, "{}", promoted.body);
    assert_eq!(promoted.body["role"], "admin");
    // A role change ends the user's tokens: the old one fails, a new login carries the role.
    let stale = app
        .call(Method::GET, "/api/user/lists", Some(&token), None)
        .await;
    assert_eq!(stale.status, StatusCode::UNAUTHORIZED);
    assert_eq!(stale.body["message"], "token failed");
    let token = app.log_in(&email).await;
    assert_eq!(
        app.call(Method::GET, "/api/user/lists", Some(&token), None)
            .await
            .status,
        StatusCode::OK
    );
    app.call(
        Method::PUT,
        &format!("/api/user/role/{email}"),
        Some(&admin),
        Some(json!({"role": "customer"})),
    )
    .await;
    assert_eq!(
        app.call(Method::GET, "/api/user/lists", Some(&token), None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );

    let own = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{}", app.admin_email),
            Some(&admin),
            Some(json!({"role": "customer"})),
        )
        .await;
    assert_eq!(own.status, StatusCode::UNPROCESSABLE_ENTITY);
    let bad = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{email}"),
            Some(&admin),
            Some(json!({"role": "owner"})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let missing = app
        .call(
            Method::PUT,
            &format!("/api/user/role/{}", new_email("nobody")),
            Some(&admin),
            Some(json!({"role": "admin"})),
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_deleted_users_token_is_refused() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let email = new_email("leaving");
    let token = app.log_in(&email).await;
    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/user/delete/{email}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    let reply = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        reply.body["message"],
        "The person does not exist in the database"
    );
    let again = app
        .call(
            Method::DELETE,
            &format!("/api/user/delete/{email}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn protected_routes_refuse_missing_and_bad_tokens() {
    let app = spawn_app().await;
    let email = new_email("guarded");
    let customer = app.log_in(&email).await;
    for route in auth::routes()
        .into_iter()
        .filter(|r| r.access != shared::routes::Access::Public)
    {
        let uri = route.path.replace("{email}", &email);
        let body = Some(json!({"role": "admin", "fullname": "Someone Else"}));
        let none = app
            .call(route.method.clone(), &uri, None, body.clone())
            .await;
        assert_eq!(
            (none.status.as_u16(), none.body["message"].as_str().unwrap()),
            (401, "Not authorized"),
            "{uri}"
        );
        for (token, label) in bad_tokens(&email) {
            let reply = app
                .call(route.method.clone(), &uri, Some(&token), body.clone())
                .await;
            assert_eq!(reply.status.as_u16(), 401, "{label} {uri}");
            assert_eq!(reply.body["message"], "token failed", "{label} {uri}");
        }
        if route.access == shared::routes::Access::Admin {
            let reply = app
                .call(route.method.clone(), &uri, Some(&customer), body.clone())
                .await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "{uri}");
        }
    }
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&customer), None)
        .await;
    assert_eq!(
        profile.body["fullname"], "",
        "nothing was changed by the refused calls"
    );
}

#[tokio::test]
async fn a_profile_keeps_a_uk_address_in_its_parts_and_an_old_one_box_address_still_shows() {
    let app = spawn_app().await;
    let token = app.log_in(&new_email("parts")).await;
    let put = |body: serde_json::Value| {
        let token = token.clone();
        let app = &app;
        async move {
            app.call(Method::PUT, "/api/user/profile/", Some(&token), Some(body))
                .await
        }
    };
    // An address saved in one box, as every profile had it.
    let old = put(json!({"address": "12 Olive Street, Leeds"})).await;
    assert_eq!(old.body["address"], "12 Olive Street, Leeds");
    assert_eq!(
        (&old.body["postcode"], &old.body["town"]),
        (&json!(""), &json!(""))
    );

    let saved = put(
        json!({"addressLine1": "Flat 2", "addressLine2": " 3 Mill Lane ",
        "town": "York", "postcode": "yo17hh"}),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["addressLine1"], "Flat 2");
    assert_eq!(saved.body["addressLine2"], "3 Mill Lane");
    assert_eq!(saved.body["town"], "York");
    assert_eq!(saved.body["postcode"], "YO1 7HH");
    assert_eq!(saved.body["address"], "Flat 2\n3 Mill Lane\nYork\nYO1 7HH");

    let bad = put(json!({"addressLine1": "Flat 2", "town": "York", "postcode": "Y1"})).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad.body["message"],
        "postcode must be a UK postcode, e.g. SW1A 1AA"
    );
    let missing = put(json!({"postcode": "YO1 7HH"})).await;
    assert_eq!(
        missing.body["message"],
        "addressLine1 must be 2 to 100 characters"
    );

    let shown = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(
        shown.body["postcode"], "YO1 7HH",
        "a refused save changed nothing"
    );

    let cleared =
        put(json!({"addressLine1": "", "addressLine2": "", "town": "", "postcode": ""})).await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.body);
    assert_eq!(cleared.body["postcode"], "");
    assert_eq!(
        cleared.body["address"], "Flat 2\n3 Mill Lane\nYork\nYO1 7HH",
        "the one box stays until changed"
    );
}
