//! What unpaid orders may hold of a drink at once, so a few made-up e-mails from many networks cannot take
//! a drink off sale with orders they never pay.
//!
//! Every order takes its stock when it is reserved (checkout/reserve.rs). A card that pays at once leaves
//! its order pending for a moment only, so it is never counted here and never refused by this rule: a
//! shopper may buy 20 of 30 cans with a normal card. An order is counted once its bank's 3-D Secure step
//! has started (Stripe's confirmation answered `requires_action`): from then on it can hold the units for
//! the whole short hold of that step. At that moment ONE transaction adds each line's units to its drink's
//! counter (`UNPAID#drink#{productId}`, `held`: a number, no personal data) and marks the order
//! `unpaidCounted` (on the condition that it is still pending and not counted yet). The counter's condition
//! keeps what is held within
//!
//! `cap(shelf) = min(shelf, max(ceil(shelf / 2), FLOOR))`, where `shelf` = the drink's stock now + `held`
//! once this order's units are added (the units unpaid orders hold are off the stock already, so `shelf` is
//! what the drink would have with no unpaid order);
//!
//! that is, at most half of the drink's units, but always at least `FLOOR` (so a drink with few left can
//! still be bought by a 3-D Secure card). The condition is written on `held` alone, with a bound worked out
//! from the stock read just before the transaction (`Limit`): the counter and the catalogue are different
//! tables, so a stock change between that read and the write (another checkout, an admin's edit) makes the
//! bound an approximation by those units. That is accepted: the rule is about many orders held for
//! minutes, not about one unit more or less.
//!
//! Refused, the PaymentIntent is cancelled, the order released (stock back) and the shopper told 409 with
//! `Retry-After`. The units go back to the counter in the same transaction that moves a counted order on
//! (paid, cancelled, expired, refused by the bank: `payment::mark_paid` and `payment::release`); an order
//! pending from before this rule carries no mark and gives nothing back. The admin sees what is held, and by
//! which orders, at `GET /api/order/stock-holds/`; the counters are listed through the sparse index (`gsi3`,
//! `UNPAID-HELD`), the counted orders through the pending one (`gsi3`, `PENDING`), never a scan.

use crate::index::query_all;
use crate::order::{order_key, Order, Status, PENDING, UNPAID_COUNTED};
use crate::AppState;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use axum::extract::State;
use shared::auth::Admin;
use shared::dynamo::{b, get_n, get_s, n, s, Item};
use shared::{ApiError, ApiResult, Json};
use std::collections::BTreeMap;

/// What unpaid orders may always hold of a drink, however few are left (as long as it has them).
pub const FLOOR: i64 = 6;

/// The `gsi3` partition of the drinks' counters.
pub const HELD_INDEX: &str = "UNPAID-HELD";

/// How long a refused shopper is asked to wait: about the short hold of a 3-D Secure step.
pub const RETRY_AFTER_SECONDS: i64 = 300;

/// The most unpaid orders may hold of a drink with `shelf` units (stock plus what they hold).
pub fn cap(shelf: i64) -> i64 {
    let shelf = shelf.max(0);
    shelf.min(((shelf + 1) / 2).max(FLOOR))
}

/// The bound on the counter's `held` (before this order's units) that keeps `held + qty <=
/// cap(stock + held + qty)`, for the `stock` read just before.
///
/// With `h = held + qty`: `h <= stock + h` always holds (stock is never below zero), and `h <= max(ceil((stock
/// + h) / 2), FLOOR)` holds exactly when `h <= FLOOR` or `stock + h >= 2h - 1`, that is `h <= max(FLOOR, stock
/// + 1)`. So `held <= max(FLOOR, stock + 1) - qty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit(i64);

impl Limit {
    pub fn of(stock: i64, qty: i64) -> Self {
        Limit(FLOOR.max(stock.max(0) + 1) - qty)
    }

    /// The condition on the counter item (`:limit` is the bound). A negative bound refuses even a counter
    /// never written (a missing `held` is 0, and 0 is above it): no `attribute_not_exists` then.
    pub fn expression(self) -> &'static str {
        if self.0 >= 0 {
            "attribute_not_exists(held) OR held <= :limit"
        } else {
            "held <= :limit"
        }
    }

    /// What DynamoDB decides on `expression` for a counter holding `held` (`None`: no counter yet).
    #[cfg(test)]
    pub fn accepts(self, held: Option<i64>) -> bool {
        match held {
            None => self.0 >= 0,
            Some(held) => held <= self.0,
        }
    }
}

/// The counter of drink `product`'s units held by counted unpaid orders.
pub fn counter_key(product: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("UNPAID#drink#{product}"))),
        ("sk".to_owned(), s("DRINK")),
    ])
}

