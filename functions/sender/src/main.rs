//! The sender Lambda: its settings and clients once per cold start (`sender::build`), then the mail queue's
//! batches (answering the records to deliver again), the schedule's sweep (outbox mail and unfinished
//! mailings) and `make backfill-counts`'s one-off recount of the list counts: `sender::handle_event` tells
//! them apart.

// The main future holds the cold start's and the runtime's futures, a few levels past rustc's default.
#![recursion_limit = "256"]

use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    let (state, _) =
        shared::lambda::cold_start(newsletter::CLIENTS, sender::SenderState::build).await?;
    let state = &state;
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| async move {
        sender::handle_event(state, event.payload).await
    }))
    .await
}
