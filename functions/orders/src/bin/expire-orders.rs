//! OrdersExpiryFunction: run by its schedule, releases the orders whose payment hold ran out (and settles
//! what Stripe left open); asked by `make reconcile`, answers a month's reconciliation.

use lambda_http::{lambda_runtime, service_fn, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets (Stripe's key, the order-link key) read and the site address for the
    // confirmation's links (a payment found late makes its order paid here), once per cold start.
    let settings = shared::startup::read_settings(&aws);
    let (dynamodb, sqs) = (shared::aws::dynamodb(&aws), shared::aws::sqs(&aws));
    let env = settings.await?;
    let config = orders::Config::for_expiry(&env)?;
    let state = orders::AppState::new(config, dynamodb, sqs);
    let state = &state;
    lambda_runtime::run(service_fn(
        move |event: LambdaEvent<serde_json::Value>| async move {
            let answer =
                orders::expiry::handle_event(state, &event.payload, shared::time::now_unix())
                    .await
                    .map_err(|e| e.message().to_owned())?;
            tracing::info!(%answer, "expiry function ran");
            Ok::<_, lambda_http::Error>(answer)
        },
    ))
    .await
}
