//! Repairs what a sender that stopped mid-way leaves behind, from the records rather than the counters.
//!
//! A sender settles each reader's delivery and then, once per batch, adds the batch's outcomes to the
//! mailing. Dying between the two leaves the mailing short of readers and `sending` for ever; dying while a
//! delivery is claimed, or after a job was lost, leaves readers nobody will send to. The schedule that runs
//! the outbox sweep runs [`sweep`] too:
//! - a mailing that has been quiet for the settings' `quiet` seconds (longer than a sender can run, so no
//!   batch can still add to it) gets its counters set from its deliveries and plan steps, and is finished
//!   when every planned reader is settled;
//! - a delivery claimed or released longer ago than that is handed back (made `pending`) and its reader
//!   queued again; the claim makes sure the reader is still mailed once;
//! - readers planned but never claimed, and planning steps that never ran, are queued again only when the
//!   mail queue is empty, so a long mailing waiting its turn is not queued twice.
//!
//! The list counts have a recount of their own, [`recount_lists`], run once by `make backfill-counts`.

use crate::links::id_of;
use crate::mailing::{self, Status};
use crate::subscriber::{count_key, COUNTS};
use crate::AppState;
use shared::dynamo::{b, get_n, get_s_or_default, get_string_list, n, s, string_list, Item};
use shared::outbox::{deliveries_of, delivery_key, plan_steps_of, Job, State};
use shared::store::INDEX;
use shared::validation::Email;
use shared::ApiError;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What one sweep did, for the log.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Swept {
    /// Mailings whose counters were wrong and were set from the records.
    pub recounted: usize,
    /// Mailings finished by this sweep.
    pub finished: usize,
    /// Reader jobs and planning steps queued again.
    pub requeued: usize,
}

/// How a reader's deliveries ended, from the records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Sent,
    Failed,
    Skipped,
    /// Claimed or released, not settled: `at` is when it was last claimed.
    Unsettled {
        at: i64,
    },
}

/// A mailing's records: its readers from the plan steps, and how each one's delivery went.
#[derive(Debug, Default)]
struct Records {
    readers: Vec<String>,
    /// The cursors of planning steps that are named by an earlier step (or the first) but never ran.
    missing_steps: Vec<Option<String>>,
    plan_done: bool,
    outcomes: HashMap<String, Outcome>,
    /// The newest claim, settle or planning step, in unix seconds.
    last_activity: i64,
}

impl Records {
    fn count(&self, wanted: Outcome) -> u64 {
        self.readers
            .iter()
            .filter(|reader| self.outcomes.get(*reader) == Some(&wanted))
            .count() as u64
    }

    fn settled(&self) -> u64 {
        self.count(Outcome::Sent) + self.count(Outcome::Failed) + self.count(Outcome::Skipped)
    }
}

/// Recounts every unfinished mailing that has been quiet for `quiet` seconds and hands back its stranded
/// readers. Safe to run at any time and as often as wanted.
pub async fn sweep(state: &AppState, quiet: i64) -> Result<Swept, ApiError> {
    let mut swept = Swept::default();
    let now = shared::time::now_unix();
    let mut queue_empty = None;
    for mailing in unfinished(state).await? {
        let records = read_records(state, &mailing.id).await?;
        swept.requeued += hand_back_stale_claims(state, &mailing.id, &records, now - quiet).await?;
        if now - records.last_activity < quiet {
            continue;
        }
        if set_counters(state, &mailing, &records).await? {
            swept.recounted += 1;
            tracing::warn!(mailing = %mailing.id, "a mailing's counters were short: set from its deliveries");
        }
        mailing::finish_if_done(state, &mailing.id).await?;
        if mailing::load(state, &mailing.id)
            .await?
            .is_some_and(|m| matches!(m.status, Status::Sent | Status::Failed))
        {
            swept.finished += 1;
            continue;
        }
        // Anything else is either waiting in the queue or lost; only an empty queue tells them apart.
        let empty = match queue_empty {
            Some(empty) => empty,
            None => *queue_empty.insert(state.outbox.queue().backlog().await? == 0),
        };
        if empty {
            swept.requeued += requeue_unclaimed(state, &mailing.id, &records).await?;
        }
    }
    Ok(swept)
}

