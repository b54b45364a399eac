//! The subscription Lambda: its settings and clients once per cold start, `subscription::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(subscription::CLIENTS, subscription::build).await
}