/// The order's units, per drink (a drink on two lines is one counter).
fn units_by_drink(order: &Order) -> BTreeMap<String, (String, i64)> {
    let mut units: BTreeMap<String, (String, i64)> = BTreeMap::new();
    for line in &order.lines {
        let entry = units
            .entry(line.product.clone())
            .or_insert_with(|| (line.name.clone(), 0));
        entry.1 += i64::from(line.qty);
    }
    units
}

/// The transaction that counts `order`: first the order's mark, then one counter per drink. Answers the
/// items and, per counter step (from 1), the drink's name, for a refusal.
pub async fn count_items(
    state: &AppState,
    order: &Order,
) -> Result<(Vec<TransactWriteItem>, Vec<String>), ApiError> {
    let units = units_by_drink(order);
    let ids: Vec<String> = units.keys().cloned().collect();
    let drinks = catalog::store::products_by_id(&state.db, &state.tables.catalog, &ids).await?;
    let mark = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET #counted = :yes")
        .condition_expression("#status = :pending AND attribute_not_exists(#counted)")
        .expression_attribute_names("#counted", UNPAID_COUNTED)
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":yes", b(true))
        .expression_attribute_values(":pending", s(Status::Pending.as_str()))
        .build()
        .map_err(ApiError::internal)?;
    let mut items = vec![TransactWriteItem::builder().update(mark).build()];
    let mut names = Vec::new();
    for (product, (name, qty)) in units {
        // A drink deleted meanwhile has no stock: only the floor is left to hold.
        let stock = drinks.get(&product).map_or(0, |d| i64::from(d.stock));
        let limit = Limit::of(stock, qty);
        let update = Update::builder()
            .table_name(&state.tables.orders)
            .set_key(Some(counter_key(&product)))
            .update_expression("ADD held :qty SET gsi3pk = :index, gsi3sk = :product")
            .condition_expression(limit.expression())
            .expression_attribute_values(":qty", n(qty))
            .expression_attribute_values(":limit", n(limit.0))
            .expression_attribute_values(":index", s(HELD_INDEX))
            .expression_attribute_values(":product", s(&product))
            .build()
            .map_err(ApiError::internal)?;
        items.push(TransactWriteItem::builder().update(update).build());
        names.push(name);
    }
    Ok((items, names))
}

/// The writes that take a counted order's units off its drinks' counters (none for an order not counted),
/// for the transaction that moves it on.
pub fn give_back(
    state: &AppState,
    order: &Order,
    counted: bool,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    if !counted {
        return Ok(Vec::new());
    }
    units_by_drink(order)
        .into_iter()
        .map(|(product, (_, qty))| {
            let update = Update::builder()
                .table_name(&state.tables.orders)
                .set_key(Some(counter_key(&product)))
                .update_expression("ADD held :minus")
                .expression_attribute_values(":minus", n(-qty))
                .build()
                .map_err(ApiError::internal)?;
            Ok(TransactWriteItem::builder().update(update).build())
        })
        .collect()
}

/// 409 for a 3-D Secure order refused by the cap: nothing was charged, and the hold ends within minutes.
pub fn crowded(drink: &str) -> ApiError {
    ApiError::conflict(format!(
        "Many of {drink} are waiting in unpaid orders just now, so nothing was charged or held: try again in a few minutes"
    ))
    .retry_after(RETRY_AFTER_SECONDS)
}

/// One drink's units held by unpaid orders, as the admin sees them.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct StockHold {
    /// The drink's id.
    #[serde(rename = "_id")]
    id: String,
    /// The drink's name (its line's name when the drink is gone).
    name: String,
    /// Units counted orders hold now.
    held: i64,
    /// The most they may hold: `min(shelf, max(ceil(shelf / 2), 6))` with shelf = stock + held.
    cap: i64,
    /// Units on sale now (what is held is off it already).
    stock: i64,
    /// The counted orders still pending, hold ending first.
    orders: Vec<HeldBy>,
}

/// A pending order counted in a drink's holds.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct HeldBy {
    #[serde(rename = "_id")]
    id: String,
    /// `PD-10001`, or the start of the id for an order placed before numbers.
    number: String,
    email: String,
    /// The viewer address it was placed from, when known.
    client: Option<String>,
    /// Units of this drink it holds.
    units: i64,
    /// When its hold ends and the expiry job releases it (ISO 8601 UTC).
    #[serde(rename = "holdUntil")]
    hold_until: String,
}

/// The counted pending orders, read by key in batches from the ids the pending index gives.
async fn counted_orders(state: &AppState) -> Result<Vec<Order>, ApiError> {
    let ids: Vec<Item> = query_all(state, "gsi3", "gsi3pk", PENDING)
        .await?
        .iter()
        .filter_map(|listed| get_s(listed, "pk").ok())
        .filter_map(|pk| pk.strip_prefix("ORDER#").map(order_key))
        .collect();
    let mut found = Vec::new();
    for item in shared::dynamo::batch_get(&state.db, &state.tables.orders, ids).await? {
        let order = Order::from_item(&item)?;
        if order.status == Status::Pending && order.unpaid_counted {
            found.push(order);
        }
    }
    found.sort_by_key(|order| order.hold_until);
    Ok(found)
}

