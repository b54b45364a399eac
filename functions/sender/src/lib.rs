//! The mail sender: the handler of the mail queue's batches. Each job is a planning step of a mailing, one
//! reader of a mailing, or one outbox mail. Before a mail goes to SES its delivery is *claimed* by a
//! conditional write (mailing + address, or the outbox item), and after it is *settled* (conditional on
//! still holding the claim); the readers a batch settled are counted on their mailing once per batch. So a
//! job delivered twice, or two senders racing, send it once and count it once. A batch's mailings and
//! readers are read once for all its records. Sends are
//! paced to this instance's share of the SES rate; throttles and faults are retried with back-off, then left
//! to the queue's redelivery; an address SES refuses, or one still failing on its last delivery, is counted
//! as failed instead of retried for ever.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent, SqsMessage};
use newsletter::store::{self, Delivery, Mailing, Outcome};
use shared::config::{optional, ConfigError, Lookup};
use shared::dynamo::{get_s_or_default, n, s, Item};
use shared::mail::{Mail, Mailer, RawMail, SendError};
use shared::outbox::{delivery_key, Job, Outbox, State};
use shared::ApiError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// How the sender paces and retries.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// SES's sending rate for the account (`MAIL_RATE_PER_SECOND`), shared by every running sender.
    pub rate_per_second: f64,
    /// How many senders may run at once (`MAIL_SENDER_CONCURRENCY`, the event source's maximum).
    pub concurrency: u32,
    /// The queue's `maxReceiveCount` (`MAIL_MAX_RECEIVES`): on the last delivery a failure is final.
    pub max_receives: u32,
    /// Sends tried within one delivery of a job before it is left to the queue.
    pub tries: u32,
    /// A claim older than this (seconds) is taken to be from a sender that stopped mid-send.
    pub lease_seconds: i64,
    /// The SES configuration set that reports bounces and complaints (`MAIL_CONFIGURATION_SET`).
    pub configuration_set: Option<String>,
    /// The mail queue's visibility timeout (`MAIL_QUEUE_VISIBILITY_SECONDS`): a mailing untouched this long
    /// has no sender working on it, so the sweep may recount it and hand back its stranded readers.
    pub quiet_seconds: i64,
    /// The day's budget every outbox mail draws on (bulk mailings do not): shared::mail_budget.
    pub budget: shared::mail_budget::Budget,
}

impl Settings {
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let number = |name: &'static str, default: &str| -> Result<f64, ConfigError> {
            optional(env, name, default)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or(ConfigError::Invalid {
                    name,
                    reason: "must be a number above 0".to_owned(),
                })
        };
        Ok(Settings {
            rate_per_second: number("MAIL_RATE_PER_SECOND", "14")?,
            concurrency: number("MAIL_SENDER_CONCURRENCY", "2")?.ceil() as u32,
            max_receives: number("MAIL_MAX_RECEIVES", "5")?.ceil() as u32,
            tries: 3,
            lease_seconds: 120,
            configuration_set: env
                .get("MAIL_CONFIGURATION_SET")
                .filter(|name| !name.trim().is_empty()),
            quiet_seconds: number("MAIL_QUEUE_VISIBILITY_SECONDS", "360")?.ceil() as i64,
            budget: shared::mail_budget::Budget::from_env(env)?,
        })
    }

    /// The time between two sends of one instance: its share of the account's rate.
    pub fn interval(&self) -> Duration {
        Duration::from_secs_f64(f64::from(self.concurrency.max(1)) / self.rate_per_second)
    }
}

/// Transient SES failures injected on purpose, for the local benchmark: a share of sends fails before it
/// reaches SES. Only the local gateway can switch it on; the Lambda's `main` never does.
pub struct Faults {
    percent: u64,
    calls: AtomicU64,
    seed: u64,
}

impl Faults {
    pub fn new(percent: u8) -> Self {
        Faults {
            percent: u64::from(percent.min(100)),
            calls: AtomicU64::new(0),
            seed: uuid::Uuid::new_v4().as_u64_pair().0,
        }
    }

    fn strike(&self) -> bool {
        // splitmix64 over a counter: spread evenly, no generator to share between tasks.
        let mut z = self
            .seed
            .wrapping_add(self.calls.fetch_add(1, Ordering::Relaxed))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % 100 < self.percent
    }
}

