//! OrdersExpiryFunction: run by its schedule, releases the orders whose payment hold ran out (and settles
//! what Stripe left open); asked by `make reconcile`, answers a month's reconciliation.

use lambda_http::{lambda_runtime, service_fn, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    // Settings with the secrets (Stripe's key, the order-link key) read and the site address for the
    // confirmation's links (a payment found late makes its order paid here), once per cold start.
    let (state, _) = shared::lambda::cold_start(orders::CLIENTS, orders::expiry::build).await?;
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
