//! The Lambda entry point every function's `main` ends in, and its log set-up.

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

/// Serves `router` to API Gateway events until the runtime stops the process.
pub async fn run(router: Router) -> Result<(), lambda_http::Error> {
    lambda_http::run(crate::routes::with_json_fallbacks(router)).await
}
