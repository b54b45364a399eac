//! A mailing as a job: recorded `queued` by the mailer, planned page by page through the subscriber index by
//! the sender function, sent one reader per queue job, and counted as it goes (`sent`, `failed`, `skipped`,
//! `outstanding`) so the admin sees its progress. Each reader's e-mail is rendered here, with RFC 8058
//! one-click unsubscribe headers; the sender only claims, sends and settles.

use crate::letter::{Letter, Section};
use crate::subscriber::Subscriber;
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};
use axum::extract::State;
use serde::Serialize;
use shared::auth::Admin;
use shared::dynamo::{
    b, get_bool, get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item,
    ItemError,
};
use shared::extract::{Path, Query};
use shared::mail::Mail;
use shared::outbox::Job;
use shared::paging::{Page, PageQuery};
use shared::store::{not_found, stored_item, version_of, Entity, INDEX};
use shared::{ApiError, ApiResult, Json};
use std::collections::HashMap;

/// Subscribers read per planning step: one query page, then up to this many jobs queued.
pub const PAGE_SIZE: i32 = 200;
const PER_PAGE: usize = 20;

/// Where a mailing is: queued, being sent, or finished (`failed` when every mail failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "MailingStatus")]
pub enum Status {
    Queued,
    Sending,
    Sent,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Sending => "sending",
            Status::Sent => "sent",
            Status::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "queued" => Status::Queued,
            "sending" => Status::Sending,
            "failed" => Status::Failed,
            _ => Status::Sent,
        }
    }
}

/// A mailing and its counters.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Mailing {
    #[serde(rename = "_id")]
    pub id: String,
    pub subject: String,
    pub lists: Vec<String>,
    #[serde(skip)]
    pub sections: Vec<Section>,
    /// Where unsubscribe links point: the shop's address when the admin sent it.
    #[serde(skip)]
    pub base_url: String,
    /// Subscribers on the lists when the mailing was queued.
    pub recipients: u64,
    pub sent: u64,
    pub failed: u64,
    /// Readers who left the lists between queueing and their turn: not mailed.
    pub skipped: u64,
    pub bounced: u64,
    pub complained: u64,
    /// Readers queued so far, and how many of them are not settled yet.
    #[serde(skip)]
    pub planned: u64,
    #[serde(skip)]
    pub outstanding: i64,
    #[serde(skip)]
    pub plan_done: bool,
    pub status: Status,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "finishedAt", skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    #[serde(skip)]
    pub version: u64,
}

