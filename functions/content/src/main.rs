//! The content Lambda: its settings and clients once per cold start, `content::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(content::CLIENTS, content::build).await
}