/// The mailings still `queued` or `sending`, through the mailings' index (a shop has a few hundred).
async fn unfinished(state: &AppState) -> Result<Vec<mailing::Mailing>, ApiError> {
    let all = state.store.list::<mailing::Mailing>().await?;
    Ok(all
        .into_iter()
        .filter(|m| matches!(m.status, Status::Queued | Status::Sending))
        .collect())
}

/// Every item under `pk` in the mail table, page by page.
async fn all_under(state: &AppState, pk: &str) -> Result<Vec<Item>, ApiError> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(state.outbox.table())
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(":pk", s(pk))
            .consistent_read(true)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        items.extend(page.items().iter().cloned());
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(items),
        }
    }
}

async fn read_records(state: &AppState, id: &str) -> Result<Records, ApiError> {
    let mut records = Records::default();
    let steps = all_under(state, &plan_steps_of(id)).await?;
    let ran: HashSet<String> = steps
        .iter()
        .map(|step| get_s_or_default(step, "sk"))
        .collect();
    let mut named: Vec<Option<String>> = vec![None];
    for step in &steps {
        records.readers.extend(get_string_list(step, "readers"));
        let planned_at =
            get_n::<i64>(step, "expiresAt").unwrap_or(0) - shared::outbox::KEEP_SECONDS;
        records.last_activity = records.last_activity.max(planned_at);
        let next = get_s_or_default(step, "next");
        if next.is_empty() {
            records.plan_done = true;
        } else {
            named.push(Some(next));
        }
    }
    records.missing_steps = named
        .into_iter()
        .filter(|cursor| !ran.contains(&mailing::step_id(cursor.as_deref())))
        .collect();
    records.plan_done &= records.missing_steps.is_empty();
    for delivery in all_under(state, &deliveries_of(id)).await? {
        let to = get_s_or_default(&delivery, "sk");
        // A skipped reader's delivery is recorded under their subscriber id, a mailed one under the address.
        let (reader, skipped) = match Email::parse(&to) {
            Ok(email) => (id_of(&email), false),
            Err(_) => (to, true),
        };
        let claimed = get_n::<i64>(&delivery, "claimedAt").unwrap_or(0);
        let settled = get_n::<i64>(&delivery, "settledAt").unwrap_or(0);
        records.last_activity = records.last_activity.max(claimed).max(settled);
        let outcome = match get_s_or_default(&delivery, "state").as_str() {
            "sent" if skipped => Outcome::Skipped,
            "sent" => Outcome::Sent,
            "failed" => Outcome::Failed,
            _ => Outcome::Unsettled { at: claimed },
        };
        // A reader whose address left between two deliveries has two records: a settled one wins.
        let known = records.outcomes.entry(reader).or_insert(outcome);
        if matches!(known, Outcome::Unsettled { .. }) {
            *known = outcome;
        }
    }
    Ok(records)
}

