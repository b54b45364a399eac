//! The admin's view of the alerts: how many addresses wait for each drink that has any.

use crate::product::Product;
use crate::store::alerts as alert_store;
use crate::AppState;
use serde::Serialize;
use shared::store::Entity;
use shared::ApiError;

/// How many addresses wait for a drink.
#[derive(Serialize, schemars::JsonSchema)]
pub struct WaitingCount {
    #[serde(rename = "_id")]
    product: String,
    waiting: usize,
}

/// Every drink with addresses waiting, in the admin's order, with how many.
pub async fn waiting_per_drink(state: &AppState) -> Result<Vec<WaitingCount>, ApiError> {
    let mut counts = Vec::new();
    for product in state.store.list::<Product>().await? {
        let waiting = alert_store::waiting(
            state.store.client(),
            state.store.table(),
            product.id(),
            None,
        )
        .await?
        .len();
        if waiting > 0 {
            counts.push(WaitingCount {
                product: product.id,
                waiting,
            });
        }
    }
    Ok(counts)
}
