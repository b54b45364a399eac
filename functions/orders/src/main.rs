//! The orders Lambda: its settings and clients once per cold start, `orders::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(orders::CLIENTS, orders::build).await
}