/// Sets the mailing's counters to what the records say, unless a sender changed them since they were read
/// (then the next sweep looks again). Answers whether they were wrong.
async fn set_counters(
    state: &AppState,
    mailing: &mailing::Mailing,
    records: &Records,
) -> Result<bool, ApiError> {
    let planned = records.readers.len() as u64;
    let truth = (
        records.count(Outcome::Sent),
        records.count(Outcome::Failed),
        records.count(Outcome::Skipped),
        planned,
        planned as i64 - records.settled() as i64,
        records.plan_done,
    );
    let stored = (
        mailing.sent,
        mailing.failed,
        mailing.skipped,
        mailing.planned,
        mailing.outstanding,
        mailing.plan_done,
    );
    if truth == stored {
        return Ok(false);
    }
    let result = state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(crate::store::mailing_key(&mailing.id)))
        .update_expression(
            "SET sent = :sent, failed = :failed, skipped = :skipped, planned = :planned, \
             outstanding = :outstanding, planDone = :done",
        )
        .condition_expression(
            "sent = :was_sent AND failed = :was_failed AND skipped = :was_skipped AND planned = :was_planned",
        )
        .expression_attribute_values(":sent", n(truth.0))
        .expression_attribute_values(":failed", n(truth.1))
        .expression_attribute_values(":skipped", n(truth.2))
        .expression_attribute_values(":planned", n(truth.3))
        .expression_attribute_values(":outstanding", n(truth.4))
        .expression_attribute_values(":done", b(truth.5))
        .expression_attribute_values(":was_sent", n(stored.0))
        .expression_attribute_values(":was_failed", n(stored.1))
        .expression_attribute_values(":was_skipped", n(stored.2))
        .expression_attribute_values(":was_planned", n(stored.3))
        .send()
        .await;
    shared::dynamo::applied(result)
}

/// Deliveries claimed (or released) before `stale` whose sender is gone: made `pending` again (only if
/// nobody claimed them since) and their readers queued.
async fn hand_back_stale_claims(
    state: &AppState,
    id: &str,
    records: &Records,
    stale: i64,
) -> Result<usize, ApiError> {
    let mut jobs = Vec::new();
    for (reader, outcome) in &records.outcomes {
        let Outcome::Unsettled { at } = outcome else {
            continue;
        };
        if *at >= stale {
            continue;
        }
        for key in reader_keys(state, id, reader).await? {
            let handed_back = state
                .db
                .update_item()
                .table_name(state.outbox.table())
                .set_key(Some(key))
                .update_expression("SET #state = :pending, claimedAt = :now REMOVE claim")
                .condition_expression(
                    "(#state = :sending OR #state = :pending) AND claimedAt = :at",
                )
                .expression_attribute_names("#state", "state")
                .expression_attribute_values(":pending", s(State::Pending.as_str()))
                .expression_attribute_values(":sending", s(State::Sending.as_str()))
                .expression_attribute_values(":now", n(shared::time::now_unix()))
                .expression_attribute_values(":at", n(*at))
                .send()
                .await;
            match handed_back {
                Ok(_) => {
                    jobs.push(Job::Bulk {
                        mailing: id.to_owned(),
                        subscriber: reader.clone(),
                    });
                    break;
                }
                Err(error) if shared::dynamo::is_condition_failed(&error) => {}
                Err(error) => return Err(error.into()),
            }
        }
    }
    state.outbox.queue().send(&jobs).await?;
    Ok(jobs.len())
}

/// The delivery keys a reader may have: under their address (while subscribed) and under their id.
async fn reader_keys(state: &AppState, mailing: &str, reader: &str) -> Result<Vec<Item>, ApiError> {
    let mut keys = vec![delivery_key(mailing, reader)];
    if let Some(found) = state
        .store
        .get::<crate::subscriber::Subscriber>(reader)
        .await?
    {
        keys.insert(0, delivery_key(mailing, found.email.as_str()));
    }
    Ok(keys)
}

/// With the queue empty: planned readers that never got a delivery record, and planning steps that never
/// ran, queued again.
async fn requeue_unclaimed(
    state: &AppState,
    id: &str,
    records: &Records,
) -> Result<usize, ApiError> {
    let mut jobs: Vec<Job> = records
        .readers
        .iter()
        .filter(|reader| !records.outcomes.contains_key(*reader))
        .map(|reader| Job::Bulk {
            mailing: id.to_owned(),
            subscriber: reader.clone(),
        })
        .collect();
    jobs.extend(records.missing_steps.iter().map(|cursor| Job::Plan {
        mailing: id.to_owned(),
        cursor: cursor.clone(),
    }));
    state.outbox.queue().send(&jobs).await?;
    if !jobs.is_empty() {
        tracing::warn!(mailing = %id, jobs = jobs.len(), "a mailing's lost jobs were queued again");
    }
    Ok(jobs.len())
}