pub struct SenderState {
    pub newsletter: newsletter::AppState,
    pub mailer: Mailer,
    pub settings: Settings,
    faults: Option<Faults>,
    /// Stops each batch between settling its readers and counting them, as a sender killed there would
    /// (tests only): nothing counted, no record deleted from the queue.
    dies_before_counting: bool,
    next_send: Mutex<Instant>,
}

impl SenderState {
    /// The sender as its Lambda (`main.rs`) and the local gateway both build it: the newsletter state it
    /// works on, its own settings (rate, visibility) and the mailer.
    pub fn build(
        env: &impl shared::config::Lookup,
        clients: &shared::clients::Clients,
    ) -> Result<Self, shared::config::ConfigError> {
        let settings = Settings::from_env(env)?;
        let app = newsletter::AppState::build(env, clients)?;
        let mailer = Mailer::new(clients.ses(), app.mail_from.to_string());
        Ok(Self::new(app, mailer, settings))
    }

    pub fn new(newsletter: newsletter::AppState, mailer: Mailer, settings: Settings) -> Self {
        SenderState {
            newsletter,
            mailer,
            settings,
            faults: None,
            dies_before_counting: false,
            next_send: Mutex::new(Instant::now()),
        }
    }

    /// Makes `percent` of SES calls fail transiently (local benchmark only).
    pub fn with_injected_faults(mut self, percent: u8) -> Self {
        self.faults = (percent > 0).then(|| Faults::new(percent));
        self
    }

    /// Makes every batch stop where a killed sender would: after its settles, before its counts (tests).
    pub fn dying_before_counting(mut self) -> Self {
        self.dies_before_counting = true;
        self
    }

    fn outbox(&self) -> &Outbox {
        &self.newsletter.outbox
    }

    /// Waits for this instance's next sending slot.
    async fn pace(&self) {
        let mut next = self.next_send.lock().await;
        let now = Instant::now();
        if *next > now {
            tokio::time::sleep_until(*next).await;
        }
        *next = (*next).max(now) + self.settings.interval();
    }

    async fn send_once(&self, raw: RawMail<'_>) -> Result<(), SendError> {
        self.pace().await;
        if self.faults.as_ref().is_some_and(Faults::strike) {
            return Err(SendError::Transient("injected fault".to_owned()));
        }
        self.mailer
            .send_raw(raw, self.settings.configuration_set.as_deref())
            .await
    }
}

/// How one record ended: done (delete it from the queue) or to be delivered again.
#[derive(Debug, PartialEq, Eq)]
enum Handled {
    Done,
    Retry,
}

/// One record of a batch, read.
struct Record {
    id: String,
    job: Job,
    last_try: bool,
}

/// What a batch needs read once for all its records: the mailings and their readers.
#[derive(Default)]
struct Loaded {
    mailings: HashMap<String, Option<Mailing>>,
    readers: HashMap<String, store::Reader>,
}

/// The handler Lambda's event source calls with a batch: answers the records to deliver again.
pub async fn handle(state: &SenderState, event: SqsEvent) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    let mut records = Vec::new();
    for record in event.records {
        let id = record.message_id.clone().unwrap_or_default();
        // A body that is not a job is dropped (and logged): delivering it again cannot make it readable.
        if let Some(job) = read_record(&record) {
            records.push(Record {
                id,
                job,
                last_try: is_last_try(state, &record),
            });
        }
    }
    let loaded = match load(state, &records).await {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::error!(
                ?error,
                "a batch's mailings or readers could not be read; delivered again"
            );
            for record in records {
                response.add_failure(record.id);
            }
            return response;
        }
    };
    let mut tallies: HashMap<String, store::Tally> = HashMap::new();
    for record in &records {
        match handle_record(state, record, &loaded, &mut tallies).await {
            Ok(Handled::Done) => {}
            Ok(Handled::Retry) => response.add_failure(record.id.clone()),
            Err(error) => {
                tracing::error!(message = %record.id, ?error, "a mail job failed; the queue delivers it again");
                response.add_failure(record.id.clone());
            }
        }
    }
    if state.dies_before_counting {
        // Killed here: the settles are written, the counts are not, and no record is deleted.
        for record in records {
            response.add_failure(record.id);
        }
        return response;
    }
    // Counted once per mailing per batch; a mailing is finished when its last reader is counted.
    let touched: Vec<&String> = loaded
        .mailings
        .iter()
        .filter(|(_, m)| m.is_some())
        .map(|(id, _)| id)
        .collect();
    for id in touched {
        let tally = tallies.get(id).copied().unwrap_or_default();
        if let Err(error) = store::count(&state.newsletter, id, tally).await {
            tracing::error!(mailing = %id, ?error, ?tally, "settled readers not counted on the mailing");
        }
        if let Err(error) = store::finish_if_done(&state.newsletter, id).await {
            tracing::error!(mailing = %id, ?error, "could not mark the mailing finished");
        }
    }
    response
}

