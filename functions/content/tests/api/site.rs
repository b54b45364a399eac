//! Site info and the contact details drawn from it.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_new_shop_has_empty_site_info_with_a_null_id() {
    let app = spawn_app().await;
    let site = app.get("/api/connect/uk/palestine/connect/").await;
    assert_eq!(site.status, StatusCode::OK);
    assert_eq!(site.body["_id"], json!(null));
    assert_eq!(
        site.body["Social"],
        json!({"facebook": "", "instagram": "", "x": "", "tiktok": "", "youtube": ""})
    );
    // Prices include VAT at the standard rate until an admin says otherwise.
    assert_eq!(site.body["vatRate"], 20);
    assert_eq!(site.body["deliveryEstimate"], "2 to 4 working days");
}

#[tokio::test]
async fn the_vat_rate_and_number_are_kept_and_checked() {
    let app = spawn_app().await;
    let created = app
        .admin(
            Method::POST,
            "/api/connect/create/",
            Some(json!({"name": "Fizz Ltd", "vatRate": 5, "vatNumber": "GB 123 4567 89"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["vatRate"], 5);
    assert_eq!(created.body["vatNumber"], "GB123456789");
    for (body, message) in [
        (
            json!({"vatNumber": "123456789"}),
            "vatNumber must be GB followed by 9 or 12 digits, e.g. GB123456789",
        ),
        (
            json!({"vatRate": 101}),
            "vatRate must be a whole percentage from 0 to 100",
        ),
    ] {
        let reply = app
            .admin(Method::PUT, "/api/connect/update/main", Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.body["message"], message);
    }
    let site = app.get("/api/connect/uk/palestine/connect/").await.body;
    assert_eq!(
        (site["vatRate"].clone(), site["vatNumber"].clone()),
        (json!(5), json!("GB123456789"))
    );
}

#[tokio::test]
async fn an_admin_creates_then_updates_the_site_info() {
    let app = spawn_app().await;
    let created = app
        .admin(Method::POST, "/api/connect/create/", Some(json!({
            "name": "Palestine Drinks", "phone": "0113 496 0000", "email": "Hello@Example.com",
            "open": "Mon-Fri 09:00-18:00, Sat 10:00-18:00", "close": "Sunday",
            "Social": {"facebook": "https://facebook.com/palestinedrinks", "twitter": "https://x.com/palestinedrinks"}})))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["_id"], "main");
    assert_eq!(created.body["email"], "hello@example.com");
    assert_eq!(
        created.body["Social"]["x"], "https://x.com/palestinedrinks",
        "twitter is read as x"
    );

    let again = app
        .admin(
            Method::POST,
            "/api/connect/create/",
            Some(json!({"name": "Other"})),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);

    let updated = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"phone": "0113 496 0999"})),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK);
    let public = app.get("/api/connect/uk/palestine/connect/").await.body;
    assert_eq!(public["phone"], "0113 496 0999");
    assert_eq!(public["name"], "Palestine Drinks");
    assert_eq!(
        public["Social"]["facebook"],
        "https://facebook.com/palestinedrinks"
    );
    assert_eq!(
        app.get("/api/contact/").await.body["phone"],
        "0113 496 0999"
    );

    let missing = app
        .admin(
            Method::PUT,
            "/api/connect/update/other",
            Some(json!({"phone": "0113 496 0000"})),
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_site_info_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks", "phone": "0113 496 0000"})),
    )
    .await;
    for (body, message) in [
        (
            json!({"email": "not-an-address"}),
            "email must be a valid e-mail address",
        ),
        (json!({"phone": "12"}), "phone must be at least 10 digits"),
        (
            json!({"Social": {"instagram": "javascript:alert(1)"}}),
            "Social.instagram must be a web address (https://...)",
        ),
        (json!({"name": "ab"}), "name must be at least 3 characters"),
        (
            json!({"image": ["../../etc/passwd"]}),
            "image: \"../../etc/passwd\" is not an uploaded image name",
        ),
    ] {
        let reply = app
            .admin(Method::PUT, "/api/connect/update/main", Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(reply.body["message"], message);
    }
    let wrong_type = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"Social": "none"})),
        )
        .await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    let site = app.get("/api/connect/uk/palestine/connect/").await.body;
    assert_eq!(
        (site["name"].as_str(), site["phone"].as_str()),
        (Some("Palestine Drinks"), Some("0113 496 0000"))
    );
}

