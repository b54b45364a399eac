//! The reviews Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // The settings (secrets, site address) are read on a worker while the clients are built here.
    let settings = shared::startup::read_settings(&aws);
    let (dynamodb, sqs) = (shared::aws::dynamodb(&aws), shared::aws::sqs(&aws));
    let env = settings.await?;
    let config = reviews::Config::from_env(&env)?;
    let outbox = shared::outbox::Outbox::from_env(&env, dynamodb.clone(), sqs)?;
    let state = reviews::AppState::new(config, dynamodb, outbox);
    shared::lambda::run(reviews::router(state), &env).await
}