impl Entity for Mailing {
    const KIND: &'static str = "MAILING";
    const NOUN: &'static str = "mailing";

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        format!("{}#{}", self.created_at, self.id)
    }

    fn to_attributes(&self) -> Item {
        let sections: Vec<serde_json::Value> = self
            .sections
            .iter()
            .map(|section| {
                serde_json::json!({"title": section.title, "description": section.description,
                    "link": section.link, "image": section.image})
            })
            .collect();
        let mut item = Item::from([
            ("id".to_owned(), s(&self.id)),
            ("subject".to_owned(), s(&self.subject)),
            ("lists".to_owned(), string_list(&self.lists)),
            (
                "sections".to_owned(),
                s(serde_json::Value::from(sections).to_string()),
            ),
            ("baseUrl".to_owned(), s(&self.base_url)),
            ("recipients".to_owned(), n(self.recipients)),
            ("sent".to_owned(), n(self.sent)),
            ("failed".to_owned(), n(self.failed)),
            ("skipped".to_owned(), n(self.skipped)),
            ("bounced".to_owned(), n(self.bounced)),
            ("complained".to_owned(), n(self.complained)),
            ("planned".to_owned(), n(self.planned)),
            ("outstanding".to_owned(), n(self.outstanding)),
            ("planDone".to_owned(), b(self.plan_done)),
            ("status".to_owned(), s(self.status.as_str())),
            ("createdAt".to_owned(), s(&self.created_at)),
        ]);
        if let Some(finished) = &self.finished_at {
            item.insert("finishedAt".to_owned(), s(finished));
        }
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let sections: Vec<serde_json::Value> =
            serde_json::from_str(&get_s_or_default(item, "sections")).unwrap_or_default();
        let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
        // Mailings sent before mailings were jobs kept `sentAt` and the count of mails that went out.
        let created_at = match get_s(item, "createdAt") {
            Ok(at) => at,
            Err(_) => get_s(item, "sentAt")?,
        };
        let finished = get_s_or_default(item, "finishedAt");
        Ok(Mailing {
            id: get_s(item, "id")?,
            subject: get_s(item, "subject")?,
            lists: get_string_list(item, "lists"),
            sections: sections
                .iter()
                .map(|v| Section {
                    title: text(v, "title"),
                    description: text(v, "description"),
                    link: text(v, "link"),
                    image: text(v, "image"),
                })
                .collect(),
            base_url: get_s_or_default(item, "baseUrl"),
            recipients: get_n(item, "recipients")?,
            sent: get_n(item, "sent").or_else(|_| get_n(item, "recipients"))?,
            failed: get_n(item, "failed").unwrap_or(0),
            skipped: get_n(item, "skipped").unwrap_or(0),
            bounced: get_n(item, "bounced").unwrap_or(0),
            complained: get_n(item, "complained").unwrap_or(0),
            planned: get_n(item, "planned").unwrap_or(0),
            outstanding: get_n(item, "outstanding").unwrap_or(0),
            plan_done: get_bool(item, "planDone"),
            status: Status::parse(&get_s_or_default(item, "status")),
            finished_at: (!finished.is_empty()).then_some(finished),
            created_at,
            version: version_of(item)?,
        })
    }
}

impl Mailing {
    pub fn letter(&self) -> Letter {
        Letter {
            lists: self.lists.clone(),
            subject: self.subject.clone(),
            sections: self.sections.clone(),
        }
    }
}

/// The filter "on any of these lists" for a query of the subscriber index.
fn on_lists(lists: &[String]) -> (String, HashMap<String, AttributeValue>) {
    let mut values = HashMap::new();
    let mut terms = Vec::new();
    for (i, list) in lists.iter().enumerate() {
        values.insert(format!(":l{i}"), s(list));
        terms.push(format!("contains(lists, :l{i})"));
    }
    (terms.join(" OR "), values)
}

/// How many subscribers are on any of `lists`, each counted once: from the list counts kept with every
/// sign-up and removal, so the mailer answers at once however long the lists are.
pub async fn count_recipients(state: &AppState, lists: &[String]) -> Result<u64, ApiError> {
    crate::subscriber::count_on_any(state, lists).await
}

/// Records a new mailing, `queued`, and queues its first planning step.
pub async fn queue(
    state: &AppState,
    letter: Letter,
    base_url: String,
) -> Result<Mailing, ApiError> {
    let recipients = count_recipients(state, &letter.lists).await?;
    let mailing = Mailing {
        id: shared::store::new_id(),
        subject: letter.subject,
        lists: letter.lists,
        sections: letter.sections,
        base_url,
        recipients,
        sent: 0,
        failed: 0,
        skipped: 0,
        bounced: 0,
        complained: 0,
        planned: 0,
        outstanding: 0,
        plan_done: false,
        status: Status::Queued,
        created_at: shared::time::now_iso(),
        finished_at: None,
        version: 1,
    };
    state.store.insert(&mailing).await?;
    let first = Job::Plan {
        mailing: mailing.id.clone(),
        cursor: None,
    };
    if let Err(error) = state.outbox.queue().send(&[first]).await {
        // Nothing was queued: say so on the mailing rather than leave it `queued` for ever.
        let _ = state
            .db
            .update_item()
            .table_name(&*state.table)
            .set_key(Some(crate::store::mailing_key(&mailing.id)))
            .update_expression("SET #status = :failed, finishedAt = :now")
            .expression_attribute_names("#status", "status")
            .expression_attribute_values(":failed", s(Status::Failed.as_str()))
            .expression_attribute_values(":now", s(shared::time::now_iso()))
            .send()
            .await;
        return Err(error);
    }
    Ok(mailing)
}

