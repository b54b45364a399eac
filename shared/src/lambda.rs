//! The Lambda entry point every function's `main` ends in, and its log set-up.

use crate::config::Lookup;
use axum::Router;

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
