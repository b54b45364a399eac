//! The mail queue and the transactional outbox. Every e-mail but the login code goes through here: a job on
//! the SQS queue that the sender function drains within SES's rate. A mail that belongs to a write ("welcome
//! this subscriber", "confirm this paid order") is an outbox item written *in the same DynamoDB transaction*
//! as what it describes, so it exists exactly when that write committed; it is queued right after the
//! commit, and a sweep queues any item a crash left behind. The sender marks each item as sent
//! conditionally, so a job queued twice still sends one e-mail.
//!
//! How a function adds a mail to a transaction it already writes (the orders function's paid transition,
//! for example):
//!
//! ```ignore
//! let outbox = shared::outbox::Outbox::from_env(&env, dynamodb.clone(), sqs.clone())?; // once, at start
//! // ...
//! let (item, pending) = state.outbox.put(&QueuedMail::new(confirmation_mail))?;
//! writes.push(item);                       // beside the order's own conditional update
//! db.transact_write_items().set_transact_items(Some(writes)).send().await?;
//! state.outbox.enqueue(pending).await;     // only after the commit; never fails the request
//! ```
//!
//! The function needs `MAIL_TABLE` and `MAIL_QUEUE_URL` in its environment, `dynamodb:PutItem` on the mail
//! table (inside the transaction) and `sqs:SendMessage` on the queue.
//!
//! This module owns the mail table: every key in it is spelled here (the outbox items, and the records the
//! bulk mailer keeps beside them: each reader's delivery, each planning step, each bounce counted) or in
//! `mail_budget` (the day's counters), and no crate spells one itself.

use crate::config::{required, ConfigError, Lookup};
use crate::dynamo::{get_n, get_s, get_s_or_default, n, s, Item, ItemError};
use crate::mail::Mail;
use crate::ApiError;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use aws_sdk_sqs::types::SendMessageBatchRequestEntry;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The outbox items not yet sent, oldest first (`gsi1pk`), for the sweep. Sent items leave the index.
pub const PENDING: &str = "OUTBOX-PENDING";
/// Outbox items and delivery records are kept this long, then expire (TTL).
pub const KEEP_SECONDS: i64 = 30 * 24 * 3600;

/// One job on the mail queue: the message body, as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Job {
    /// Read the next page of a mailing's recipients and queue one `Bulk` job per reader.
    Plan {
        mailing: String,
        /// Where the previous page ended (the index's last key, as JSON); none for the first page.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cursor: Option<String>,
    },
    /// The mailing `mailing` to subscriber `subscriber`.
    Bulk { mailing: String, subscriber: String },
    /// One transactional e-mail kept in the outbox.
    Outbox { id: String },
}

/// The mail queue.
#[derive(Clone)]
pub struct Queue {
    sqs: aws_sdk_sqs::Client,
    url: Arc<str>,
}

