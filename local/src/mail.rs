//! Lambda's event sources, played locally: workers poll the mail queue and hand batches to the sender's
//! handler (as many workers as the template's sender concurrency, each pacing to its share of the rate),
//! one worker does the same for the feedback queue, and a timer runs the outbox sweep the schedule runs in
//! AWS. So `make run` sends a mailing progressively, as production does.

use crate::functions::LocalEnv;
// Built here once, used by the queue workers and by `make invoke`'s sender (functions.rs): they live there,
// below this module, so the two files do not import each other.
pub use crate::functions::{
    newsletter_state, sender_state, MailOptions as Options, VISIBILITY_SECONDS,
};
use std::sync::Arc;
use std::time::Duration;
use testkit::emulator::BoxError;
use tokio::task::JoinHandle;

/// How long an idle worker waits before polling again. The emulator serves one request at a time, so
/// workers never long-poll (that would hold every other request up).
const IDLE: Duration = Duration::from_millis(500);
/// How often the outbox sweep runs locally.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// The running workers; dropping this stops them.
pub struct Workers {
    tasks: Vec<JoinHandle<()>>,
    pub queue_url: String,
    pub concurrency: u32,
}

impl Drop for Workers {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Starts the mail queue's workers, the feedback queue's worker and the outbox sweep.
pub fn start(env: &LocalEnv, options: &Options) -> Result<Workers, BoxError> {
    let vars = env.vars("SenderFunction");
    let queue_url = vars
        .get("MAIL_QUEUE_URL")
        .cloned()
        .ok_or("SenderFunction has no MAIL_QUEUE_URL")?;
    let feedback_url = env.queue_urls.get("MailFeedbackQueue").cloned();
    let first = sender_state(env, options)?;
    let concurrency = first.settings.concurrency.max(1);
    let mut tasks = Vec::new();
    let mut states = vec![first];
    for _ in 1..concurrency {
        states.push(sender_state(env, options)?);
    }
    for state in states {
        let sqs = env.sqs.clone();
        let url = queue_url.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let polled = sender::event_source::poll_once(&sqs, &url, 10, 0, |event| {
                    sender::handle(&state, event)
                })
                .await;
                match polled {
                    Ok(0) => tokio::time::sleep(IDLE).await,
                    Ok(_) => {}
                    Err(error) => {
                        tracing::warn!(?error, "the mail queue did not answer");
                        tokio::time::sleep(IDLE).await;
                    }
                }
            }
        }));
    }
    if let Some(url) = feedback_url {
        let app = Arc::new(newsletter_state(env, "NewsletterFeedbackFunction")?);
        let sqs = env.sqs.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let polled = sender::event_source::poll_once(&sqs, &url, 10, 0, |event| {
                    newsletter::feedback::handle(&app, event)
                })
                .await;
                if !matches!(polled, Ok(n) if n > 0) {
                    tokio::time::sleep(IDLE * 2).await;
                }
            }
        }));
    }
    let sweeper = sender_state(env, options)?;
    tasks.push(tokio::spawn(async move {
        loop {
            tokio::time::sleep(SWEEP_EVERY).await;
            match sender::sweep(&sweeper).await {
                Ok(swept) => tracing::debug!(?swept, "the schedule's sweep ran"),
                Err(error) => tracing::warn!(?error, "the schedule's sweep failed"),
            }
        }
    }));
    Ok(Workers {
        tasks,
        queue_url,
        concurrency,
    })
}
