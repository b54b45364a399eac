//! Nothing is stranded: a sender killed between settling its readers and counting them, a delivery whose
//! sender died holding its claim, and jobs lost from the queue are all repaired by the schedule's sweep,
//! each reader still mailed once. And the list counts' one-off recount (`make backfill-counts`).

use crate::helpers::{deliveries, spawn_app, TestApp};
use testkit::new_email;

/// A sender whose sweep treats every mailing as quiet (the deployed one waits the queue's visibility
/// timeout, 6 minutes, so it never races a running sender).
fn sweeper(app: &TestApp) -> sender::SenderState {
    let mut sender = app.sender(0);
    sender.settings.quiet_seconds = 0;
    sender
}

fn assert_each_mailed_once(subject: &str, emails: &[String]) {
    let counts = deliveries(subject);
    for email in emails {
        assert_eq!(counts.get(email), Some(&1), "{email}: {counts:?}");
    }
    assert_eq!(counts.len(), emails.len(), "{counts:?}");
}

#[tokio::test]
async fn a_sender_killed_between_settling_and_counting_leaves_the_mailing_to_the_sweep() {
    let app = spawn_app().await;
    let readers = app.seed("killed", 24, &["Newsletter"]).await;
    let leaving = app.seed("gone", 2, &["Newsletter"]).await;
    let subject = format!("Counted in the end {}", new_email("k"));
    let id = app.mail(&["Newsletter"], &subject).await;
    let healthy = app.sender(0);
    assert_eq!(app.poll(&healthy).await, 1, "the planning step");
    for email in &leaving {
        let subscriber = newsletter::subscriber_id(email).unwrap();
        let reply = app
            .admin(
                http::Method::DELETE,
                &format!("/api/subscription/delete/{subscriber}"),
                None,
            )
            .await;
        assert_eq!(reply.status, http::StatusCode::OK, "{}", reply.body);
    }

    // Every batch dies after its settles: the mails went out, nothing was counted, and each job comes back.
    let dying = app.sender(0).dying_before_counting();
    // Until every reader was mailed: on a busy machine a poll can come back before all the jobs are
    // visible, and a job the dying sender never took would be sent (and counted) by the healthy one.
    for _ in 0..30 {
        app.poll(&dying).await;
        if deliveries(&subject).len() >= readers.len() {
            break;
        }
    }
    // The redeliveries find each reader settled already: mailed once, still never counted.
    app.drain(&healthy).await;
    let stuck = app.mailing(&id).await;
    assert_eq!(
        (stuck["status"].as_str(), stuck["sent"].as_u64()),
        (Some("sending"), Some(0)),
        "{stuck}"
    );

    // The deployed sweep leaves a mailing alone while a sender could still be counting it.
    let swept = sender::sweep(&healthy).await.unwrap();
    assert_eq!((swept.mailings.recounted, swept.mailings.finished), (0, 0));
    assert_eq!(app.mailing(&id).await["status"], "sending");

    // Once it is quiet, the sweep counts it from the deliveries and finishes it.
    let swept = sender::sweep(&sweeper(&app)).await.unwrap();
    assert_eq!((swept.mailings.recounted, swept.mailings.finished), (1, 1));
    let done = app.mailing(&id).await;
    assert_eq!(done["status"], "sent", "{done}");
    assert_eq!(
        (&done["sent"], &done["skipped"], &done["failed"]),
        (&24.into(), &2.into(), &0.into()),
        "{done}"
    );
    assert!(done["finishedAt"].is_string(), "{done}");
    assert_each_mailed_once(&subject, &readers);

    // Idempotent: a second sweep finds nothing to do.
    let again = sender::sweep(&sweeper(&app)).await.unwrap();
    assert_eq!(again.mailings, newsletter::recount::Swept::default());
}

