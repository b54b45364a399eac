//! The users table's login records, all in one partition per address (`LOGIN#{email}`): the codes (`CODE#`,
//! sorted by when they expire), and beside them the counters that limit them (`windows`: the request
//! windows and the day's wrong codes). Every read and write of them is here, so the handlers name what they
//! do and never spell a key or an expression.

mod windows;

pub use windows::{count_wrong, reserve_requests, wrong_today};

use super::limits::{CODE_TTL_SECONDS, MAX_LIVE_CODES, MAX_TRIES};
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, Put, ReturnValue, TransactWriteItem};
use shared::dynamo::{get_n, get_s, is_condition_failed, n, s, Item};
use shared::ApiError;

fn login_pk(email: &str) -> String {
    format!("LOGIN#{email}")
}

/// The partition of one address's login records (codes, windows, wrong codes): the address whole.
pub(crate) fn login_partition(email: &str) -> String {
    login_pk(email)
}

/// One code of `email`, sorted by when it expires (then its own random id): the live ones are a range of
/// the sort key, however many expired ones DynamoDB's TTL has yet to remove.
fn code_key(email: &str, expires: i64, id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(login_pk(email))),
        (
            "sk".to_owned(),
            s(format!("{CODE_PREFIX}{expires:012}#{id}")),
        ),
    ])
}

const CODE_PREFIX: &str = "CODE#";

/// Keeps a new code of `email` (its keyed hash `hash`, good for ten minutes) in one transaction with the
/// windows `rates` reserved for it. A code of its own beside any still live: nothing mailed before stops
/// working.
pub async fn save_code(
    state: &AppState,
    email: &str,
    hash: String,
    rates: Vec<TransactWriteItem>,
    now: i64,
) -> Result<(), ApiError> {
    let mut code_item = code_key(email, now + CODE_TTL_SECONDS, &shared::store::new_id());
    code_item.extend([
        ("codeHash".to_owned(), s(hash)),
        ("tries".to_owned(), AttributeValue::M(Item::new())),
        ("expiresAt".to_owned(), n(now + CODE_TTL_SECONDS)),
    ]);
    let code_put = Put::builder()
        .table_name(state.table())
        .set_item(Some(code_item))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db()
        .transact_write_items()
        .set_transact_items(Some(rates))
        .transact_items(TransactWriteItem::builder().put(code_put).build())
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;
    Ok(())
}

/// The sort keys of `email`'s unexpired codes (those whose tries are used up included: a guess against
/// them counts as wrong, a guess with nothing to guess does not).
pub async fn live_codes(state: &AppState, email: &str, now: i64) -> Result<Vec<String>, ApiError> {
    let found = state
        .db()
        .query()
        .table_name(state.table())
        .key_condition_expression("pk = :pk AND sk BETWEEN :from AND :to")
        .expression_attribute_values(":pk", s(login_pk(email)))
        // Past now, to the end of the codes ('~' sorts after every digit).
        .expression_attribute_values(":from", s(format!("{CODE_PREFIX}{:012}", now + 1)))
        .expression_attribute_values(":to", s(format!("{CODE_PREFIX}~")))
        .consistent_read(true)
        .limit(MAX_LIVE_CODES)
        .send()
        .await?;
    Ok(found
        .items()
        .iter()
        .filter(|item| get_n::<i64>(item, "expiresAt").is_ok_and(|expires| expires > now))
        .filter_map(|item| item.get("sk")?.as_s().ok().cloned())
        .collect())
}

/// Counts one try of the viewer address whose tries are kept under `tries_of` on code `sk`, in one
/// conditional write: the code's stored hash and the tries counted so far, or `None` when the code is gone,
/// expired, or this viewer address's tries on it are used up.
pub async fn count_try(
    state: &AppState,
    email: &str,
    sk: &str,
    tries_of: &str,
    now: i64,
) -> Result<Option<(String, u32)>, ApiError> {
    let counted = state
        .db()
        .update_item()
        .table_name(state.table())
        .key("pk", s(login_pk(email)))
        .key("sk", s(sk))
        .update_expression("SET tries.#client = if_not_exists(tries.#client, :zero) + :one")
        .condition_expression(
            "attribute_exists(codeHash) AND expiresAt > :now \
             AND (attribute_not_exists(tries.#client) OR tries.#client < :max)",
        )
        .expression_attribute_names("#client", tries_of)
        .expression_attribute_values(":zero", n(0))
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":max", n(MAX_TRIES))
        .expression_attribute_values(":now", n(now))
        .return_values(ReturnValue::AllNew)
        .send()
        .await;
    match counted {
        Ok(output) => {
            let item = output.attributes.unwrap_or_default();
            let tries = match item.get("tries") {
                Some(AttributeValue::M(tries)) => get_n::<u32>(tries, tries_of).unwrap_or(0),
                _ => 0,
            };
            Ok(Some((get_s(&item, "codeHash")?, tries)))
        }
        Err(error) if is_condition_failed(&error) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// Uses code `sk` up, while it still holds the hash `stored`: only one of two racing verifications can
/// delete it (`false` for the other). The address's other live codes stay good until they expire.
pub async fn use_code(
    state: &AppState,
    email: &str,
    sk: &str,
    stored: &str,
) -> Result<bool, ApiError> {
    let used = state
        .db()
        .delete_item()
        .table_name(state.table())
        .key("pk", s(login_pk(email)))
        .key("sk", s(sk))
        .condition_expression("codeHash = :hash")
        .expression_attribute_values(":hash", s(stored))
        .send()
        .await;
    match used {
        Err(error) if is_condition_failed(&error) => Ok(false),
        other => other.map(|_| true).map_err(Into::into),
    }
}