fn read_record(record: &SqsMessage) -> Option<Job> {
    let body = record.body.as_deref().unwrap_or_default();
    match serde_json::from_str(body) {
        Ok(job) => Some(job),
        Err(error) => {
            tracing::error!(%error, body, "a mail job that is not a job");
            None
        }
    }
}

fn is_last_try(state: &SenderState, record: &SqsMessage) -> bool {
    record
        .attributes
        .get("ApproximateReceiveCount")
        .and_then(|count| count.parse::<u32>().ok())
        .is_some_and(|count| count >= state.settings.max_receives)
}

async fn load(state: &SenderState, records: &[Record]) -> Result<Loaded, ApiError> {
    let mut loaded = Loaded::default();
    let mut subscribers = Vec::new();
    for record in records {
        if let Job::Bulk {
            mailing,
            subscriber,
        } = &record.job
        {
            if !loaded.mailings.contains_key(mailing) {
                let found = store::load(&state.newsletter, mailing).await?;
                loaded.mailings.insert(mailing.clone(), found);
            }
            subscribers.push(subscriber.clone());
        }
    }
    if !subscribers.is_empty() {
        loaded.readers = store::readers(&state.newsletter, &subscribers).await?;
    }
    Ok(loaded)
}

async fn handle_record(
    state: &SenderState,
    record: &Record,
    loaded: &Loaded,
    tallies: &mut HashMap<String, store::Tally>,
) -> Result<Handled, ApiError> {
    match &record.job {
        Job::Plan { mailing, cursor } => {
            store::plan(&state.newsletter, mailing, cursor.as_deref()).await?;
            Ok(Handled::Done)
        }
        Job::Bulk {
            mailing,
            subscriber,
        } => {
            let Some(Some(found)) = loaded.mailings.get(mailing) else {
                tracing::warn!(%mailing, "a reader of a mailing that does not exist");
                return Ok(Handled::Done);
            };
            let reader = loaded.readers.get(subscriber);
            let (handled, outcome) =
                send_bulk(state, found, subscriber, reader, record.last_try).await?;
            if let Some(outcome) = outcome {
                tallies.entry(mailing.clone()).or_default().add(outcome);
            }
            Ok(handled)
        }
        Job::Outbox { id } => send_outbox(state, id, record.last_try).await,
    }
}

enum Claim {
    /// Ours, with this token.
    Claimed(String),
    /// Sent or failed for good already.
    Settled,
    /// Another sender holds it right now.
    Busy,
}

/// Claims the record at `key` for sending; a mailing's delivery record to an address is tagged with it
/// (`person`), so the reader's export and erasure find it.
async fn claim(state: &SenderState, key: &Item, person: Option<&str>) -> Result<Claim, ApiError> {
    let outbox = state.outbox();
    let token = uuid::Uuid::new_v4().to_string();
    let now = shared::time::now_unix();
    let mut set = "SET #state = :sending, claim = :token, claimedAt = :now, expiresAt = if_not_exists(expiresAt, :expires)".to_owned();
    if person.is_some() {
        set.push_str(", #person = :person");
    }
    let result = outbox
        .client()
        .update_item()
        .table_name(outbox.table())
        .set_key(Some(key.clone()))
        .update_expression(set)
        .condition_expression(
            "attribute_not_exists(#state) OR #state = :pending OR (#state = :sending AND claimedAt < :stale)",
        )
        .expression_attribute_names("#state", "state")
        .expression_attribute_values(":sending", s(State::Sending.as_str()))
        .expression_attribute_values(":pending", s(State::Pending.as_str()))
        .expression_attribute_values(":token", s(&token))
        .expression_attribute_values(":now", n(now))
        .expression_attribute_values(":stale", n(now - state.settings.lease_seconds))
        .expression_attribute_values(":expires", n(now + shared::outbox::KEEP_SECONDS));
    let result = match person {
        Some(person) => result
            .expression_attribute_names("#person", shared::personal::PERSON)
            .expression_attribute_values(":person", s(person)),
        None => result,
    }
    .send()
    .await;
    match result {
        Ok(_) => Ok(Claim::Claimed(token)),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            let found = outbox
                .client()
                .get_item()
                .table_name(outbox.table())
                .set_key(Some(key.clone()))
                .consistent_read(true)
                .send()
                .await?;
            let state_now = found
                .item()
                .map(|item| get_s_or_default(item, "state"))
                .unwrap_or_default();
            Ok(if state_now == State::Sending.as_str() {
                Claim::Busy
            } else {
                Claim::Settled
            })
        }
        Err(error) => Err(error.into()),
    }
}

