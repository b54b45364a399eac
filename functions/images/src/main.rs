//! The images Lambda: its settings and clients once per cold start, `images::build`, then API Gateway's events.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(images::CLIENTS, images::build).await
}
