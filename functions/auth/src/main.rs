//! The auth Lambda: its settings and clients once per cold start, `auth::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(auth::CLIENTS, auth::build).await
}
