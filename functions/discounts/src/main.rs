//! The discounts Lambda: its settings and clients once per cold start, `discounts::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(discounts::CLIENTS, discounts::build).await
}
