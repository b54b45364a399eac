//! `spawn_app`: the newsletter router on its own tables, with an admin and a customer signed in.

use http::{Method, StatusCode};
use serde_json::{json, Value};
use testkit::{Client, Harness, Reply};

pub struct TestApp {
    pub client: Client,
    pub admin: String,
    pub customer: String,
    pub outbox: shared::outbox::Outbox,
    pub queue_url: String,
    pub sqs: aws_sdk_sqs::Client,
    pub state: newsletter::AppState,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "NewsletterFunction",
        &[],
        &["SubscriptionTable", "UsersTable", "MailTable"],
    )
    .await;
    let config = newsletter::Config::from_env(&harness.lookup())
        .expect("newsletter config from the template");
    let state = newsletter::AppState::new(
        config,
        shared::aws::dynamodb(&harness.sdk),
        shared::aws::ses(&harness.sdk),
        shared::aws::sqs(&harness.sdk),
    );
    let signed_in = harness.sign_in(&state.auth.users).await;
    TestApp {
        outbox: state.outbox.clone(),
        queue_url: harness.queues["MailQueue"].clone(),
        sqs: shared::aws::sqs(&harness.sdk),
        client: Client::new(newsletter::router(state.clone())),
        state,
        admin: signed_in.admin,
        customer: signed_in.customer,
    }
}

impl TestApp {
    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }

    pub async fn sign_up(&self, body: Value) -> Reply {
        self.client
            .call(Method::POST, "/api/subscription/create/", None, Some(body))
            .await
    }

    /// Signs `email` up to `lists`, expects the 201, and follows the confirmation link.
    pub async fn subscribe(&self, email: &str, lists: &[&str]) {
        let reply = self.sign_up(json!({"email": email, "lists": lists})).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        self.confirm(email).await;
    }

    /// The path of the newest confirmation link mailed to `email`: the storefront's confirmation page.
    pub async fn confirm_path(&self, email: &str) -> String {
        let mails = self
            .queued(email, "Confirm your subscription to Palestine Drinks")
            .await;
        let html = &mails.last().expect("a confirmation was queued").0;
        let start = html.find("/confirm/subscription?token=").unwrap();
        let end = start + html[start..].find('"').unwrap();
        html[start..end].to_owned()
    }

    /// The token of the newest confirmation link mailed to `email`.
    pub async fn confirm_token(&self, email: &str) -> String {
        let path = self.confirm_path(email).await;
        path.rsplit('=').next().unwrap().to_owned()
    }

    /// Presses the confirmation page's button for `token`.
    pub async fn confirm_with(&self, token: &str) -> Reply {
        self.client
            .call(
                Method::POST,
                "/api/subscription/confirm/",
                None,
                Some(json!({ "token": token })),
            )
            .await
    }

    /// Follows the newest confirmation link mailed to `email` and expects the 200.
    pub async fn confirm(&self, email: &str) {
        let token = self.confirm_token(email).await;
        let reply = self.confirm_with(&token).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }

    /// Every subscriber on the admin's list, newest first.
    pub async fn subscribers(&self) -> Vec<Value> {
        let mut all = Vec::new();
        let mut page = 1;
        loop {
            let reply = self
                .admin(
                    Method::GET,
                    &format!("/api/subscription/?pageNumber={page}"),
                    None,
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            all.extend(reply.body["product"].as_array().unwrap().iter().cloned());
            match reply.body["result"]["next"]["page"].as_u64() {
                Some(next) => page = next,
                None => return all,
            }
        }
    }

    /// The outbox mails waiting for `email` with `subject` (written with what they describe, not yet
    /// sent), as their HTML bodies and headers.
    pub async fn queued(&self, email: &str, subject: &str) -> Vec<(String, Vec<(String, String)>)> {
        testkit::outbox_pending(&self.outbox)
            .await
            .into_iter()
            .filter(|item| item.mail.mail.to == email && item.mail.mail.subject == subject)
            .map(|item| (item.mail.mail.html, item.mail.headers))
            .collect()
    }

    /// The jobs waiting on the mail queue (received and left to come back).
    pub async fn jobs(&self) -> Vec<shared::outbox::Job> {
        let answer = self
            .sqs
            .receive_message()
            .queue_url(&self.queue_url)
            .max_number_of_messages(10)
            .visibility_timeout(0)
            .send()
            .await
            .expect("queue answers");
        answer
            .messages()
            .iter()
            .map(|m| serde_json::from_str(m.body().unwrap_or_default()).expect("a job"))
            .collect()
    }

    pub async fn mail(&self, body: Value) -> Reply {
        self.admin(Method::POST, "/api/subscription/mailer/", Some(body))
            .await
    }
}

/// The path and query of the first unsubscribe link in a mail body.
pub fn unsubscribe_path(body: &str) -> String {
    let start = body
        .find("/api/subscription/unsubscribe/?token=")
        .unwrap_or_else(|| panic!("no unsubscribe link in {body}"));
    body[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '?' | '=' | '.' | '_'))
        .collect()
}

/// The mails sent to `email` with `subject`, as their bodies.
pub fn mails_with(email: &str, subject: &str) -> Vec<String> {
    testkit::mails_to(email)
        .into_iter()
        .filter(|(s, _)| s == subject)
        .map(|(_, body)| body)
        .collect()
}

/// The first queued welcome of `email`, as its HTML body.
pub async fn welcome_of(app: &TestApp, email: &str) -> String {
    let welcomes = app.queued(email, "Welcome to Palestine Drinks").await;
    assert_eq!(welcomes.len(), 1, "one welcome for {email}");
    welcomes[0].0.clone()
}