#[tokio::test]
async fn contact_details_are_saved_into_the_site_info() {
    let app = spawn_app().await;
    let saved = app
        .admin(
            Method::POST,
            "/api/contact/create/",
            Some(json!({"phone": "0113 496 0000", "open": "Mon-Fri 09:00-18:00"})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(
        app.get("/api/connect/uk/palestine/connect/").await.body["open"],
        "Mon-Fri 09:00-18:00"
    );
    app.admin(
        Method::POST,
        "/api/contact/create/",
        Some(json!({"close": "Sunday"})),
    )
    .await;
    let contact = app.get("/api/contact/").await.body;
    assert_eq!(
        contact,
        json!({"phone": "0113 496 0000", "email": "", "address": "", "open": "Mon-Fri 09:00-18:00", "close": "Sunday"})
    );
    let refused = app
        .client
        .call(
            Method::POST,
            "/api/contact/create/",
            Some(&app.customer),
            Some(json!({"phone": "0000000000"})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

/// A GET of a non-JSON page from someone naming another host (a cache-poisoning attempt): checks 200 and
/// the content type, answers the text, and that no link follows the request's headers.
async fn plain_get(app: &crate::helpers::TestApp, uri: &str, content_type: &str) -> String {
    let request = http::Request::builder()
        .uri(uri)
        .header("host", "evil.example")
        .header("x-forwarded-host", "evil.example")
        .body(axum::body::Body::empty())
        .unwrap();
    let response = tower::ServiceExt::oneshot(app.client.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], content_type);
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(!text.contains("evil.example"), "{text}");
    text
}

#[tokio::test]
async fn robots_txt_names_the_sitemap_by_its_absolute_address_and_keeps_out_private_areas() {
    let app = spawn_app().await;
    let text = plain_get(&app, "/robots.txt", "text/plain; charset=utf-8").await;
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"Sitemap: https://shop.example.co.uk/sitemap.xml"),
        "{text}"
    );
    assert!(lines.contains(&"Disallow: /new/uk/"), "{text}");
    assert!(lines.contains(&"Disallow: /checkout"), "{text}");
    assert!(
        !lines.contains(&"Disallow: /"),
        "the shop itself stays open: {text}"
    );
}

#[tokio::test]
async fn the_sitemap_lists_pages_drinks_and_policies() {
    let app = spawn_app().await;
    let policy = app
        .admin(
            Method::POST,
            "/api/policy/create/",
            Some(json!({"name": "Returns", "des": "30 days"})),
        )
        .await
        .body["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let xml = plain_get(&app, "/sitemap.xml", "application/xml; charset=utf-8").await;
    assert!(
        xml.contains("<loc>https://shop.example.co.uk/</loc>"),
        "{xml}"
    );
    assert!(xml.contains("<loc>https://shop.example.co.uk/shop/drinks/</loc>"));
    assert!(xml.contains(&format!(
        "<loc>https://shop.example.co.uk/drinks/policies/{policy}</loc>"
    )));
    // The standard policies are pages too.
    assert!(xml.contains("<loc>https://shop.example.co.uk/drinks/policies/returns</loc>"));
}

#[tokio::test]
async fn the_age_for_high_caffeine_drinks_is_16_until_changed_and_can_be_turned_off() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/api/connect/uk/palestine/connect/").await.body["minimumAge"],
        16
    );
    let created = app
        .admin(
            Method::POST,
            "/api/connect/create/",
            Some(json!({"name": "Fizz Ltd"})),
        )
        .await;
    assert_eq!(created.body["minimumAge"], 16);
    let raised = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"minimumAge": 18})),
        )
        .await;
    assert_eq!(raised.body["minimumAge"], 18);
    for age in [json!(15), json!(19)] {
        let refused = app
            .admin(
                Method::PUT,
                "/api/connect/update/main",
                Some(json!({"minimumAge": age})),
            )
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{age}");
    }
    // Left out, it stays; null turns the check off.
    let kept = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"discount": "Summer sale"})),
        )
        .await;
    assert_eq!(kept.body["minimumAge"], 18);
    let off = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"minimumAge": null})),
        )
        .await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.body);
    assert_eq!(
        app.get("/api/connect/uk/palestine/connect/").await.body["minimumAge"],
        json!(null)
    );
}