#[tokio::test]
async fn a_dead_claim_and_lost_jobs_are_queued_again_and_mailed_once() {
    let app = spawn_app().await;
    let readers = app.seed("lost", 3, &["Newsletter"]).await;
    let subject = format!("Found again {}", new_email("l"));
    let id = app.mail(&["Newsletter"], &subject).await;
    let healthy = app.sender(0);
    assert_eq!(app.poll(&healthy).await, 1, "the planning step");
    // The three readers' jobs are lost (a queue purged, a redrive gone wrong) ...
    let lost = purge(&app).await;
    assert_eq!(lost, 3);
    // ... and the first reader's delivery was claimed by a sender that died ten minutes ago.
    let db = shared::aws::dynamodb(&app.harness.sdk);
    let ten_minutes_ago = shared::time::now_unix() - 600;
    db.put_item()
        .table_name(&app.harness.env["MAIL_TABLE"])
        .set_item(Some(
            shared::outbox::delivery_key(&id, &readers[0])
                .into_iter()
                .chain([
                    ("state".to_owned(), shared::dynamo::s("sending")),
                    ("claim".to_owned(), shared::dynamo::s("dead-sender")),
                    ("claimedAt".to_owned(), shared::dynamo::n(ten_minutes_ago)),
                ])
                .collect(),
        ))
        .send()
        .await
        .unwrap();

    // First sweep: the dead claim is handed back at once; the others wait for an empty queue.
    let sweep = sweeper(&app);
    let swept = sender::sweep(&sweep).await.unwrap();
    assert_eq!(swept.mailings.requeued, 1, "{swept:?}");
    app.drain(&healthy).await;
    assert_eq!(app.mailing(&id).await["sent"], 1);
    // Second sweep: the queue is empty, so the readers nobody claimed are queued again.
    let swept = sender::sweep(&sweep).await.unwrap();
    assert_eq!(swept.mailings.requeued, 2, "{swept:?}");
    app.drain(&healthy).await;
    let done = app.mailing(&id).await;
    assert_eq!(
        (&done["status"], &done["sent"]),
        (&"sent".into(), &3.into()),
        "{done}"
    );
    assert_each_mailed_once(&subject, &readers);
    let again = sender::sweep(&sweep).await.unwrap();
    assert_eq!(again.mailings, newsletter::recount::Swept::default());
}

/// Takes every message off the mail queue without handling it: answers how many there were.
async fn purge(app: &TestApp) -> usize {
    let mut taken = 0;
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
            return taken;
        }
        for message in answer.messages() {
            taken += 1;
            app.sqs
                .delete_message()
                .queue_url(&app.queue_url)
                .receipt_handle(message.receipt_handle().unwrap())
                .send()
                .await
                .unwrap();
        }
    }
}

#[tokio::test]
async fn the_list_counts_backfill_sets_the_truth_and_changes_nothing_the_second_time() {
    let app = spawn_app().await;
    app.seed("news", 5, &["Newsletter"]).await;
    app.seed("both", 3, &["Newsletter", "Offers and new drinks"])
        .await;
    // Counts out of step with the subscribers, as in a shop whose subscribers predate them.
    newsletter::add_to_list_counts(&app.app, &["Newsletter".to_owned()], 7)
        .await
        .unwrap();
    newsletter::add_to_list_counts(&app.app, &["Offers and new drinks".to_owned()], -2)
        .await
        .unwrap();
    let wrong = app
        .mail(&["Newsletter"], &format!("Before {}", new_email("b")))
        .await;
    assert_eq!(app.mailing(&wrong).await["recipients"], 15);

    let counts = newsletter::recount::recount_lists(&app.app).await.unwrap();
    assert_eq!(counts["Newsletter"], 5, "{counts:?}");
    assert_eq!(counts["Newsletter|Offers and new drinks"], 3, "{counts:?}");
    assert_eq!(counts.get("Offers and new drinks"), None, "{counts:?}");
    let right = app
        .mail(&["Newsletter"], &format!("After {}", new_email("a")))
        .await;
    assert_eq!(app.mailing(&right).await["recipients"], 8);
    let offers = app
        .mail(
            &["Offers and new drinks"],
            &format!("Offers {}", new_email("o")),
        )
        .await;
    assert_eq!(app.mailing(&offers).await["recipients"], 3);
    // A second run: the same answer, nothing moved.
    assert_eq!(
        newsletter::recount::recount_lists(&app.app).await.unwrap(),
        counts
    );
    let still = app
        .mail(&["Newsletter"], &format!("Again {}", new_email("g")))
        .await;
    assert_eq!(app.mailing(&still).await["recipients"], 8);
}