/// Sets the list counts (`pk = LISTCOUNT`, one item per combination of lists) from the subscribers
/// themselves: for a shop whose subscribers were stored before the counts existed, or whose counts are in
/// doubt. Idempotent: a second run finds them right and changes nothing. Each count is set only if it did
/// not move while the subscribers were read; if a sign-up moved one, the whole recount runs again.
pub async fn recount_lists(state: &AppState) -> Result<BTreeMap<String, u64>, ApiError> {
    for _ in 0..5 {
        let before = combinations(state, CountSource::Stored).await?;
        let truth = combinations(state, CountSource::Subscribers).await?;
        let mut moved = false;
        let all: HashSet<&String> = before.keys().chain(truth.keys()).collect();
        for key in all {
            let (lists, was) = before.get(key).cloned().unwrap_or_default();
            let (found, now) = truth.get(key).cloned().unwrap_or((lists, 0));
            if was != now && !set_count(state, &found, was, now).await? {
                moved = true;
            }
        }
        if !moved {
            return Ok(truth
                .into_iter()
                .map(|(key, (_, count))| (key, count.max(0) as u64))
                .collect());
        }
    }
    Err(ApiError::conflict(
        "Sign-ups kept moving the list counts: run the recount again",
    ))
}

/// Where [`combinations`] reads from.
#[derive(Clone, Copy)]
enum CountSource {
    /// The list counts as stored.
    Stored,
    /// The subscribers themselves, through their index.
    Subscribers,
}

/// Each combination of lists (keyed as the counts key it) with its lists and how many subscribers it has.
async fn combinations(
    state: &AppState,
    source: CountSource,
) -> Result<HashMap<String, (Vec<String>, i64)>, ApiError> {
    let mut counts: HashMap<String, (Vec<String>, i64)> = HashMap::new();
    let mut start = None;
    loop {
        let query = state.db.query().table_name(&*state.table);
        let query = match source {
            CountSource::Stored => query
                .key_condition_expression("pk = :pk")
                .expression_attribute_values(":pk", s(COUNTS))
                .consistent_read(true),
            CountSource::Subscribers => query
                .index_name(INDEX)
                .key_condition_expression("gsi1pk = :pk")
                .expression_attribute_values(":pk", s("SUBSCRIBER-LIST"))
                .projection_expression("lists"),
        };
        let page = query.set_exclusive_start_key(start.take()).send().await?;
        for item in page.items() {
            let lists = get_string_list(item, "lists");
            if lists.is_empty() {
                continue;
            }
            let key = get_s_or_default(&count_key(&lists), "sk");
            let entry = counts.entry(key).or_insert_with(|| (lists, 0));
            entry.1 += match source {
                CountSource::Stored => get_n::<i64>(item, "subscribers").unwrap_or(0),
                CountSource::Subscribers => 1,
            };
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(counts),
        }
    }
}

/// Sets one combination's count from `was` to `now`, unless it moved meanwhile: answers whether it was set.
async fn set_count(
    state: &AppState,
    lists: &[String],
    was: i64,
    now: i64,
) -> Result<bool, ApiError> {
    let result = state
        .db
        .update_item()
        .table_name(&*state.table)
        .set_key(Some(count_key(lists)))
        .update_expression("SET subscribers = :now, lists = :lists")
        .condition_expression(if was == 0 {
            "attribute_not_exists(subscribers) OR subscribers = :was"
        } else {
            "subscribers = :was"
        })
        .expression_attribute_values(":now", n(now))
        .expression_attribute_values(":was", n(was))
        .expression_attribute_values(":lists", string_list(lists))
        .send()
        .await;
    shared::dynamo::applied(result)
}
