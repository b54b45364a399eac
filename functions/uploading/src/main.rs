//! The uploading Lambda: its settings and clients once per cold start, `uploading::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(uploading::CLIENTS, uploading::build).await
}
