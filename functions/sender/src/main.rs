//! The sender Lambda: reads its settings, builds its clients once, and handles the mail queue's batches
//! (answering the records to deliver again) and the schedule's outbox sweep.

use aws_lambda_events::event::sqs::SqsEvent;
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
        // The queue's batches carry `Records`; `make backfill-counts` sends `{"task": "backfill-counts"}`;
        // the schedule's event is anything else.
        if event.payload.get("Records").is_some() {
            let batch: SqsEvent = serde_json::from_value(event.payload)?;
            Ok::<Value, lambda_runtime::Error>(serde_json::to_value(
                sender::handle(state, batch).await,
            )?)
        } else if event.payload.get("task").and_then(Value::as_str) == Some("backfill-counts") {
            let counts = subscription::recount::recount_lists(&state.subscription)
                .await
                .map_err(|e| format!("{e:?}"))?;
            tracing::info!(?counts, "the list counts were recounted");
            Ok(serde_json::json!({ "listCounts": counts }))
        } else {
            let swept = sender::sweep(state).await.map_err(|e| format!("{e:?}"))?;
            Ok(serde_json::to_value(swept)?)
        }
    }))
    .await
}
