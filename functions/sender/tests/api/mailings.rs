//! Mailings end to end: planned page by page, each reader mailed once (faults injected, batches delivered
//! twice), the progress counted on the mailing, and the mails carrying RFC 8058 unsubscribe headers.

use crate::helpers::{deliveries, spawn_app};
use http::StatusCode;
use testkit::{new_email, raw_mails_to};

#[tokio::test]
async fn a_2500_subscriber_mailing_reaches_each_address_once_with_faults_injected() {
    let app = spawn_app().await;
    let news = app.seed("news", 1_500, &["Newsletter"]).await;
    let both = app
        .seed("both", 500, &["Newsletter", "Offers and new drinks"])
        .await;
    let offers = app.seed("offers", 500, &["Offers and new drinks"]).await;
    let leaving = app.seed("leaving", 20, &["Newsletter"]).await;

    let subject = format!("Big summer letter {}", new_email("s"));
    let id = app
        .mail(&["Newsletter", "Offers and new drinks"], &subject)
        .await;
    assert_eq!(app.mailing(&id).await["recipients"], 2_520);
    // One sender with 5% of SES calls failing, as the benchmark runs.
    let sender = app.sender(5);
    // The first planning step queues the first page of readers (the leaving ones among them: they were
    // stored with the lowest order keys)...
    assert_eq!(app.poll(&sender).await, 1);
    assert_eq!(app.mailing(&id).await["status"], "sending");
    // ... and twenty readers leave before their turn: skipped, not mailed.
    for email in &leaving {
        let subscriber = newsletter::subscriber_id(email).unwrap();
        let reply = app
            .admin(
                http::Method::DELETE,
                &format!("/api/subscription/delete/{subscriber}"),
                None,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }

    app.drain(&sender).await;

    let counts = deliveries(&subject);
    let expected: Vec<&String> = news.iter().chain(&both).chain(&offers).collect();
    let missing: Vec<_> = expected
        .iter()
        .filter(|e| !counts.contains_key(**e))
        .collect();
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        missing.is_empty(),
        "{} missing, e.g. {:?}",
        missing.len(),
        missing.first()
    );
    assert!(
        twice.is_empty(),
        "{} twice, e.g. {:?}",
        twice.len(),
        twice.first()
    );
    assert_eq!(counts.len(), 2_500);

    let mailing = app.mailing(&id).await;
    assert_eq!(mailing["status"], "sent", "{mailing}");
    assert_eq!(mailing["sent"], 2_500, "{mailing}");
    assert_eq!(mailing["failed"], 0, "{mailing}");
    assert_eq!(mailing["skipped"], 20, "{mailing}");
    assert!(mailing["finishedAt"].is_string(), "{mailing}");
}

#[tokio::test]
async fn a_redelivered_batch_sends_nothing_twice() {
    let app = spawn_app().await;
    let readers = app.seed("twice", 12, &["Newsletter"]).await;
    let subject = format!("Once only {}", new_email("s"));
    let id = app.mail(&["Newsletter"], &subject).await;
    let sender = app.sender(0);

    // The planning step, then every reader's job: each batch handed over, and handed over again as SQS
    // does when a handler times out after sending.
    let mut batches = 0;
    loop {
        let answer = app
            .sqs
            .receive_message()
            .queue_url(&app.queue_url)
            .max_number_of_messages(10)
            .send()
            .await
            .unwrap();
        if answer.messages().is_empty() {
            break;
        }
        batches += 1;
        let mut event = aws_lambda_events::event::sqs::SqsEvent::default();
        for message in answer.messages() {
            let mut record = aws_lambda_events::event::sqs::SqsMessage::default();
            record.message_id = message.message_id().map(str::to_owned);
            record.body = message.body().map(str::to_owned);
            event.records.push(record);
        }
        let first = sender::handle(&sender, event.clone()).await;
        assert!(first.batch_item_failures.is_empty());
        let again = sender::handle(&sender, event).await;
        assert!(again.batch_item_failures.is_empty());
        for message in answer.messages() {
            app.sqs
                .delete_message()
                .queue_url(&app.queue_url)
                .receipt_handle(message.receipt_handle().unwrap())
                .send()
                .await
                .unwrap();
        }
    }
    assert!(batches >= 2, "a planning batch and the readers' batches");

    let counts = deliveries(&subject);
    for reader in &readers {
        assert_eq!(counts.get(reader), Some(&1), "{reader}");
    }
    let mailing = app.mailing(&id).await;
    assert_eq!(mailing["sent"], 12, "{mailing}");
    assert_eq!(mailing["status"], "sent", "{mailing}");
}

#[tokio::test]
async fn a_bulk_mail_carries_one_click_unsubscribe_headers_that_work() {
    let app = spawn_app().await;
    let reader = new_email("reader");
    app.seed_one(&reader).await;
    let subject = format!("Headers {}", new_email("s"));
    app.mail(&["Newsletter"], &subject).await;
    app.drain(&app.sender(0)).await;

    let mail = raw_mails_to(&reader)
        .into_iter()
        .find(|m| m.header("Subject") == Some(subject.as_str()))
        .expect("the mail arrived");
    assert_eq!(
        mail.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    let list_unsubscribe = mail.header("List-Unsubscribe").unwrap();
    assert!(list_unsubscribe.contains("<mailto:shop@example.com?subject=unsubscribe%20"));
    assert!(mail
        .html
        .contains("Cold &amp; fizzy &lt;b&gt;now&lt;/b&gt;"));
    assert!(mail.text.contains("Cold & fizzy <b>now</b>"));
    let link = list_unsubscribe
        .split(['<', '>'])
        .find(|part| part.contains("/api/subscription/unsubscribe/?token="))
        .unwrap();
    let path = &link[link.find("/api/").unwrap()..];
    assert!(mail.html.contains(path), "the same link is in the body");

    // The mail client's one-click POST unsubscribes; the next mailing leaves the reader out.
    let reply = app
        .client
        .send(
            http::Request::post(path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(axum::body::Body::from("List-Unsubscribe=One-Click"))
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let next = format!("After {}", new_email("s"));
    let id = app.mail(&["Newsletter"], &next).await;
    app.drain(&app.sender(0)).await;
    assert!(deliveries(&next).is_empty());
    let mailing = app.mailing(&id).await;
    assert_eq!(mailing["recipients"], 0);
    assert_eq!(
        mailing["status"], "sent",
        "an empty mailing finishes at once: {mailing}"
    );
}