/// Records the end of a claimed delivery, conditional on still holding the claim: answers whether it did.
/// Only the holder's settle succeeds, so the caller counts a reader once; if the claim was lost meanwhile
/// (a very slow send), nothing is recorded here: the new holder records it.
async fn settle(
    state: &SenderState,
    key: &Item,
    token: &str,
    end: State,
) -> Result<bool, ApiError> {
    let outbox = state.outbox();
    let result = outbox
        .client()
        .update_item()
        .table_name(outbox.table())
        .set_key(Some(key.clone()))
        .update_expression("SET #state = :end, settledAt = :now REMOVE claim, gsi1pk, gsi1sk")
        .condition_expression("claim = :token")
        .expression_attribute_names("#state", "state")
        .expression_attribute_values(":end", s(end.as_str()))
        .expression_attribute_values(":now", n(shared::time::now_unix()))
        .expression_attribute_values(":token", s(token))
        .send()
        .await;
    match result {
        Ok(_) => Ok(true),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            tracing::warn!(
                ?key,
                "a delivery's claim was taken over before it was recorded"
            );
            Ok(false)
        }
        Err(error) => Err(error.into()),
    }
}

/// Gives a claim back after a transient failure, so the next delivery of the job can send.
async fn release(state: &SenderState, key: &Item, token: &str) -> Result<(), ApiError> {
    let outbox = state.outbox();
    let result = outbox
        .client()
        .update_item()
        .table_name(outbox.table())
        .set_key(Some(key.clone()))
        .update_expression("SET #state = :pending REMOVE claim")
        .condition_expression("claim = :token")
        .expression_attribute_names("#state", "state")
        .expression_attribute_values(":pending", s(State::Pending.as_str()))
        .expression_attribute_values(":token", s(token))
        .send()
        .await;
    match result {
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(()),
        other => other.map(drop).map_err(Into::into),
    }
}

/// The end of a send after its tries: sent, failed for good, or to be tried on a later delivery.
enum Sent {
    Yes,
    Refused,
    Later,
}

async fn send_with_retries(
    state: &SenderState,
    mail: &Mail,
    headers: &[(String, String)],
    tags: &[(String, String)],
    last_try: bool,
) -> Sent {
    let tries = state.settings.tries.max(1);
    for attempt in 0..tries {
        let raw = RawMail {
            mail,
            headers,
            tags,
        };
        match state.send_once(raw).await {
            Ok(()) => return Sent::Yes,
            Err(SendError::Permanent(why)) => {
                tracing::warn!(to = %mail.to, %why, "SES refused a mail");
                return Sent::Refused;
            }
            Err(SendError::Transient(why)) => {
                tracing::info!(to = %mail.to, %why, attempt, "a send failed; trying again");
                if attempt + 1 < tries {
                    // 100 ms, 400 ms, ...: a throttle usually clears within a second.
                    tokio::time::sleep(Duration::from_millis(100 * 4u64.pow(attempt))).await;
                }
            }
        }
    }
    if last_try {
        tracing::warn!(to = %mail.to, "a mail failed on its last delivery; counted as failed");
        Sent::Refused
    } else {
        Sent::Later
    }
}

