//! The local gateway: `cargo run -p local` (or `make run`) serves the whole shop on one port.

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    shared::lambda::init_tracing();
    let settings = local::Settings::from_env()?;
    local::serve(settings).await
}
