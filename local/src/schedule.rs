//! The local stand-in for EventBridge's schedule: the gateway runs the orders expiry handler every minute, as
//! AWS runs OrdersExpiryFunction, so a pending order whose payment never completed gives its stock back
//! locally too. Tests call `expire_once` with the clock they want instead of waiting.

use crate::functions::{orders_expiry_state, LocalEnv};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use testkit::emulator::BoxError;

/// How often the local schedule fires (AWS's schedule is in template.yaml; a minute is plenty locally).
pub const EXPIRY_EVERY: Duration = Duration::from_secs(60);

/// One run of the expiry handler at `now_unix`, with OrdersExpiryFunction's settings.
pub async fn expire_once(
    env: &LocalEnv,
    now_unix: i64,
) -> Result<orders::expiry::ExpirySummary, BoxError> {
    let state = orders_expiry_state(env)?;
    orders::expiry::expire_pending(&state, now_unix)
        .await
        .map_err(|error| format!("the orders expiry failed: {error:?}").into())
}

/// Runs the expiry every `every` until the gateway stops; a failed run is logged and the next one tries again.
pub fn spawn_expiry(
    env: &LocalEnv,
    every: Duration,
) -> Result<tokio::task::JoinHandle<()>, BoxError> {
    let state = orders_expiry_state(env)?;
    Ok(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        // A late tick (a suspended laptop) runs once, not once per missed minute.
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_secs() as i64);
            match orders::expiry::expire_pending(&state, now).await {
                Ok(_) => tracing::debug!("orders expiry ran"),
                Err(error) => tracing::warn!(?error, "the orders expiry failed"),
            }
        }
    }))
}
