//! The catalog Lambda: its settings and clients once per cold start, `catalog::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(catalog::CLIENTS, catalog::build).await
}
