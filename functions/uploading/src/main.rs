//! The uploading Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // The settings (secrets, site address) are read on a worker while the clients are built here.
    let settings = shared::startup::read_settings(&aws);
    let (dynamodb, s3) = (shared::aws::dynamodb(&aws), shared::aws::s3(&aws));
    let env = settings.await?;
    let config = uploading::Config::from_env(&env)?;
    let state = uploading::AppState::new(config, dynamodb, s3);
    shared::lambda::run(uploading::router(state), &env).await
}
