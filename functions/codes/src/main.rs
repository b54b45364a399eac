//! The codes Lambda: its settings and clients once per cold start, `codes::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(codes::CLIENTS, codes::build).await
}