impl Queue {
    pub fn new(sqs: aws_sdk_sqs::Client, url: impl Into<Arc<str>>) -> Self {
        Queue {
            sqs,
            url: url.into(),
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Messages waiting plus messages received and not yet deleted (SQS's approximate counts).
    pub async fn backlog(&self) -> Result<u64, ApiError> {
        use aws_sdk_sqs::types::QueueAttributeName;
        let answer = self
            .sqs
            .get_queue_attributes()
            .queue_url(&*self.url)
            .attribute_names(QueueAttributeName::ApproximateNumberOfMessages)
            .attribute_names(QueueAttributeName::ApproximateNumberOfMessagesNotVisible)
            .send()
            .await
            .map_err(ApiError::internal)?;
        let attributes = answer.attributes().cloned().unwrap_or_default();
        Ok([
            QueueAttributeName::ApproximateNumberOfMessages,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible,
        ]
        .iter()
        .filter_map(|name| attributes.get(name)?.parse::<u64>().ok())
        .sum())
    }

    /// Queues `jobs`, ten to a call (SQS's batch limit). An entry SQS refuses is tried once more, then the
    /// whole call fails: the caller's own retry (or the outbox sweep) covers it.
    pub async fn send(&self, jobs: &[Job]) -> Result<(), ApiError> {
        for chunk in jobs.chunks(10) {
            let mut entries = Vec::with_capacity(chunk.len());
            for (i, job) in chunk.iter().enumerate() {
                entries.push(
                    SendMessageBatchRequestEntry::builder()
                        .id(i.to_string())
                        .message_body(serde_json::to_string(job).map_err(ApiError::internal)?)
                        .build()
                        .map_err(ApiError::internal)?,
                );
            }
            for attempt in 0..2 {
                let answer = self
                    .sqs
                    .send_message_batch()
                    .queue_url(&*self.url)
                    .set_entries(Some(entries.clone()))
                    .send()
                    .await
                    .map_err(ApiError::internal)?;
                let failed: Vec<&str> = answer.failed().iter().map(|f| f.id()).collect();
                if failed.is_empty() {
                    break;
                }
                if attempt == 1 {
                    return Err(ApiError::internal(format!(
                        "the mail queue refused {} jobs",
                        failed.len()
                    )));
                }
                entries.retain(|e| failed.contains(&e.id()));
            }
        }
        Ok(())
    }
}

/// A mail for the outbox: the rendered mail and the headers it must carry.
pub struct QueuedMail {
    pub mail: Mail,
    pub headers: Vec<(String, String)>,
}

impl QueuedMail {
    pub fn new(mail: Mail) -> Self {
        QueuedMail {
            mail,
            headers: Vec::new(),
        }
    }

    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_owned(), value.into()));
        self
    }
}

/// Where an outbox item stands. `Sending` holds the claim of the sender that is sending it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Pending,
    Sending,
    Sent,
    Failed,
}

impl State {
    pub fn as_str(&self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Sending => "sending",
            State::Sent => "sent",
            State::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Result<Self, ItemError> {
        Ok(match text {
            "pending" => State::Pending,
            "sending" => State::Sending,
            "sent" => State::Sent,
            "failed" => State::Failed,
            other => return Err(ItemError(format!("unknown outbox state {other}"))),
        })
    }
}

/// An outbox item as stored.
pub struct OutboxItem {
    pub id: String,
    pub mail: QueuedMail,
    pub state: State,
    pub created_at: i64,
}

/// An item written but not yet queued: hand it to [`Outbox::enqueue`] once the transaction committed.
#[must_use = "queue it with Outbox::enqueue after the transaction commits"]
pub struct Pending {
    id: String,
}

impl Pending {
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// The key of outbox item `id` in the mail table.
pub fn key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("OUTBOX#{id}"))),
        ("sk".to_owned(), s("OUTBOX")),
    ])
}

/// The delivery record of one reader of mailing `mailing`: the reader's address (or, for a reader who left
/// before their turn, their subscriber id). Its claim makes a reader queued twice get one e-mail.
pub fn delivery_key(mailing: &str, reader: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(deliveries_of(mailing))),
        ("sk".to_owned(), s(reader)),
    ])
}

/// The `pk` every delivery record of `mailing` shares, to read them back (the mailings' sweep).
pub fn deliveries_of(mailing: &str) -> String {
    format!("DELIVERY#{mailing}")
}

/// The marker of one planning step of mailing `mailing` (`step`: the step's id, from its cursor).
pub fn plan_step_key(mailing: &str, step: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(plan_steps_of(mailing))),
        ("sk".to_owned(), s(step)),
    ])
}

/// The `pk` every planning step of `mailing` shares.
pub fn plan_steps_of(mailing: &str) -> String {
    format!("PLAN#{mailing}")
}

/// The mark that `email`'s bounce or complaint (`counter`: the mailing's counter it moves) was counted on
/// `mailing`, so an event the queue delivers twice counts once.
pub fn feedback_key(mailing: &str, counter: &str, email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("FEEDBACK#{mailing}"))),
        ("sk".to_owned(), s(format!("{counter}#{email}"))),
    ])
}