pub async fn load(state: &AppState, id: &str) -> Result<Option<Mailing>, ApiError> {
    state.store.get::<Mailing>(id).await
}

/// The marker of one planning step, in the mail table: which readers it queued and where the next step
/// starts, so a step run twice (a redelivered job) queues the same readers and counts them once.
fn step_key(mailing: &str, cursor: Option<&str>) -> Item {
    shared::outbox::plan_step_key(mailing, &step_id(cursor))
}

/// A planning step's sort key: the first 16 bytes of its cursor's SHA-256 (`start` for the first step).
pub fn step_id(cursor: Option<&str>) -> String {
    let at = cursor.unwrap_or("start");
    let digest = ring::digest::digest(&ring::digest::SHA256, at.as_bytes());
    digest.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cursor_text(key: &Item) -> Option<String> {
    let map: serde_json::Map<String, serde_json::Value> = key
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), serde_json::Value::from(v.as_s().ok()?.clone()))))
        .collect();
    (!map.is_empty()).then(|| serde_json::Value::Object(map).to_string())
}

fn cursor_key(text: &str) -> Result<Item, ApiError> {
    let map: HashMap<String, String> =
        serde_json::from_str(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(map.into_iter().map(|(k, v)| (k, s(v))).collect())
}

/// One planning step of mailing `id`: the next page of its readers through the subscriber index (no Scan,
/// one page in memory), counted on the mailing and queued as one job each, then the next step queued.
pub async fn plan(state: &AppState, id: &str, cursor: Option<&str>) -> Result<(), ApiError> {
    let Some(mailing) = load(state, id).await? else {
        tracing::warn!(mailing = %id, "a planning step for a mailing that does not exist");
        return Ok(());
    };
    let marker = step_key(id, cursor);
    let (readers, next) = match read_step(state, &marker).await? {
        Some(done) => done,
        None => {
            let (filter, mut values) = on_lists(&mailing.lists);
            values.insert(":list".to_owned(), s("SUBSCRIBER-LIST"));
            let page = state
                .db
                .query()
                .table_name(&*state.table)
                .index_name(INDEX)
                .key_condition_expression("gsi1pk = :list")
                .filter_expression(&filter)
                .set_expression_attribute_values(Some(values))
                .projection_expression("id")
                .limit(PAGE_SIZE)
                .set_exclusive_start_key(cursor.map(cursor_key).transpose()?)
                .send()
                .await?;
            let readers: Vec<String> = page
                .items()
                .iter()
                .filter_map(|item| get_s(item, "id").ok())
                .collect();
            let next = page.last_evaluated_key().and_then(cursor_text);
            record_step(
                state,
                &mailing,
                &marker,
                cursor.is_none(),
                &readers,
                next.as_deref(),
            )
            .await?;
            (readers, next)
        }
    };
    let mut jobs: Vec<Job> = readers
        .into_iter()
        .map(|subscriber| Job::Bulk {
            mailing: id.to_owned(),
            subscriber,
        })
        .collect();
    match next {
        Some(cursor) => jobs.push(Job::Plan {
            mailing: id.to_owned(),
            cursor: Some(cursor),
        }),
        // The last step may leave nothing outstanding (an empty list): finish here, then.
        None => {
            state.outbox.queue().send(&jobs).await?;
            return finish_if_done(state, id).await;
        }
    }
    state.outbox.queue().send(&jobs).await
}

async fn read_step(
    state: &AppState,
    marker: &Item,
) -> Result<Option<(Vec<String>, Option<String>)>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(state.outbox.table())
        .set_key(Some(marker.clone()))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found.item().map(|item| {
        let next = get_s_or_default(item, "next");
        (
            get_string_list(item, "readers"),
            (!next.is_empty()).then_some(next),
        )
    }))
}