/// One reader of a mailing: answers how the job ended and, when this sender settled the reader, the
/// outcome to count.
async fn send_bulk(
    state: &SenderState,
    mailing: &Mailing,
    subscriber: &str,
    reader: Option<&store::Reader>,
    last_try: bool,
) -> Result<(Handled, Option<Outcome>), ApiError> {
    let (to, mail, headers) = match store::delivery(&state.newsletter, mailing, reader) {
        Delivery::Send { to, mail, headers } => (to, mail, headers),
        Delivery::Skip => {
            // Recorded under the subscriber id (the address is gone with them), so it counts once.
            let key = delivery_key(&mailing.id, subscriber);
            return match claim(state, &key, None).await? {
                Claim::Claimed(token) => {
                    let won = settle(state, &key, &token, State::Sent).await?;
                    Ok((Handled::Done, won.then_some(Outcome::Skipped)))
                }
                Claim::Settled => Ok((Handled::Done, None)),
                Claim::Busy => Ok((Handled::Retry, None)),
            };
        }
    };
    let key = delivery_key(&mailing.id, &to);
    let token = match claim(state, &key, Some(&to)).await? {
        Claim::Claimed(token) => token,
        Claim::Settled => return Ok((Handled::Done, None)),
        Claim::Busy => return Ok((Handled::Retry, None)),
    };
    let tags = [("mailing".to_owned(), mailing.id.clone())];
    match send_with_retries(state, &mail, &headers, &tags, last_try).await {
        Sent::Yes => {
            let won = settle(state, &key, &token, State::Sent).await?;
            Ok((Handled::Done, won.then_some(Outcome::Sent)))
        }
        Sent::Refused => {
            let won = settle(state, &key, &token, State::Failed).await?;
            Ok((Handled::Done, won.then_some(Outcome::Failed)))
        }
        Sent::Later => {
            release(state, &key, &token).await?;
            Ok((Handled::Retry, None))
        }
    }
}

async fn send_outbox(state: &SenderState, id: &str, last_try: bool) -> Result<Handled, ApiError> {
    let Some(item) = state.outbox().load(id).await? else {
        tracing::warn!(outbox = %id, "an outbox job for an item that does not exist");
        return Ok(Handled::Done);
    };
    if matches!(item.state, State::Sent | State::Failed) {
        return Ok(Handled::Done);
    }
    let key = shared::outbox::key(id);
    let token = match claim(state, &key, None).await? {
        Claim::Claimed(token) => token,
        Claim::Settled => return Ok(Handled::Done),
        Claim::Busy => return Ok(Handled::Retry),
    };
    let queued = item.mail;
    // Past the day's budget for its address, or the shop's, the mail is not sent: a route turned into a
    // mail cannon stops here whatever it queued.
    let outbox = state.outbox();
    let now = shared::time::now_unix();
    if let Err(refused) = state
        .settings
        .budget
        .take(outbox.client(), outbox.table(), &queued.mail.to, now)
        .await?
    {
        tracing::warn!(outbox = %id, ?refused, "a mail over the day's budget was not sent");
        settle(state, &key, &token, State::Failed).await?;
        return Ok(Handled::Done);
    }
    match send_with_retries(state, &queued.mail, &queued.headers, &[], last_try).await {
        Sent::Yes => {
            settle(state, &key, &token, State::Sent).await?;
            Ok(Handled::Done)
        }
        Sent::Refused => {
            settle(state, &key, &token, State::Failed).await?;
            Ok(Handled::Done)
        }
        Sent::Later => {
            release(state, &key, &token).await?;
            Ok(Handled::Retry)
        }
    }
}

/// Outbox items left unsent this long (seconds) are queued again by the sweep.
pub const SWEEP_AFTER: i64 = 120;

/// Any event the sender Lambda receives, told apart as its `main` does: the queue's batches carry `Records`;
/// `make backfill-counts` sends `{"task": "backfill-counts"}`; the schedule's event is anything else.
pub async fn handle_event(
    state: &SenderState,
    event: serde_json::Value,
) -> Result<serde_json::Value, Box<dyn std::error::Error + Send + Sync>> {
    if event.get("Records").is_some() {
        let batch: SqsEvent = serde_json::from_value(event)?;
        return Ok(serde_json::to_value(handle(state, batch).await)?);
    }
    if event.get("task").and_then(serde_json::Value::as_str) == Some("backfill-counts") {
        let counts = store::recount_lists(&state.newsletter)
            .await
            .map_err(|e| format!("the list counts' recount failed: {e:?}"))?;
        tracing::info!(?counts, "the list counts were recounted");
        return Ok(serde_json::json!({ "listCounts": counts }));
    }
    let swept = sweep(state)
        .await
        .map_err(|e| format!("the schedule's sweep failed: {e:?}"))?;
    Ok(serde_json::to_value(swept)?)
}

