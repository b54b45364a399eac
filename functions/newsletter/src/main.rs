//! The newsletter Lambda: its settings and clients once per cold start, `newsletter::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(newsletter::CLIENTS, newsletter::build).await
}
