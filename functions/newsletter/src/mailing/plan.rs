//! Planning a mailing, one step per queue job: the next page of its readers through the subscriber index
//! (no Scan, one page in memory), recorded under a marker so a redelivered step queues the same readers and
//! counts them once, then one job per reader and the next step queued.

use super::counters::finish_if_done;
use super::record::{load, Mailing, Status};
use crate::AppState;
use aws_sdk_dynamodb::types::AttributeValue;
use shared::dynamo::{b, get_s, get_s_or_default, get_string_list, n, s, string_list, Item};
use shared::outbox::Job;
use shared::store::INDEX;
use shared::ApiError;
use std::collections::HashMap;

/// Subscribers read per planning step: one query page, then up to this many jobs queued.
pub const PAGE_SIZE: i32 = 200;

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