/// What the schedule's sweep did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Swept {
    /// Outbox items queued again.
    pub queued: usize,
    #[serde(flatten)]
    pub mailings: store::Swept,
}

/// The schedule's sweep: queues outbox items a crash left behind (written, never queued, or queued and
/// lost), and recounts the mailings a sender left unfinished (`newsletter::store::sweep`).
pub async fn sweep(state: &SenderState) -> Result<Swept, ApiError> {
    let queued = state.outbox().sweep(SWEEP_AFTER).await?;
    let mailings = store::sweep(&state.newsletter, state.settings.quiet_seconds).await?;
    Ok(Swept { queued, mailings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instance_sends_its_share_of_the_rate() {
        let env = |name: &str| match name {
            "MAIL_RATE_PER_SECOND" => Some("14".to_owned()),
            "MAIL_SENDER_CONCURRENCY" => Some("2".to_owned()),
            _ => None,
        };
        let settings = Settings::from_env(&env).unwrap();
        assert_eq!(settings.interval(), Duration::from_secs_f64(2.0 / 14.0));
        let bad = |name: &str| (name == "MAIL_RATE_PER_SECOND").then(|| "0".to_owned());
        assert!(Settings::from_env(&bad).is_err());
    }

    #[test]
    fn injected_faults_strike_about_their_share() {
        let faults = Faults::new(5);
        let struck = (0..20_000).filter(|_| faults.strike()).count();
        assert!((700..1300).contains(&struck), "{struck} of 20000");
        assert_eq!((0..1000).filter(|_| Faults::new(0).strike()).count(), 0);
    }
}

pub mod event_source {
    //! What Lambda's SQS event source does, for the local gateway and the tests (no Lambda there): receive
    //! a batch, hand it to a handler, delete what the handler did not report failed. Failed records come
    //! back when their visibility timeout ends, with a higher receive count, as in AWS.

    use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent, SqsMessage};
    use aws_sdk_sqs::types::{DeleteMessageBatchRequestEntry, MessageSystemAttributeName};
    use shared::ApiError;
    use std::future::Future;

    /// Receives up to `max` messages (waiting up to `wait_seconds`), runs `handler` on them and deletes the
    /// ones it handled. Answers how many it received.
    pub async fn poll_once<F, Fut>(
        sqs: &aws_sdk_sqs::Client,
        queue_url: &str,
        max: i32,
        wait_seconds: i32,
        handler: F,
    ) -> Result<usize, ApiError>
    where
        F: FnOnce(SqsEvent) -> Fut,
        Fut: Future<Output = SqsBatchResponse>,
    {
        let answer = sqs
            .receive_message()
            .queue_url(queue_url)
            .max_number_of_messages(max)
            .wait_time_seconds(wait_seconds)
            .message_system_attribute_names(MessageSystemAttributeName::ApproximateReceiveCount)
            .send()
            .await
            .map_err(ApiError::internal)?;
        let messages = answer.messages();
        if messages.is_empty() {
            return Ok(0);
        }
        let mut event = SqsEvent::default();
        for message in messages {
            let mut record = SqsMessage::default();
            record.message_id = message.message_id().map(str::to_owned);
            record.receipt_handle = message.receipt_handle().map(str::to_owned);
            record.body = message.body().map(str::to_owned);
            record.event_source = Some("aws:sqs".to_owned());
            if let Some(attributes) = message.attributes() {
                for (name, value) in attributes {
                    record
                        .attributes
                        .insert(name.as_str().to_owned(), value.clone());
                }
            }
            event.records.push(record);
        }
        let response = handler(event).await;
        let failed: Vec<&str> = response
            .batch_item_failures
            .iter()
            .map(|f| f.item_identifier.as_str())
            .collect();
        let done: Vec<DeleteMessageBatchRequestEntry> = messages
            .iter()
            .enumerate()
            .filter(|(_, m)| !failed.contains(&m.message_id().unwrap_or_default()))
            .filter_map(|(i, m)| {
                DeleteMessageBatchRequestEntry::builder()
                    .id(i.to_string())
                    .set_receipt_handle(m.receipt_handle().map(str::to_owned))
                    .build()
                    .ok()
            })
            .collect();
        if !done.is_empty() {
            sqs.delete_message_batch()
                .queue_url(queue_url)
                .set_entries(Some(done))
                .send()
                .await
                .map_err(ApiError::internal)?;
        }
        Ok(messages.len())
    }
}
