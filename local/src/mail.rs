//! Lambda's event sources, played locally: workers poll the mail queue and hand batches to the sender's
//! handler (as many workers as the template's sender concurrency, each pacing to its share of the rate),
//! one worker does the same for the feedback queue, and a timer runs the outbox sweep the schedule runs in
//! AWS. So `make run` sends a mailing progressively, as production does.

use crate::functions::LocalEnv;
use shared::config::Lookup;
use shared::emulator::BoxError;
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinHandle;

/// Locally a failed job comes back after this many seconds (the template's 6 minutes would look stuck).
pub const VISIBILITY_SECONDS: u32 = 5;
/// How long an idle worker waits before polling again. The emulator serves one request at a time, so
/// workers never long-poll (that would hold every other request up).
const IDLE: Duration = Duration::from_millis(500);
/// How often the outbox sweep runs locally.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// What only the local stack may change.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `LOCAL_SES_FAULT_PERCENT`: this share of SES calls fails transiently (the benchmark's switch).
    pub fault_percent: u8,
    /// `LOCAL_MAIL_RATE_PER_SECOND`: replaces the template's rate (the benchmark measures the code).
    pub rate_per_second: Option<String>,
}

impl Options {
    pub fn from_env() -> Self {
        Options {
            fault_percent: std::env::var("LOCAL_SES_FAULT_PERCENT")
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0),
            rate_per_second: std::env::var("LOCAL_MAIL_RATE_PER_SECOND")
                .ok()
                .filter(|v| !v.trim().is_empty()),
        }
    }
}

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

pub fn subscription_state(
    env: &LocalEnv,
    logical_id: &str,
) -> Result<subscription::AppState, BoxError> {
    let config = subscription::Config::from_env(&env.lookup(logical_id))?;
    Ok(subscription::AppState::new(
        config,
        env.dynamodb.clone(),
        env.ses.clone(),
        env.sqs.clone(),
    ))
}

/// One sender as the Lambda builds it (`SenderFunction`'s environment), with the local options applied.
pub fn sender_state(env: &LocalEnv, options: &Options) -> Result<sender::SenderState, BoxError> {
    let lookup = env.lookup("SenderFunction");
    let with_rate = |name: &str| match name {
        "MAIL_RATE_PER_SECOND" if options.rate_per_second.is_some() => {
            options.rate_per_second.clone()
        }
        // The local queue's visibility timeout, not the template's.
        "MAIL_QUEUE_VISIBILITY_SECONDS" => Some(VISIBILITY_SECONDS.to_string()),
        _ => lookup.get(name),
    };
    let settings = sender::Settings::from_env(&with_rate)?;
    let app = subscription_state(env, "SenderFunction")?;
    let mailer = shared::mail::Mailer::new(env.ses.clone(), app.mail_from.to_string());
    Ok(sender::SenderState::new(app, mailer, settings).with_injected_faults(options.fault_percent))
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
        let app = Arc::new(subscription_state(env, "SubscriptionFeedbackFunction")?);
        let sqs = env.sqs.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let polled = sender::event_source::poll_once(&sqs, &url, 10, 0, |event| {
                    subscription::feedback::handle(&app, event)
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
