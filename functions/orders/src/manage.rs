//! Reading and running orders: the public order page, a customer's own history and totals, the admin's
//! list and search, status changes (a cancel puts the stock, the code's use and the month's figures
//! back, in one transaction), deletion, and the monthly results.

use crate::checkout::sales_update;
use crate::order::{order_key, Order, Status};
use crate::AppState;
use aws_sdk_dynamodb::types::{Delete, TransactWriteItem, Update};
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use shared::auth::{Admin, Customer};
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::money::Pence;
use shared::paging::{Page, PageNumber, PageQuery};
use shared::{ApiError, ApiResult, Json};

pub const CUSTOMER_PAGE: usize = 10;
pub const ADMIN_PAGE: usize = 20;

async fn find(state: &AppState, id: &str) -> Result<Option<Order>, ApiError> {
    if id.len() > 64 {
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

fn no_such_order() -> ApiError {
    ApiError::not_found("No order has this id")
}

/// Every item of an index partition, newest first.
async fn query_all(
    state: &AppState,
    index: &str,
    partition: &str,
    value: &str,
) -> Result<Vec<Item>, ApiError> {
    let mut all = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(&state.tables.orders)
            .index_name(index)
            .key_condition_expression("#p = :v")
            .expression_attribute_names("#p", partition)
            .expression_attribute_values(":v", s(value))
            .scan_index_forward(false)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        all.extend(page.items().iter().cloned());
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(all),
        }
    }
}

async fn orders_of(state: &AppState, email: &str) -> Result<Vec<Order>, ApiError> {
    query_all(state, "gsi1", "gsi1pk", &format!("CUSTOMER#{email}"))
        .await?
        .iter()
        .map(|item| Order::from_item(item).map_err(Into::into))
        .collect()
}

