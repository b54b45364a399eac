//! The bulk mailer's API: the spec's messages, and a mailing recorded and queued, never sent inside the
//! request. Delivery itself is tested with the sender function (functions/sender/tests).

use crate::helpers::{mails_with, spawn_app};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use testkit::new_email;

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
async fn the_mailer_answers_before_sending_and_queues_the_mailing() {
    let app = spawn_app().await;
    let both = new_email("both");
    let news = new_email("news");
    let offers = new_email("offers");
    app.subscribe(&both, &["Newsletter", "Offers and new drinks"])
        .await;
    app.subscribe(&news, &["Newsletter"]).await;
    app.subscribe(&offers, &["Offers and new drinks"]).await;

    // The mailer's question before sending names this count: three readers, the one on both lists once.
    let count = app
        .admin(
            Method::GET,
            "/api/subscription/recipients/?lists=Newsletter,%20offers%20and%20new%20drinks",
            None,
        )
        .await;
    assert_eq!(count.status, StatusCode::OK, "{}", count.body);
    assert_eq!(count.body, json!({"recipients": 3}));
    let one = app
        .admin(
            Method::GET,
            "/api/subscription/recipients/?lists=Newsletter",
            None,
        )
        .await;
    assert_eq!(one.body, json!({"recipients": 2}));
    for (query, message) in [
        ("?lists=", "Add Mail List"),
        (
            "?lists=Gossip",
            "lists must be among: Newsletter, Offers and new drinks",
        ),
    ] {
        let refused = app
            .admin(
                Method::GET,
                &format!("/api/subscription/recipients/{query}"),
                None,
            )
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{query}");
        assert_eq!(refused.body["message"], message);
    }

    let subject = format!("Summer drinks {}", new_email("s"));
    let sent = app
        .mail(letter(
            json!(["Newsletter", "offers and new drinks"]),
            &subject,
            "Title",
            "Text",
        ))
        .await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.body);
    // Queued, not sent: the answer must not claim more.
    assert_eq!(
        sent.body["message"],
        "The mailing is queued: it goes out in the background"
    );
    // Three distinct readers across the two lists, counted once each.
    assert_eq!(sent.body["recipients"], 3);
    let id = sent.body["_id"].as_str().unwrap().to_owned();

    // Nothing is sent inside the request: the mailing waits, queued, for the sender.
    for reader in [&both, &news, &offers] {
        assert!(mails_with(reader, &subject).is_empty());
    }
    let mailing = app
        .admin(
            Method::GET,
            &format!("/api/subscription/mailings/{id}"),
            None,
        )
        .await;
    assert_eq!(mailing.status, StatusCode::OK, "{}", mailing.body);
    assert_eq!(mailing.body["status"], "queued");
    assert_eq!(mailing.body["subject"], subject.as_str());
    assert_eq!(
        mailing.body["lists"],
        json!(["Newsletter", "Offers and new drinks"])
    );
    assert_eq!(mailing.body["sent"], 0);
    assert_eq!(mailing.body["recipients"], 3);
    assert!(app.jobs().await.contains(&shared::outbox::Job::Plan {
        mailing: id.clone(),
        cursor: None
    }));

    let listed = app
        .admin(Method::GET, "/api/subscription/mailings/", None)
        .await;
    assert_eq!(listed.body["product"][0]["_id"], id.as_str());

    // The count follows removals and changes of lists: `news` leaves, `offers` joins the Newsletter too.
    let news_id = newsletter::subscriber_id(&news).unwrap();
    let removed = app
        .admin(
            Method::DELETE,
            &format!("/api/subscription/delete/{news_id}"),
            None,
        )
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    app.subscribe(&offers, &["Newsletter"]).await;
    let again = app
        .mail(letter(json!(["Newsletter"]), "Again", "Title", "Text"))
        .await;
    assert_eq!(
        again.body["recipients"], 2,
        "both and offers: {}",
        again.body
    );
    let offers_only = app
        .mail(letter(
            json!(["Offers and new drinks"]),
            "Offers",
            "Title",
            "Text",
        ))
        .await;
    assert_eq!(offers_only.body["recipients"], 2, "{}", offers_only.body);

    // Admin only, and an unknown id is a 404.
    let guarded = app
        .client
        .call(
            Method::GET,
            "/api/subscription/mailings/",
            Some(&app.customer),
            None,
        )
        .await;
    assert_eq!(guarded.status, StatusCode::FORBIDDEN);
    let unknown = app
        .admin(Method::GET, "/api/subscription/mailings/nope", None)
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.body["message"], "No mailing has this id");
}