/// `GET /api/order/stock-holds/`: every drink with units held by unpaid orders (or counted orders still
/// pending), with its cap, its stock and the orders, most held first.
pub async fn list_stock_holds(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<StockHold>>> {
    let mut holds: BTreeMap<String, StockHold> = BTreeMap::new();
    let blank = |id: &str, name: &str| StockHold {
        id: id.to_owned(),
        name: name.to_owned(),
        held: 0,
        cap: 0,
        stock: 0,
        orders: Vec::new(),
    };
    for listed in query_all(&state, "gsi3", "gsi3pk", HELD_INDEX).await? {
        let Ok(product) = get_s(&listed, "gsi3sk") else {
            continue;
        };
        let counter = state
            .db
            .get_item()
            .table_name(&state.tables.orders)
            .set_key(Some(counter_key(&product)))
            .consistent_read(true)
            .send()
            .await?;
        let held = counter
            .item()
            .and_then(|item| get_n::<i64>(item, "held").ok())
            .unwrap_or(0);
        if held != 0 {
            holds
                .entry(product.clone())
                .or_insert_with(|| blank(&product, ""))
                .held = held;
        }
    }
    for order in counted_orders(&state).await? {
        for (product, (name, units)) in units_by_drink(&order) {
            let hold = holds
                .entry(product.clone())
                .or_insert_with(|| blank(&product, &name));
            if hold.name.is_empty() {
                hold.name = name;
            }
            hold.orders.push(HeldBy {
                id: order.id.clone(),
                number: order.reference(),
                email: order.email.clone(),
                client: order.client.clone(),
                units,
                hold_until: shared::time::iso(
                    time::OffsetDateTime::from_unix_timestamp(order.hold_until)
                        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH),
                ),
            });
        }
    }
    let ids: Vec<String> = holds.keys().cloned().collect();
    let drinks = catalog::store::products_by_id(&state.db, &state.tables.catalog, &ids).await?;
    let mut listed: Vec<StockHold> = holds
        .into_values()
        .map(|mut hold| {
            if let Some(drink) = drinks.get(&hold.id) {
                hold.name = drink.name.clone();
                hold.stock = i64::from(drink.stock);
            }
            if hold.name.is_empty() {
                hold.name = "A deleted drink".to_owned();
            }
            hold.cap = cap(hold.stock + hold.held);
            hold
        })
        .collect();
    listed.sort_by(|a, b| b.held.cmp(&a.held).then_with(|| a.name.cmp(&b.name)));
    Ok(Json(listed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_half_the_shelf_but_never_below_the_floor_nor_above_the_shelf() {
        assert_eq!(cap(30), 15);
        assert_eq!(cap(31), 16, "half, rounded up");
        assert_eq!(cap(12), 6);
        assert_eq!(cap(10), 6, "the floor");
        assert_eq!(cap(4), 4, "never more than the shelf");
        assert_eq!(cap(0), 0);
        assert_eq!(cap(-3), 0);
        assert_eq!(cap(1000), 500);
    }

    #[test]
    fn the_counters_condition_accepts_exactly_what_the_cap_allows() {
        for stock in 0..=60 {
            for qty in 1..=40 {
                let limit = Limit::of(stock, qty);
                for held in 0..=60 {
                    let allowed = held + qty <= cap(stock + held + qty);
                    assert_eq!(
                        limit.accepts(Some(held)),
                        allowed,
                        "stock {stock}, held {held}, qty {qty}"
                    );
                    if held == 0 {
                        assert_eq!(
                            limit.accepts(None),
                            allowed,
                            "no counter yet: stock {stock}, qty {qty}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_negative_bound_refuses_a_counter_never_written() {
        let limit = Limit::of(0, 10);
        assert!(limit.0 < 0);
        assert!(!limit.expression().contains("attribute_not_exists"));
        assert!(Limit::of(10, 5)
            .expression()
            .contains("attribute_not_exists"));
    }

    #[test]
    fn the_issues_example_holds_three_orders_of_five_and_refuses_the_fourth() {
        // 30 on the shelf; each order's 5 are off the stock when it is counted.
        let mut held = 0;
        for stock in [25, 20, 15] {
            assert!(Limit::of(stock, 5).accepts(Some(held)));
            held += 5;
        }
        assert!(!Limit::of(10, 5).accepts(Some(held)));
        // A drink with 4 left: a 3-D Secure order of 4 is within the floor.
        assert!(Limit::of(0, 4).accepts(None));
    }
}
