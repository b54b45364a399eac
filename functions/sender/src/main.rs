//! The sender Lambda: reads its settings, builds its clients once, and handles the mail queue's batches
//! (answering the records to deliver again), the schedule's sweep (outbox mail and unfinished mailings) and
//! `make backfill-counts`'s one-off recount of the list counts: `sender::handle_event` tells them apart.

use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets read and the site address for links, once per cold start.
    let env = shared::site::process_env(&aws).await?;
    let config = subscription::Config::from_env(&env)?;
    let settings = sender::Settings::from_env(&env)?;
    let mailer = shared::mail::Mailer::new(shared::aws::ses(&aws), config.mail_from.clone());
    let app = subscription::AppState::new(
        config,
        shared::aws::dynamodb(&aws),
        shared::aws::ses(&aws),
        shared::aws::sqs(&aws),
    );
    let state = sender::SenderState::new(app, mailer, settings);
    let state = &state;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| async move {
        sender::handle_event(state, event.payload).await
    }))
    .await
}
