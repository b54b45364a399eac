//! Giving an order's stock and code use back, wherever they now belong. A drink or a code an open order
//! holds may have been deleted since: its units (or use) then go to the copy kept in the bin, so restoring
//! it restores them, or, when it was deleted for good, are dropped with the reason logged. Nothing here ever
//! stops the order's own move: the writes are built from a fresh read, and a move whose give-back raced a
//! delete is built again (`payment::release`'s attempts, `refunds::record`'s).

use crate::order::Order;
use crate::AppState;
use aws_sdk_dynamodb::types::TransactWriteItem;
use catalog::store::StockHome;
use discounts::store::CodeHome;
use shared::ApiError;

/// The writes that put `lines` (drink, units) back on sale.
pub async fn stock_back(
    state: &AppState,
    order: &Order,
    lines: &[(String, u32)],
) -> Result<Vec<TransactWriteItem>, ApiError> {
    let now = shared::time::now_unix();
    let mut items = Vec::new();
    for (product, qty) in lines.iter().filter(|(_, qty)| *qty > 0) {
        let table = &state.tables.catalog;
        match catalog::store::stock_home(&state.db, table, product, now).await? {
            StockHome::Live => items.push(catalog::store::return_stock(table, product, *qty)?),
            StockHome::Binned => {
                tracing::info!(order = %order.id, %product, qty, "stock given back to a drink in the bin");
                items.push(catalog::store::return_stock_to_bin(table, product, *qty)?);
            }
            StockHome::Gone => tracing::warn!(
                order = %order.id, %product, qty,
                "stock not given back: the drink was deleted for good"
            ),
        }
    }
    Ok(items)
}

/// Every line of the order, to give back whole.
pub fn all_lines(order: &Order) -> Vec<(String, u32)> {
    order
        .lines
        .iter()
        .map(|line| (line.product.clone(), line.qty))
        .collect()
}

/// The writes that give the order's code use back, and its once-per-customer marks, the mailbox's and the
/// card's (so the customer may use the code again).
pub async fn code_back(
    state: &AppState,
    order: &Order,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    let Some(code) = &order.code else {
        return Ok(Vec::new());
    };
    let table = &state.tables.codes;
    let mut items = Vec::new();
    match discounts::store::code_home(&state.db, table, code, shared::time::now_unix()).await? {
        CodeHome::Live => items.push(discounts::store::release_in_transaction(table, code)?),
        CodeHome::Binned => {
            tracing::info!(order = %order.id, %code, "a code use given back to a code in the bin");
            items.push(discounts::store::release_in_bin(table, code)?);
        }
        CodeHome::Gone => tracing::warn!(
            order = %order.id, %code,
            "code use not given back: the code was deleted for good"
        ),
    }
    if order.code_marked {
        // The marks go whether or not the code does.
        items.extend(discounts::store::unmark_use(table, code, &order.email)?);
    }
    if let Some(fingerprint) = &order.card_mark {
        items.push(discounts::store::unmark_card_use(table, code, fingerprint)?);
    }
    Ok(items)
}

/// The write that takes the order's code use again: a whole refund gave it back, then failed at the bank, so
/// the order stands again.
pub async fn code_retake(
    state: &AppState,
    order: &Order,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    let Some(code) = &order.code else {
        return Ok(Vec::new());
    };
    let table = &state.tables.codes;
    Ok(
        match discounts::store::code_home(&state.db, table, code, shared::time::now_unix()).await? {
            CodeHome::Live => vec![discounts::store::retake_in_transaction(table, code)?],
            CodeHome::Binned => vec![discounts::store::retake_in_bin(table, code)?],
            CodeHome::Gone => Vec::new(),
        },
    )
}
