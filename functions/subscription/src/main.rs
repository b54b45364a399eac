//! The subscription Lambda: reads its settings, builds its clients once, and serves API Gateway events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::init_tracing();
    let aws = shared::aws::sdk_config().await;
    // Settings with the secrets read from Secrets Manager, once per cold start; links need the shop's
    // address, which without a custom domain the stack keeps in Parameter Store.
    let env = shared::secrets::process_env(&aws).await?;
    let env = shared::site::resolve(env, &shared::aws::ssm(&aws)).await?;
    let config = subscription::Config::from_env(&env)?;
    let state = subscription::AppState::new(
        config,
        shared::aws::dynamodb(&aws),
        shared::aws::ses(&aws),
        shared::aws::sqs(&aws),
    );
    shared::lambda::run(subscription::router(state), &env).await
}
