//! Control characters: a one-line field refuses every one, so a name cannot carry a line break
//! into a mail's subject; a field that spans lines keeps its line breaks and tabs and refuses the rest.

use crate::helpers::{shop_address, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;
use testkit::{mails_to, new_email, raw_mails_to};

const FEEDBACK: &str = "/api/_uk_home/palestine/feedback/send/only/";
const SITE: &str = "/api/connect/uk/palestine/connect/";

#[tokio::test]
async fn a_contact_message_whose_name_smuggles_a_header_is_refused_and_sends_nothing() {
    let app = spawn_app().await;
    let shop = shop_address();
    app.admin(
        Method::POST,
        "/api/connect/create/",
        Some(json!({"name": "Palestine Drinks", "email": shop})),
    )
    .await;
    let sender = new_email("visitor");
    let good = json!({"fullname": "Amira Haddad", "email": sender, "phone": "07700 900123",
        "message": "Do you deliver\r\nto Belfast?\n\tThanks"});
    for (field, value, message) in [
        (
            "fullname",
            "Amira Haddad\r\nBcc: x@example.com",
            "fullname cannot contain control characters",
        ),
        (
            "fullname",
            "Amira\u{0} Haddad",
            "fullname cannot contain control characters",
        ),
        (
            "fullname",
            "Amira Haddad\n",
            "fullname cannot contain control characters",
        ),
        (
            "message",
            "Do you deliver\u{b} to Belfast?",
            "message cannot contain control characters other than line breaks and tabs",
        ),
        (
            "message",
            "Do you deliver to Belfast?\u{85}",
            "message cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let mut body = good.clone();
        body[field] = json!(value);
        let reply = app
            .client
            .call(Method::POST, FEEDBACK, None, Some(body))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{value:?}");
        assert_eq!(reply.body["message"], message, "{value:?}");
    }
    assert!(mails_to(&shop).is_empty());

    let sent = app
        .client
        .call(Method::POST, FEEDBACK, None, Some(good))
        .await;
    assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.body);
    let mails = raw_mails_to(&shop);
    assert_eq!(mails.len(), 1);
    let text = mails[0].text.replace("\r\n", "\n");
    assert!(
        text.contains("Do you deliver\nto Belfast?\n\tThanks"),
        "the message keeps its lines: {text:?}"
    );
}

#[tokio::test]
async fn site_info_refuses_control_characters_in_one_line_fields_and_keeps_line_breaks_in_texts() {
    let app = spawn_app().await;
    let created = app
        .admin(
            Method::POST,
            "/api/connect/create/",
            Some(json!({"name": "Palestine Drinks", "open": "Mon-Fri", "discount": "10% off"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    for (body, message) in [
        (
            json!({"name": "Palestine\nDrinks"}),
            "name cannot contain control characters",
        ),
        (
            json!({"open": "Mon-Fri\r\nBcc: x@example.com"}),
            "open cannot contain control characters",
        ),
        (
            json!({"close": "Sun\u{7}"}),
            "close cannot contain control characters",
        ),
        (
            json!({"discount": "\t10% off"}),
            "discount cannot contain control characters",
        ),
        (
            json!({"deliveryEstimate": "2-3\u{0} days"}),
            "deliveryEstimate cannot contain control characters",
        ),
        (
            json!({"Social": {"x": "https://x.com/shop\n"}}),
            "Social.x cannot contain control characters",
        ),
        (
            json!({"Social": {"x": "\n"}}),
            "Social.x cannot contain control characters",
        ),
        (
            json!({"des": "About\u{c}us"}),
            "des cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let reply = app
            .admin(Method::PUT, "/api/connect/update/main", Some(body.clone()))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    let contact = app
        .admin(
            Method::POST,
            "/api/contact/create/",
            Some(json!({"open": "Mon-Fri\n09:00"})),
        )
        .await;
    assert_eq!(contact.status, StatusCode::UNPROCESSABLE_ENTITY);
    let site = app.get(SITE).await.body;
    assert_eq!(
        (
            &site["name"],
            &site["open"],
            &site["discount"],
            &site["close"]
        ),
        (
            &json!("Palestine Drinks"),
            &json!("Mon-Fri"),
            &json!("10% off"),
            &json!("")
        ),
        "nothing changed"
    );

    let saved = app
        .admin(
            Method::PUT,
            "/api/connect/update/main",
            Some(json!({"des": "Made in Leeds.\r\n\r\n\tSince 2019.", "address": "1 High Street\nLeeds\nLS1 1AA"})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    let site = app.get(SITE).await.body;
    assert_eq!(site["des"], "Made in Leeds.\r\n\r\n\tSince 2019.");
    assert_eq!(site["address"], "1 High Street\nLeeds\nLS1 1AA");
}

#[tokio::test]
async fn entries_refuse_control_characters_in_names_and_links_and_keep_line_breaks_in_descriptions()
{
    let app = spawn_app().await;
    for (body, message) in [
        (
            json!({"name": "Our\r\nstory", "link": "/shop/"}),
            "name cannot contain control characters",
        ),
        (
            json!({"name": "Our story", "link": "/shop/\u{0}"}),
            "link cannot contain control characters",
        ),
        (
            json!({"name": "Our story", "link": "https://example.com/\n"}),
            "link cannot contain control characters",
        ),
        (
            json!({"name": "Our story", "link": "/shop/", "des": "a\u{1b}[31mred"}),
            "des cannot contain control characters other than line breaks and tabs",
        ),
    ] {
        let reply = app
            .admin(Method::POST, "/api/link/create/", Some(body.clone()))
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    let blank_with_a_break = app
        .admin(
            Method::POST,
            "/api/about/create/",
            Some(json!({"name": "Our story", "link": "\n"})),
        )
        .await;
    assert_eq!(blank_with_a_break.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(app
        .get("/api/link/")
        .await
        .body
        .as_array()
        .unwrap()
        .is_empty());

    let created = app
        .admin(
            Method::POST,
            "/api/link/create/",
            Some(json!({"name": "Recipes", "link": "/shop/", "des": "Line one\nLine two\r\n\tindented"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let links = app.get("/api/link/").await.body;
    assert_eq!(links[0]["des"], "Line one\nLine two\r\n\tindented");
}
