//! The Lambda entry point every function's `main` ends in, and its log set-up.

use axum::Router;

/// Logs as plain lines (CloudWatch adds the time); `RUST_LOG` sets the level, `info` by default.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .try_init();
}

/// Serves `router` to API Gateway events until the runtime stops the process.
pub async fn run(router: Router) -> Result<(), lambda_http::Error> {
    lambda_http::run(crate::routes::with_json_fallbacks(router)).await
}
