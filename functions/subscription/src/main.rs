//! The subscription Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let (state, env) = subscription::AppState::cold_start().await?;
    shared::lambda::run(subscription::router(state), &env).await
}
