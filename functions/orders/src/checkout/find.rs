//! Reading one order by its id, consistently: the checkout's retries, the 3-D Secure confirmation, the
//! webhook, the expiry job and the admin all start from it.

use crate::order::{order_key, Order};
use crate::AppState;
use shared::ApiError;

pub(crate) async fn find_order(state: &AppState, id: &str) -> Result<Option<Order>, ApiError> {
    if id.chars().count() > 64 {
        return Ok(None);
    }
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(id)))
        .consistent_read(true)
        .send()
        .await?;
    found
        .item()
        .map(Order::from_item)
        .transpose()
        .map_err(Into::into)
}