/// The step's marker, then the mailing's counters. The marker's put is conditional, so only the first run
/// of a step counts its readers; a later run finds the marker and queues the same readers.
async fn record_step(
    state: &AppState,
    mailing: &Mailing,
    marker: &Item,
    first: bool,
    readers: &[String],
    next: Option<&str>,
) -> Result<(), ApiError> {
    let mut item = marker.clone();
    item.insert("readers".to_owned(), string_list(readers));
    if let Some(next) = next {
        item.insert("next".to_owned(), s(next));
    }
    item.insert(
        "expiresAt".to_owned(),
        n(shared::time::now_unix() + shared::outbox::KEEP_SECONDS),
    );
    let put = state
        .db
        .put_item()
        .table_name(state.outbox.table())
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match put {
        Ok(_) => {}
        Err(error) if shared::dynamo::is_condition_failed(&error) => return Ok(()),
        Err(error) => return Err(error.into()),
    }
    let mut set = vec!["planDone = :done"];
    let mut values = HashMap::from([
        (":k".to_owned(), n(readers.len())),
        (":done".to_owned(), b(next.is_none())),
    ]);
    let mut names = None;
    if first {
        set.push("#status = :sending");
        values.insert(":sending".to_owned(), s(Status::Sending.as_str()));
        names = Some(HashMap::from([("#status".to_owned(), "status".to_owned())]));
    }
    state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(&mailing.id)))
        .update_expression(format!(
            "ADD planned :k, outstanding :k SET {}",
            set.join(", ")
        ))
        .set_expression_attribute_values(Some(values))
        .set_expression_attribute_names(names)
        .send()
        .await?;
    Ok(())
}

/// A reader as the sender needs them: where to send and which lists they are on now.
#[derive(Debug, Clone)]
pub struct Reader {
    pub id: String,
    pub email: String,
    pub lists: Vec<String>,
}

/// The readers with these subscriber ids who are still subscribed, in one batched read (a queue batch's
/// worth, up to 100 ids).
pub async fn readers(
    state: &AppState,
    ids: &[String],
) -> Result<HashMap<String, Reader>, ApiError> {
    let mut found = HashMap::new();
    let keys: Vec<Item> = ids
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|id| crate::store::subscriber_key(id))
        .collect();
    for item in shared::dynamo::batch_get(&state.db, &state.table, keys).await? {
        let subscriber = Subscriber::from_item(&item)?;
        found.insert(
            subscriber.id.clone(),
            Reader {
                id: subscriber.id,
                email: subscriber.email,
                lists: subscriber.lists,
            },
        );
    }
    Ok(found)
}

/// What to do for one reader of a mailing.
pub enum Delivery {
    /// They left the lists (or the shop) since the mailing was queued.
    Skip,
    Send {
        to: String,
        mail: Mail,
        headers: Vec<(String, String)>,
    },
}

/// The e-mail `reader` gets from `mailing`: their own unsubscribe link in the body and in the RFC 8058
/// headers (the https link for one-click, and a mailto for clients that only know that).
pub fn delivery(state: &AppState, mailing: &Mailing, reader: Option<&Reader>) -> Delivery {
    let Some(reader) = reader else {
        return Delivery::Skip;
    };
    if !reader.lists.iter().any(|l| mailing.lists.contains(l)) {
        return Delivery::Skip;
    }
    let token = state.unsubscribe.token(&reader.id);
    let link = format!(
        "{}/api/subscription/unsubscribe/?token={token}",
        mailing.base_url.trim_end_matches('/')
    );
    let (html, text) = mailing.letter().render(&state.shop_name, &link);
    Delivery::Send {
        to: reader.email.clone(),
        headers: crate::links::headers(state, &link, &token),
        mail: Mail {
            to: reader.email.clone(),
            subject: mailing.subject.clone(),
            html,
            text,
            reply_to: None,
        },
    }
}

/// How one reader's delivery ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    Failed,
    Skipped,
}