fn headers_value(headers: &[(String, String)]) -> AttributeValue {
    AttributeValue::L(
        headers
            .iter()
            .map(|(name, value)| AttributeValue::L(vec![s(name), s(value)]))
            .collect(),
    )
}

fn headers_of(item: &Item) -> Vec<(String, String)> {
    match item.get("headers") {
        Some(AttributeValue::L(pairs)) => pairs
            .iter()
            .filter_map(|pair| match pair {
                AttributeValue::L(two) if two.len() == 2 => {
                    Some((two[0].as_s().ok()?.clone(), two[1].as_s().ok()?.clone()))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl OutboxItem {
    pub fn from_item(item: &Item) -> Result<Self, ItemError> {
        let reply_to = get_s_or_default(item, "replyTo");
        Ok(OutboxItem {
            id: get_s(item, "id")?,
            mail: QueuedMail {
                mail: Mail {
                    to: get_s(item, "to")?,
                    subject: get_s(item, "subject")?,
                    html: get_s_or_default(item, "html"),
                    text: get_s_or_default(item, "text"),
                    reply_to: (!reply_to.is_empty()).then_some(reply_to),
                },
                headers: headers_of(item),
            },
            state: State::parse(&get_s(item, "state")?)?,
            created_at: get_n(item, "createdAt")?,
        })
    }
}

/// The outbox of one function: the mail table its items go to and the queue that carries them.
#[derive(Clone)]
pub struct Outbox {
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
    queue: Queue,
}

impl Outbox {
    pub fn new(db: aws_sdk_dynamodb::Client, table: impl Into<Arc<str>>, queue: Queue) -> Self {
        Outbox {
            db,
            table: table.into(),
            queue,
        }
    }

    /// `MAIL_TABLE` and `MAIL_QUEUE_URL`.
    pub fn from_env(
        env: &impl Lookup,
        db: aws_sdk_dynamodb::Client,
        sqs: aws_sdk_sqs::Client,
    ) -> Result<Self, ConfigError> {
        Ok(Outbox::new(
            db,
            required(env, "MAIL_TABLE")?,
            Queue::new(sqs, required(env, "MAIL_QUEUE_URL")?),
        ))
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        &self.db
    }

    /// "Send this mail, once": the write to add to the caller's `TransactWriteItems`, and the handle to
    /// queue it with after the commit. The item is new (a fresh id), so it cannot clash with anything.
    pub fn put(&self, queued: &QueuedMail) -> Result<(TransactWriteItem, Pending), ApiError> {
        let id = crate::store::new_id();
        let now = crate::time::now_unix();
        let mail = &queued.mail;
        let mut item = key(&id);
        item.extend([
            ("id".to_owned(), s(&id)),
            ("to".to_owned(), s(&mail.to)),
            ("subject".to_owned(), s(&mail.subject)),
            ("html".to_owned(), s(&mail.html)),
            ("text".to_owned(), s(&mail.text)),
            ("headers".to_owned(), headers_value(&queued.headers)),
            ("state".to_owned(), s(State::Pending.as_str())),
            ("createdAt".to_owned(), n(now)),
            ("expiresAt".to_owned(), n(now + KEEP_SECONDS)),
            ("gsi1pk".to_owned(), s(PENDING)),
            ("gsi1sk".to_owned(), s(format!("{now:012}#{id}"))),
        ]);
        if let Some(reply_to) = &mail.reply_to {
            item.insert("replyTo".to_owned(), s(reply_to));
        }
        crate::personal::tag(&mut item, &about(mail));
        let put = Put::builder()
            .table_name(&*self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        Ok((
            TransactWriteItem::builder().put(put).build(),
            Pending { id },
        ))
    }

    /// Queues an item whose transaction committed. A failure here loses nothing (the item is in the table
    /// and the sweep will queue it), so it is logged, not returned: the caller's request succeeded.
    pub async fn enqueue(&self, pending: Pending) {
        let job = Job::Outbox {
            id: pending.id.clone(),
        };
        if let Err(error) = self.queue.send(&[job]).await {
            tracing::warn!(outbox = %pending.id, ?error, "not queued now; the sweep will queue it");
        }
    }

    pub async fn load(&self, id: &str) -> Result<Option<OutboxItem>, ApiError> {
        let found = self
            .db
            .get_item()
            .table_name(&*self.table)
            .set_key(Some(key(id)))
            .consistent_read(true)
            .send()
            .await?;
        Ok(found.item().map(OutboxItem::from_item).transpose()?)
    }

    /// Queues again every item still unsent `older_than` seconds after it was written: the ones whose
    /// queueing failed or whose process stopped between commit and queue. Sending twice is harmless (the
    /// sender's claim sends one), so the sweep need not know why an item waits. Answers how many it queued.
    pub async fn sweep(&self, older_than: i64) -> Result<usize, ApiError> {
        let before = format!("{:012}", crate::time::now_unix() - older_than);
        let mut start = None;
        let mut queued = 0;
        loop {
            let page = self
                .db
                .query()
                .table_name(&*self.table)
                .index_name(crate::store::INDEX)
                .key_condition_expression("gsi1pk = :pending AND gsi1sk < :before")
                .expression_attribute_values(":pending", s(PENDING))
                .expression_attribute_values(":before", s(&before))
                .limit(100)
                .set_exclusive_start_key(start.take())
                .send()
                .await?;
            let jobs: Vec<Job> = page
                .items()
                .iter()
                .filter_map(|item| get_s(item, "id").ok())
                .map(|id| Job::Outbox { id })
                .collect();
            self.queue.send(&jobs).await?;
            queued += jobs.len();
            match page.last_evaluated_key() {
                Some(last) if !last.is_empty() => start = Some(last.clone()),
                _ => return Ok(queued),
            }
        }
    }
}

/// The person a mail is about, for their export and erasure: the recipient, or the customer a notice to the
/// shop is about (the contact form's message and the new-order notice reply to the customer).
fn about(mail: &Mail) -> String {
    mail.reply_to
        .as_deref()
        .unwrap_or(&mail.to)
        .trim()
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_read_back_as_written() {
        let jobs = [
            Job::Plan {
                mailing: "m1".to_owned(),
                cursor: None,
            },
            Job::Plan {
                mailing: "m1".to_owned(),
                cursor: Some("{\"pk\":\"x\"}".to_owned()),
            },
            Job::Bulk {
                mailing: "m1".to_owned(),
                subscriber: "ab".to_owned(),
            },
            Job::Outbox {
                id: "o1".to_owned(),
            },
        ];
        for job in jobs {
            let text = serde_json::to_string(&job).unwrap();
            assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), job, "{text}");
        }
        assert!(serde_json::from_str::<Job>("{\"kind\":\"nuke\"}").is_err());
    }

    #[test]
    fn an_outbox_item_reads_back_with_its_headers() {
        let queued = QueuedMail::new(Mail {
            to: "a@example.com".to_owned(),
            subject: "Welcome".to_owned(),
            html: "<p>hi</p>".to_owned(),
            text: "hi".to_owned(),
            reply_to: None,
        })
        .with_header("List-Unsubscribe", "<https://x/u>");
        let mut item = key("o1");
        item.extend([
            ("id".to_owned(), s("o1")),
            ("to".to_owned(), s(&queued.mail.to)),
            ("subject".to_owned(), s(&queued.mail.subject)),
            ("headers".to_owned(), headers_value(&queued.headers)),
            ("state".to_owned(), s("pending")),
            ("createdAt".to_owned(), n(5)),
        ]);
        let read = OutboxItem::from_item(&item).unwrap();
        assert_eq!(read.mail.headers, queued.headers);
        assert_eq!(read.state, State::Pending);
        assert_eq!(read.mail.mail.html, "");
    }
}
