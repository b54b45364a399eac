//! The Lambda entry point every function's `main` is: a cold start that reads the settings and builds the
//! clients side by side, the function crate's own builder, then the events.

use crate::clients::{Clients, Service};
use crate::config::Lookup;
use crate::startup::Settings;
use axum::Router;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What every function does once per cold start: logs set up, the settings (secrets, site address) read on
/// a worker while the clients for `services` are built here (shared::startup), then the crate's `build`
/// with both. Answers what it built and the settings (the API's edge check reads one of them).
pub async fn cold_start<T, E: Into<BoxError>>(
    services: &[Service],
    build: impl FnOnce(&Settings, &Clients) -> Result<T, E>,
) -> Result<(T, Settings), BoxError> {
    init_tracing();
    let aws = crate::aws::sdk_config().await;
    let settings = crate::startup::read_settings(&aws);
    let clients = Clients::new(&aws).ready(services);
    let env = settings.await?;
    let built = build(&env, &clients).map_err(Into::into)?;
    Ok((built, env))
}

/// The whole `main` of a function behind API Gateway: a cold start, then its router serves the events.
pub async fn serve<E: Into<BoxError>>(
    services: &[Service],
    build: impl FnOnce(&Settings, &Clients) -> Result<Router, E>,
) -> Result<(), lambda_http::Error> {
    let (router, env) = cold_start(services, build).await?;
    run(router, &env).await
}

/// Logs as plain lines (CloudWatch adds the time); `RUST_LOG` names the level (`error` to `trace`), `info`
/// by default. A level, not a filter: per-module filters cost a regex engine in every binary.
pub fn init_tracing() {
    let level = std::env::var("RUST_LOG")
        .ok()
        .and_then(|level| level.trim().parse::<tracing::Level>().ok())
        .unwrap_or(tracing::Level::INFO);
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .try_init();
}

/// Serves `router` to API Gateway events until the runtime stops the process. Only requests that came
/// through CloudFront are served: `ORIGIN_VERIFY` (a secret, `ORIGIN_VERIFY_SECRET_ID`) is the header value
/// CloudFront adds (shared::edge).
pub async fn run(router: Router, env: &impl Lookup) -> Result<(), lambda_http::Error> {
    let origin_secret = crate::config::required(env, "ORIGIN_VERIFY")?;
    let router = crate::routes::with_json_fallbacks(router);
    lambda_http::run(crate::edge::through_cloudfront(router, &origin_secret)).await
}
