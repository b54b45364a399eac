//! The catalog Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets read and the site address for links, once per cold start.
    let env = shared::site::process_env(&aws).await?;
    let config = catalog::Config::from_env(&env)?;
    let state = catalog::AppState::new(config, shared::aws::dynamodb(&aws), shared::aws::sqs(&aws));
    shared::lambda::run(catalog::router(state), &env).await
}
