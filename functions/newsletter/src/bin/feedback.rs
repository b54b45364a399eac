//! The newsletter function's second Lambda: SES bounces and complaints from the feedback queue.

// The main future holds the cold start's and the runtime's futures, a few levels past rustc's default.
#![recursion_limit = "256"]

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use lambda_runtime::{service_fn, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let (state, _) =
        shared::lambda::cold_start(newsletter::CLIENTS, newsletter::AppState::build).await?;
    let state = &state;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<SqsEvent>| async move {
        Ok::<SqsBatchResponse, lambda_runtime::Error>(
            newsletter::feedback::handle(state, event.payload).await,
        )
    }))
    .await
}