/// The order page: public to whoever has the (unguessable) id.
pub async fn show_order(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Order>> {
    find(&state, &id).await?.map(Json).ok_or_else(no_such_order)
}

pub async fn list_my_orders(
    Customer(me): Customer,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<Order>>> {
    let page = query.page()?;
    Ok(Json(Page::of(
        orders_of(&state, &me.email).await?,
        page,
        CUSTOMER_PAGE,
    )))
}

#[derive(Serialize)]
pub struct Totals {
    #[serde(rename = "totalOrders")]
    total_orders: usize,
    #[serde(rename = "totalPayments")]
    total_payments: Pence,
}

/// The customer's orders and what they paid, cancelled orders left out.
pub async fn show_my_total(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Totals>> {
    let orders: Vec<Order> = orders_of(&state, &me.email)
        .await?
        .into_iter()
        .filter(|o| o.status != Status::Cancelled)
        .collect();
    Ok(Json(Totals {
        total_orders: orders.len(),
        total_payments: orders.iter().fold(Pence::ZERO, |sum, o| sum.plus(o.total)),
    }))
}

#[derive(Deserialize)]
pub struct SearchQuery {
    #[serde(rename = "pageNumber")]
    page_number: Option<String>,
    search: Option<String>,
}

/// Newest first; `search` finds an order id, a customer's e-mail, or words of the customer's name.
pub async fn list_orders(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Json<Page<Order>>> {
    let page = PageNumber::parse(query.page_number.as_deref())?;
    let search = query.search.unwrap_or_default().trim().to_lowercase();
    if search.chars().count() > 100 {
        return Err(ApiError::bad_request(
            "search must be at most 100 characters",
        ));
    }
    let orders: Vec<Order> = if search.is_empty() {
        all_orders(&state).await?
    } else if let Some(order) = find(&state, &search).await? {
        vec![order]
    } else if search.contains('@') {
        orders_of(&state, &search).await?
    } else {
        let words: Vec<&str> = search.split_whitespace().collect();
        all_orders(&state)
            .await?
            .into_iter()
            .filter(|o| {
                let name = o.fullname.to_lowercase();
                words.iter().all(|w| name.contains(w))
            })
            .collect()
    };
    Ok(Json(Page::of(orders, page, ADMIN_PAGE)))
}

async fn all_orders(state: &AppState) -> Result<Vec<Order>, ApiError> {
    query_all(state, "gsi2", "gsi2pk", "ORDERS")
        .await?
        .iter()
        .map(|item| Order::from_item(item).map_err(Into::into))
        .collect()
}

#[derive(Deserialize)]
pub struct StatusInput {
    status: Status,
}

pub async fn update_order(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<StatusInput>,
) -> ApiResult<Json<Order>> {
    let mut order = find(&state, &id).await?.ok_or_else(no_such_order)?;
    if order.status == input.status {
        return Ok(Json(order));
    }
    if !order.status.can_become(input.status) {
        return Err(ApiError::invalid(format!(
            "An order that is {} cannot become {}",
            order.status.as_str(),
            input.status.as_str()
        )));
    }
    let read_version = order.version;
    order.status = input.status;
    order.updated_at = shared::time::now_iso();
    order.version += 1;
    let status_write = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET #status = :status, updatedAt = :at, version = :next")
        .condition_expression("version = :read")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":status", s(order.status.as_str()))
        .expression_attribute_values(":at", s(&order.updated_at))
        .expression_attribute_values(":next", n(order.version))
        .expression_attribute_values(":read", n(read_version))
        .build()
        .map_err(ApiError::internal)?;
    let mut items = vec![TransactWriteItem::builder().update(status_write).build()];
    if order.status == Status::Cancelled {
        for line in &order.lines {
            items.push(catalog::return_stock(
                &state.tables.catalog,
                &line.product,
                line.qty,
            )?);
        }
        items.push(sales_update(&state.tables.orders, &order, -1)?);
        if let Some(code) = &order.code {
            items.push(codes::release_in_transaction(&state.tables.codes, code)?);
            if order.code_marked {
                let delete = Delete::builder()
                    .table_name(&state.tables.codes)
                    .set_key(Some(codes::use_marker(code, &order.email)))
                    .build()
                    .map_err(ApiError::internal)?;
                items.push(TransactWriteItem::builder().delete(delete).build());
            }
        }
    }
    let written = state
        .db
        .transact_write_items()
        .set_transact_items(Some(items))
        .send()
        .await;
    if let Err(error) = written {
        let cancelled = error
            .as_service_error()
            .is_some_and(|e| e.is_transaction_canceled_exception());
        return Err(if cancelled {
            ApiError::conflict("This order was changed meanwhile (or a drink or code on it was deleted): reload and try again")
        } else {
            ApiError::internal(error)
        });
    }
    Ok(Json(order))
}

/// Only finished orders (delivered or cancelled) can be deleted: anything else still holds stock.
pub async fn delete_order(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let order = find(&state, &id).await?.ok_or_else(no_such_order)?;
    if !matches!(order.status, Status::Delivered | Status::Cancelled) {
        return Err(ApiError::conflict(
            "Cancel the order first: it still holds stock",
        ));
    }
    let deleted = state
        .db
        .delete_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .condition_expression("version = :read")
        .expression_attribute_values(":read", n(order.version))
        .send()
        .await;
    match deleted {
        Err(error) if shared::dynamo::is_condition_failed(&error) => Err(ApiError::conflict(
            "This order was changed meanwhile: reload",
        )),
        Err(error) => Err(error.into()),
        Ok(_) => Ok(Json(
            serde_json::json!({ "message": "The order was deleted" }),
        )),
    }
}

#[derive(Serialize)]
pub struct MonthId {
    year: u32,
    month: u32,
}

#[derive(Serialize)]
pub struct MonthResult {
    #[serde(rename = "_id")]
    id: MonthId,
    #[serde(rename = "totalProductsSold")]
    total_products_sold: i64,
    #[serde(rename = "totalOrders")]
    total_orders: i64,
    #[serde(rename = "totalPayments")]
    total_payments: Pence,
}

#[derive(Serialize)]
pub struct Results {
    results: Vec<MonthResult>,
    emails: Vec<String>,
}

/// Monthly figures from the counters the order transactions keep (newest month first), and every
/// customer's e-mail.
pub async fn show_results(_: Admin, State(state): State<AppState>) -> ApiResult<Json<Results>> {
    let months = query_all(&state, "gsi1", "gsi1pk", "SALES").await?;
    let mut results = Vec::with_capacity(months.len());
    for item in &months {
        let month = get_s(item, "gsi1sk")?;
        let (year, number) = month.split_once('-').unwrap_or(("0", "0"));
        results.push(MonthResult {
            id: MonthId {
                year: year.parse().unwrap_or(0),
                month: number.parse().unwrap_or(0),
            },
            total_products_sold: get_n(item, "totalProductsSold")?,
            total_orders: get_n(item, "totalOrders")?,
            total_payments: Pence::new(get_n::<i64>(item, "totalPence")?.max(0))
                .unwrap_or_default(),
        });
    }
    let mut emails: Vec<String> = query_all(&state, "gsi2", "gsi2pk", "CUSTOMERS")
        .await?
        .iter()
        .filter_map(|item| get_s(item, "email").ok())
        .collect();
    emails.sort();
    Ok(Json(Results { results, emails }))
}
