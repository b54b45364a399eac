//! Queueing a mailing: its readers counted from the list counts, the mailing recorded `queued` and its first
//! planning step queued (or the mailing marked failed when nothing could be queued).

use super::record::{Mailing, Status};
use crate::letter::Letter;
use crate::AppState;
use shared::dynamo::s;
use shared::outbox::Job;
use shared::ApiError;

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
