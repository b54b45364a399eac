//! The bulk mailer: the spec's messages, one e-mail per distinct subscriber of the chosen lists, escaped
//! admin text, web-only links, and each reader's own unsubscribe link.

use crate::helpers::{mails_with, spawn_app, unsubscribe_path};
use http::StatusCode;
use serde_json::{json, Value};
use shared::testing::new_email;

fn letter(lists: Value, subject: &str, title: &str, description: &str) -> Value {
    json!({"MailList": lists, "data": {"subject": subject, "sections": [
        {"title": title, "description": description, "link": "", "image": ""}
    ]}})
}

#[tokio::test]
async fn a_mailing_needs_a_list_a_subject_and_a_first_section() {
    let app = spawn_app().await;
    app.subscribe(&new_email("reader"), &["Newsletter"]).await;
    for (body, message) in [
        (letter(json!([]), "Hello", "Title", "Text"), "Add Mail List"),
        (json!({"data": {"subject": "Hello"}}), "Add Mail List"),
        (
            letter(json!(["  "]), "Hello", "Title", "Text"),
            "Add Mail List",
        ),
        // An empty letter with no list: the list is named first.
        (letter(json!([]), "", "", ""), "Add Mail List"),
        (
            letter(json!(["Newsletter"]), " Hi ", "Title", "Text"),
            "inputs is empty",
        ),
        (
            letter(json!(["Newsletter"]), "Hello", "ab", "Text"),
            "inputs is empty",
        ),
        (
            letter(json!(["Newsletter"]), "Hello", "Title", "  ab  "),
            "inputs is empty",
        ),
        (
            json!({"MailList": ["Newsletter"], "data": {"subject": "Hello", "sections": []}}),
            "inputs is empty",
        ),
        (json!({"MailList": ["Newsletter"]}), "inputs is empty"),
        (
            letter(json!(["Gossip"]), "Hello", "Title", "Text"),
            "MailList must be among: Newsletter, Offers and new drinks",
        ),
        (
            json!({"MailList": ["Newsletter"], "data": {"subject": "Hello", "sections": [
                {"title": "Title", "description": "Text", "link": "javascript:alert(1)"}]}}),
            "section 1 link must be a web address starting with http:// or https://",
        ),
        (
            json!({"MailList": ["Newsletter"], "data": {"subject": "Hello", "sections": [
                {"title": "Title", "description": "Text"},
                {"title": "More", "description": "Text", "image": "data:image/png;base64,AAAA"}]}}),
            "section 2 image must be a web address starting with http:// or https://",
        ),
    ] {
        let reply = app.mail(body.clone()).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
}

#[tokio::test]
async fn each_subscriber_of_the_chosen_lists_gets_one_escaped_mail_with_their_own_link() {
    let app = spawn_app().await;
    let both = new_email("both");
    let news = new_email("news");
    let offers = new_email("offers");
    app.subscribe(&both, &["Newsletter", "Offers and new drinks"])
        .await;
    app.subscribe(&news, &["Newsletter"]).await;
    app.subscribe(&offers, &["Offers and new drinks"]).await;

    let subject = format!("Summer drinks {}", new_email("s"));
    let body = json!({"MailList": ["Newsletter", "Offers and new drinks"], "data": {
    "subject": subject,
    "sections": [
        {"title": "<script>alert('x')</script>", "description": "Fish & \"chips\" <b>now</b>",
         "link": "https://shop.example.com/drinks?a=1&b=2", "image": "https://shop.example.com/uploads/mango.png"},
        {"title": "Second", "description": "More to read", "link": "", "image": ""}
    ]}});
    let sent = app.mail(body).await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.body);
    assert_eq!(
        sent.body,
        json!({"message": "Emails have been sent", "recipients": 3})
    );

    let mut links = Vec::new();
    for reader in [&both, &news, &offers] {
        let mails = mails_with(reader, &subject);
        assert_eq!(mails.len(), 1, "{reader} got {}", mails.len());
        let html = &mails[0];
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
        assert!(html.contains("Fish &amp; &quot;chips&quot; &lt;b&gt;now&lt;/b&gt;"));
        assert!(html.contains("href=\"https://shop.example.com/drinks?a=1&amp;b=2\""));
        assert!(html.contains("src=\"https://shop.example.com/uploads/mango.png\""));
        assert!(html.contains("Second"));
        links.push(unsubscribe_path(html));
    }
    links.dedup();
    assert_eq!(links.len(), 3, "each reader has their own link");

    // Only the Newsletter: the offers-only reader is left out.
    let only_news = format!("Newsletter only {}", new_email("s"));
    let sent = app
        .mail(
            json!({"MailList": ["newsletter"], "data": {"subject": only_news, "sections": [
            {"title": "Title", "description": "Text"}]}}),
        )
        .await;
    assert_eq!(sent.body["recipients"], 2);
    assert!(mails_with(&offers, &only_news).is_empty());

    // A reader's own link unsubscribes them alone; the next mailing skips them.
    let page = app.client.get(&links[1]).await;
    assert_eq!(page.status, StatusCode::OK);
    let after = app
        .mail(
            json!({"MailList": ["Newsletter"], "data": {"subject": "After", "sections": [
            {"title": "Title", "description": "Text"}]}}),
        )
        .await;
    assert_eq!(after.body["recipients"], 1);
    assert!(mails_with(&news, "After").is_empty());
}
