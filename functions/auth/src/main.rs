//! The auth Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets read from Secrets Manager, once per cold start.
    let env = shared::secrets::process_env(&aws).await?;
    let config = auth::Config::from_env(&env)?;
    let state = auth::AppState::new(config, shared::aws::dynamodb(&aws), shared::aws::ses(&aws));
    shared::lambda::run(auth::router(state), &env).await
}
