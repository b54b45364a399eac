//! The reviews Lambda: its settings and clients once per cold start, `reviews::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(reviews::CLIENTS, reviews::build).await
}
