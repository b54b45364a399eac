//! The transactional outbox: a mail written in the same transaction as what it describes is sent once,
//! after SES failures and queue losses alike; a transaction that fails leaves no mail.

use crate::helpers::spawn_app;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use shared::dynamo::s;
use shared::mail::Mail;
use shared::outbox::QueuedMail;
use testkit::{mails_to, new_email};

fn confirmation(to: &str, subject: &str) -> QueuedMail {
    QueuedMail::new(Mail {
        to: to.to_owned(),
        subject: subject.to_owned(),
        html: "<p>Your order is paid.</p>".to_owned(),
        text: "Your order is paid.".to_owned(),
        reply_to: Some("shop@example.com".to_owned()),
    })
}

/// A write standing for "the order becomes paid": a conditional put the mail rides along with.
fn paid_order(table: &str, id: &str) -> TransactWriteItem {
    let put = Put::builder()
        .table_name(table)
        .item("pk", s(format!("ORDER#{id}")))
        .item("sk", s("ORDER"))
        .item("status", s("paid"))
        .condition_expression("attribute_not_exists(pk)")
        .build()
        .unwrap();
    TransactWriteItem::builder().put(put).build()
}

fn sent(to: &str, subject: &str) -> usize {
    mails_to(to).iter().filter(|(s, _)| s == subject).count()
}

#[tokio::test]
async fn an_order_confirmation_is_queued_with_the_order_and_sent_once_even_when_ses_fails_first() {
    let app = spawn_app().await;
    let outbox = &app.app.outbox;
    let shopper = new_email("shopper");
    let subject = format!("Order confirmed {}", new_email("o"));
    let (item, pending) = outbox.put(&confirmation(&shopper, &subject)).unwrap();
    outbox
        .client()
        .transact_write_items()
        .transact_items(paid_order(outbox.table(), "o1"))
        .transact_items(item)
        .send()
        .await
        .unwrap();
    outbox.enqueue(pending).await;

    // Every SES call of the first delivery fails: nothing is sent, the job comes back.
    let failing = app.sender(100);
    assert_eq!(app.poll(&failing).await, 1);
    assert_eq!(sent(&shopper, &subject), 0);
    // The next delivery succeeds, and a duplicate job (the sweep, a redelivery) sends nothing more.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&shopper, &subject), 1);
    assert_eq!(
        outbox.sweep(-1).await.unwrap(),
        0,
        "a sent item leaves the sweep's index"
    );
    outbox
        .queue()
        .send(&[shared::outbox::Job::Outbox {
            id: first_outbox_id(&app, &shopper).await,
        }])
        .await
        .unwrap();
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&shopper, &subject), 1);
}

async fn first_outbox_id(app: &crate::helpers::TestApp, to: &str) -> String {
    let outbox = &app.app.outbox;
    let page = outbox
        .client()
        .scan()
        .table_name(outbox.table())
        .filter_expression("#to = :to")
        .expression_attribute_names("#to", "to")
        .expression_attribute_values(":to", s(to))
        .send()
        .await
        .unwrap();
    shared::dynamo::get_s(&page.items()[0], "id").unwrap()
}

#[tokio::test]
async fn a_mail_whose_queueing_was_lost_is_swept_and_sent_once() {
    let app = spawn_app().await;
    let outbox = &app.app.outbox;
    let shopper = new_email("lost");
    let subject = format!("Swept {}", new_email("o"));
    let (item, _never_queued) = outbox.put(&confirmation(&shopper, &subject)).unwrap();
    outbox
        .client()
        .transact_write_items()
        .transact_items(paid_order(outbox.table(), "o2"))
        .transact_items(item)
        .send()
        .await
        .unwrap();
    // The process stopped before queueing: nothing on the queue, the mail waits in the outbox.
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&shopper, &subject), 0);
    assert_eq!(outbox.sweep(-1).await.unwrap(), 1);
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&shopper, &subject), 1);
}

#[tokio::test]
async fn a_transaction_that_fails_leaves_no_mail() {
    let app = spawn_app().await;
    let outbox = &app.app.outbox;
    let shopper = new_email("cancelled");
    let subject = format!("Never {}", new_email("o"));
    // The order exists already: the conditional put fails, and the mail with it.
    outbox
        .client()
        .transact_write_items()
        .transact_items(paid_order(outbox.table(), "o3"))
        .send()
        .await
        .unwrap();
    let (item, _) = outbox.put(&confirmation(&shopper, &subject)).unwrap();
    let failed = outbox
        .client()
        .transact_write_items()
        .transact_items(paid_order(outbox.table(), "o3"))
        .transact_items(item)
        .send()
        .await;
    assert!(failed.is_err());
    assert_eq!(outbox.sweep(-1).await.unwrap(), 0);
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&shopper, &subject), 0);
}

#[tokio::test]
async fn a_welcome_is_sent_once_through_the_outbox() {
    let app = spawn_app().await;
    let reader = new_email("welcome");
    app.seed_one(&reader).await;
    app.seed_one(&reader).await;
    app.drain(&app.sender(0)).await;
    assert_eq!(sent(&reader, "Welcome to Palestine Drinks"), 1);
}

#[tokio::test]
async fn outbox_mail_past_the_days_budget_for_its_address_is_not_sent() {
    let app = spawn_app().await;
    let outbox = &app.app.outbox;
    let flooded = new_email("flooded");
    let calm = new_email("calm");
    // The shop's own address (the new-order notices) has no budget of its own.
    let shop = app.harness.env["MAIL_FROM"].clone();
    let mut writes = Vec::new();
    let mut queued = Vec::new();
    for (n, to) in [&flooded, &flooded, &flooded, &calm, &shop, &shop, &shop]
        .into_iter()
        .enumerate()
    {
        let (item, pending) = outbox
            .put(&confirmation(to, &format!("Confirm {n} {to}")))
            .unwrap();
        writes.push(item);
        queued.push(pending);
    }
    outbox
        .client()
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .unwrap();
    for pending in queued {
        outbox.enqueue(pending).await;
    }
    let mut settings = sender::Settings::from_env(&app.harness.lookup()).expect("sender settings");
    settings.budget.per_address = 2;
    app.drain(&app.sender_with(settings, 0)).await;
    assert_eq!(mails_to(&flooded).len(), 2, "two a day for one address");
    assert_eq!(
        mails_to(&calm).len(),
        1,
        "another address has its own budget"
    );
    let to_shop = mails_to(&shop)
        .into_iter()
        .filter(|(subject, _)| subject.starts_with("Confirm ") && subject.ends_with(&shop))
        .count();
    assert_eq!(to_shop, 3, "every notice to the shop itself");
    // The third is settled as failed, not left for the sweep to try again and again.
    assert_eq!(outbox.sweep(-1).await.unwrap(), 0);
}
