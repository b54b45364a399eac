//! The subscription function's second Lambda: SES bounces and complaints from the feedback queue.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use lambda_runtime::{service_fn, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets read and the site address for links, once per cold start.
    let env = shared::site::process_env(&aws).await?;
    let config = subscription::Config::from_env(&env)?;
    let state = subscription::AppState::new(
        config,
        shared::aws::dynamodb(&aws),
        shared::aws::ses(&aws),
        shared::aws::sqs(&aws),
    );
    let state = &state;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<SqsEvent>| async move {
        Ok::<SqsBatchResponse, lambda_runtime::Error>(
            subscription::feedback::handle(state, event.payload).await,
        )
    }))
    .await
}
