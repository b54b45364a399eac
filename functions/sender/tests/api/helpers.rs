//! `spawn_app`: the newsletter router and the sender on the same fresh tables and queues, and `drain`,
//! which plays Lambda's SQS event source until the queue is empty.

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use testkit::{Client, Harness, Reply};

pub struct TestApp {
    pub client: Client,
    pub admin: String,
    pub app: newsletter::AppState,
    pub harness: Harness,
    pub sqs: aws_sdk_sqs::Client,
    pub queue_url: String,
}

pub async fn spawn_app() -> TestApp {
    // A rate far above the emulator's speed: these tests are about exactly-once, not pacing.
    let harness = Harness::new(
        "SenderFunction",
        &[("MAIL_RATE_PER_SECOND", "2000")],
        &["SubscriptionTable", "UsersTable", "MailTable"],
    )
    .await;
    let config = newsletter::Config::from_env(&harness.lookup()).expect("config from the template");
    let app = newsletter::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::ses(&harness.sdk),
        shared::aws::sqs(&harness.sdk),
    );
    let signed_in = harness.sign_in(&app.auth.users).await;
    TestApp {
        client: Client::new(newsletter::router(app.clone())),
        admin: signed_in.admin,
        sqs: shared::aws::sqs(&harness.sdk),
        queue_url: harness.queues["MailQueue"].clone(),
        app,
        harness,
    }
}

impl TestApp {
    /// A sender as the Lambda builds it, with `faults` percent of SES calls failing transiently.
    pub fn sender(&self, faults: u8) -> sender::SenderState {
        let settings = sender::Settings::from_env(&self.harness.lookup()).expect("sender settings");
        self.sender_with(settings, faults)
    }

    /// A sender with `settings` of the test's own (a small mail budget, say).
    pub fn sender_with(&self, settings: sender::Settings, faults: u8) -> sender::SenderState {
        let mailer = shared::mail::Mailer::new(
            shared::aws::ses(&self.harness.sdk),
            self.harness.env["MAIL_FROM"].clone(),
        );
        sender::SenderState::new(self.app.clone(), mailer, settings).with_injected_faults(faults)
    }

    /// Hands one batch (up to 10 jobs) to `sender`; answers how many jobs it held.
    pub async fn poll(&self, sender: &sender::SenderState) -> usize {
        sender::event_source::poll_once(&self.sqs, &self.queue_url, 10, 0, |event| {
            sender::handle(sender, event)
        })
        .await
        .expect("the queue answers")
    }

    /// Feeds the queue to `sender` until nothing is waiting or in flight.
    pub async fn drain(&self, sender: &sender::SenderState) {
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            assert!(Instant::now() < deadline, "the queue never drained");
            if self.poll(sender).await == 0 {
                let backlog = self
                    .app
                    .outbox
                    .queue()
                    .backlog()
                    .await
                    .expect("queue attributes");
                if backlog == 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }

    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }

    /// Sends a one-section letter to `lists`; answers the mailing's id.
    pub async fn mail(&self, lists: &[&str], subject: &str) -> String {
        let reply = self
            .admin(
                Method::POST,
                "/api/subscription/mailer/",
                Some(
                    json!({"MailList": lists, "data": {"subject": subject, "sections": [
                    {"title": "Summer drinks", "description": "Cold & fizzy <b>now</b>"}]}}),
                ),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.body);
        reply.body["_id"].as_str().unwrap().to_owned()
    }

    pub async fn mailing(&self, id: &str) -> Value {
        let reply = self
            .admin(
                Method::GET,
                &format!("/api/subscription/mailings/{id}"),
                None,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body
    }

    /// Stores `count` subscribers of `lists` directly (sign-up is rate limited per network), as
    /// `{label}.{i}.{run}@example.com`; answers their addresses.
    pub async fn seed(&self, label: &str, count: usize, lists: &[&str]) -> Vec<String> {
        let run = &uuid::Uuid::new_v4().simple().to_string()[..8];
        let lists: Vec<String> = lists.iter().map(|l| l.to_string()).collect();
        let emails: Vec<String> = (0..count)
            .map(|i| format!("{label}.{i}.{run}@example.com"))
            .collect();
        let db = shared::aws::dynamodb(&self.harness.sdk);
        let table = &self.harness.env["SUBSCRIPTION_TABLE"];
        for (chunk_no, chunk) in emails.chunks(25).enumerate() {
            let mut writes = Vec::new();
            for (i, email) in chunk.iter().enumerate() {
                let item = newsletter::stored_subscriber(email, &lists, (chunk_no * 25 + i) as u64)
                    .unwrap();
                writes.push(
                    WriteRequest::builder()
                        .put_request(PutRequest::builder().set_item(Some(item)).build().unwrap())
                        .build(),
                );
            }
            db.batch_write_item()
                .request_items(table.clone(), writes)
                .send()
                .await
                .expect("subscribers stored");
        }
        newsletter::add_to_list_counts(&self.app, &lists, count as i64)
            .await
            .expect("list counts");
        emails
    }
}

/// How many raw (queued) mails with `subject` each address got, from the emulator's record of SES.
pub fn deliveries(subject: &str) -> std::collections::HashMap<String, usize> {
    let emulator = testkit::emulator::Emulator::for_tests();
    let mut counts = std::collections::HashMap::new();
    let mut before = None;
    loop {
        let page = emulator
            .mails(&testkit::emulator::MailQuery {
                limit: 500,
                before,
                to: None,
            })
            .expect("the emulator lists its mail");
        for mail in page.mails.iter().filter(|m| m.subject == subject) {
            let to: std::collections::BTreeSet<&String> = mail.to.iter().collect();
            for address in to {
                *counts.entry(address.clone()).or_default() += 1;
            }
        }
        match page.next {
            Some(next) => before = Some(next),
            None => return counts,
        }
    }
}

impl TestApp {
    /// One Newsletter subscriber, signed up and confirmed through the API (its welcome goes to the outbox).
    pub async fn seed_one(&self, email: &str) {
        let reply = self
            .client
            .call(
                Method::POST,
                "/api/subscription/create/",
                None,
                Some(json!({"email": email, "lists": ["Newsletter"]})),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        // The reader follows the confirmation link (double opt-in); a known address has none waiting.
        if let Some(token) = newsletter::signup::confirmation_token(&self.app, email)
            .await
            .unwrap()
        {
            let confirmed = self
                .client
                .call(
                    Method::POST,
                    "/api/subscription/confirm/",
                    None,
                    Some(json!({ "token": token })),
                )
                .await;
            assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
        }
    }
}
