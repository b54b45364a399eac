//! Control characters: a sign-up's name, a mailing's subject and titles refuse every one (the
//! subject is a mail header), a section's description keeps line breaks and tabs and refuses the rest.

use crate::helpers::spawn_app;
use http::{Method, StatusCode};
use serde_json::json;
use testkit::new_email;

#[tokio::test]
async fn a_sign_up_whose_name_holds_a_line_break_is_refused_and_mails_nothing() {
    let app = spawn_app().await;
    let email = new_email("reader");
    for name in ["Layla\r\nBcc: x@example.com", "Layla\u{0}", "\tLayla"] {
        let reply = app.sign_up(json!({"email": email, "fullname": name})).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{name:?}");
        assert_eq!(
            reply.body["message"],
            "fullname cannot contain control characters"
        );
    }
    assert!(app
        .queued(&email, "Confirm your subscription to Palestine Drinks")
        .await
        .is_empty());
    assert!(app.subscribers().await.is_empty());
}

#[tokio::test]
async fn a_mailing_whose_subject_or_title_holds_a_control_character_is_refused_and_queues_nothing()
{
    let app = spawn_app().await;
    app.subscribe(&new_email("reader"), &["Newsletter"]).await;
    let letter = |subject: &str, title: &str, description: &str| {
        json!({"MailList": ["Newsletter"], "data": {"subject": subject, "sections": [
            {"title": title, "description": description, "link": "https://shop.example/", "image": ""}
        ]}})
    };
    for (body, message) in [
        (
            letter("Summer\r\nBcc: x@example.com", "Title", "Text"),
            "subject cannot contain control characters",
        ),
        (
            letter("Summer drinks\n", "Title", "Text"),
            "subject cannot contain control characters",
        ),
        (
            letter("Summer drinks", "Ti\u{7}tle", "Text"),
            "section 1 title cannot contain control characters",
        ),
        (
            letter("Summer drinks", "Title", "Te\u{0}xt"),
            "section 1 description cannot contain control characters other than line breaks and tabs",
        ),
        (
            json!({"MailList": ["Newsletter"], "data": {"subject": "Summer drinks", "sections": [
                {"title": "Title", "description": "Text", "link": "https://shop.example/\n"}]}}),
            "section 1 link cannot contain control characters",
        ),
    ] {
        let reply = app.mail(body.clone()).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    let listed = app
        .admin(Method::GET, "/api/subscription/mailings/", None)
        .await;
    assert_eq!(listed.body["product"], json!([]), "{}", listed.body);

    let sent = app
        .mail(letter(
            "Summer drinks",
            "Title",
            "First line.\r\nSecond line.\n\tIndented.",
        ))
        .await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.body);
}
