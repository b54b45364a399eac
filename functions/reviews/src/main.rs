//! The reviews Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let config = reviews::Config::from_env(&shared::config::ProcessEnv)?;
    let aws = shared::aws::sdk_config().await;
    let state = reviews::AppState::new(config, shared::aws::dynamodb(&aws));
    shared::lambda::run(reviews::router(state)).await
}