/// How many readers of one mailing a batch settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub sent: u64,
    pub failed: u64,
    pub skipped: u64,
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Sent => self.sent += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::Skipped => self.skipped += 1,
        }
    }

    pub fn total(&self) -> u64 {
        self.sent + self.failed + self.skipped
    }
}

/// Counts the readers a batch settled on their mailing, in one update. Only the sender whose conditional
/// settle won counts a reader, so nobody is counted twice. Not in one transaction with the settles: a
/// transaction over the two large tables costs far more than the mails (and the emulator copies whole
/// tables for each). A sender that stops between its settles and this update leaves the counts short.
pub async fn count(state: &AppState, mailing: &str, tally: Tally) -> Result<(), ApiError> {
    if tally.total() == 0 {
        return Ok(());
    }
    let result = state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(mailing)))
        .update_expression("ADD sent :sent, failed :failed, skipped :skipped, outstanding :minus")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":sent", n(tally.sent))
        .expression_attribute_values(":failed", n(tally.failed))
        .expression_attribute_values(":skipped", n(tally.skipped))
        .expression_attribute_values(":minus", n(-(tally.total() as i64)))
        .send()
        .await;
    match result {
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(()),
        other => other.map(drop).map_err(Into::into),
    }
}

/// Marks the mailing finished once every reader is planned and settled: `sent` if any mail went out,
/// `failed` if every one failed. Conditional, so it happens once whoever notices first.
pub async fn finish_if_done(state: &AppState, id: &str) -> Result<(), ApiError> {
    let result = state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(id)))
        .update_expression("SET #status = :sending, finishedAt = :now")
        .condition_expression(
            "attribute_exists(pk) AND planDone = :yes AND outstanding <= :zero AND #status <> :sent AND #status <> :failed",
        )
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":sending", s(Status::Sending.as_str()))
        .expression_attribute_values(":now", s(shared::time::now_iso()))
        .expression_attribute_values(":yes", b(true))
        .expression_attribute_values(":zero", n(0))
        .expression_attribute_values(":sent", s(Status::Sent.as_str()))
        .expression_attribute_values(":failed", s(Status::Failed.as_str()))
        .return_values(ReturnValue::AllNew)
        .send()
        .await;
    let finished = match result {
        Ok(answer) => answer.attributes().cloned().unwrap_or_default(),
        Err(error) if shared::dynamo::is_condition_failed(&error) => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    let sent: u64 = get_n(&finished, "sent").unwrap_or(0);
    let failed: u64 = get_n(&finished, "failed").unwrap_or(0);
    let status = if sent == 0 && failed > 0 {
        Status::Failed
    } else {
        Status::Sent
    };
    state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(id)))
        .update_expression("SET #status = :status")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":status", s(status.as_str()))
        .send()
        .await?;
    Ok(())
}

/// Counts a bounce or complaint on the mailing it came from (an unknown id is ignored).
pub async fn count_feedback(state: &AppState, id: &str, counter: &str) -> Result<(), ApiError> {
    let result = state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(id)))
        .update_expression(format!("ADD {counter} :one"))
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":one", n(1))
        .send()
        .await;
    match result {
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(()),
        other => other.map(drop).map_err(Into::into),
    }
}

/// GET /api/subscription/mailings/?pageNumber=n: the mailings, newest first, in the paged envelope.
pub async fn list_mailings(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<Mailing>>> {
    let page = query.page()?;
    let mut all = state.store.list::<Mailing>().await?;
    all.reverse();
    Ok(Json(Page::of(all, page, PER_PAGE)))
}

/// GET /api/subscription/mailings/{id}: one mailing and its progress.
pub async fn get_mailing(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Mailing>> {
    if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(not_found::<Mailing>());
    }
    match load(&state, &id).await? {
        Some(mailing) => Ok(Json(mailing)),
        None => Err(not_found::<Mailing>()),
    }
}

/// The item a new mailing is written as (for tests that need one in place).
pub fn stored(mailing: &Mailing) -> Item {
    stored_item(mailing, 1)
}
