//! A mailing's progress: the readers a batch settled counted in one update, the mailing finished once every
//! reader is planned and settled, and bounces and complaints counted on the mailing they came from.

use super::record::Status;
use crate::AppState;
use aws_sdk_dynamodb::types::ReturnValue;
use shared::dynamo::{b, get_n, n, s};
use shared::ApiError;

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
