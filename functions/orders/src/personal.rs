//! The orders table's answer to the data rights. An address's orders are found by the customer index, whose
//! key is the address whole (`gsi1pk = CUSTOMER#{email}`); its customer entry and its open-unpaid counter by
//! keys made from the address. Orders are accounting records, kept for the period the law asks: an erasure
//! takes the person out of them (name, e-mail, phone, address and its parts, message, viewer address) and
//! keeps their lines, totals and VAT.
//!
//! An order still on its way (pending, paid or shipped) is not blanked: the shop could no longer deliver it
//! or answer for it. It is marked as waiting (`erasureWaiting`, and an item under `ERASURE-WAITING` that the
//! expiry run reads), and the person is taken out of it once it is delivered, refunded, cancelled or
//! expired. The customer is told which orders wait, and may cancel a paid one first.

use crate::order::{order_key, Order, Status};
use shared::dynamo::{b, get_s, n, s, Item, INDEX};
use shared::personal::{self, Record, Section, Tally};
use shared::ApiError;

/// What an erased customer's orders say instead of their name and address.
pub const ERASED: &str = "Erased customer";
/// The partition of the markers of orders an erasure waits for.
const WAITING: &str = "ERASURE-WAITING";

fn customer_index_key(email: &str) -> String {
    format!("CUSTOMER#{email}")
}

/// The customer entry the admin's customer list reads (written when an order is paid).
pub fn customer_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(customer_index_key(email))),
        ("sk".to_owned(), s("CUSTOMER")),
    ])
}

/// The counter of an address's open unpaid orders.
pub fn open_unpaid_key(what: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("UNPAID#{what}"))),
        ("sk".to_owned(), s("UNPAID")),
    ])
}

fn waiting_key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(WAITING)),
        ("sk".to_owned(), s(format!("ORDER#{id}"))),
    ])
}

/// Whether an order has ended: nothing will be shipped, charged or refunded on it in the normal course.
fn has_ended(status: Status) -> bool {
    matches!(
        status,
        Status::Delivered | Status::Cancelled | Status::Expired | Status::Refunded
    )
}

/// An order an erasure waits for, as the customer and the admin are told.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct WaitingOrder {
    #[serde(rename = "_id")]
    pub id: String,
    pub number: Option<u64>,
    pub status: String,
}

impl WaitingOrder {
    fn of(order: &Order) -> Self {
        WaitingOrder {
            id: order.id.clone(),
            number: order.number,
            status: order.status.as_str().to_owned(),
        }
    }
}

/// What an erasure did in the orders table.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct OrdersErased {
    /// `kept`: orders kept without the person; `deleted`: the customer entry and the counter.
    pub tally: Tally,
    /// Orders still on their way, kept whole until they end.
    pub waiting: Vec<WaitingOrder>,
}

async fn orders_of(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Order>, ApiError> {
    personal::on_index(db, table, INDEX, "gsi1pk", &customer_index_key(email))
        .await?
        .iter()
        .filter(|item| personal::text(item, "sk") == "ORDER")
        .map(|item| Order::from_item(item).map_err(ApiError::internal))
        .collect()
}

/// The address's orders as the person reads them, and what else the table keeps about them.
pub async fn export(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<Record>, ApiError> {
    let mut records: Vec<Record> =
        personal::on_index(db, table, INDEX, "gsi1pk", &customer_index_key(email))
            .await?
            .iter()
            .filter(|item| personal::text(item, "sk") == "ORDER")
            .map(|item| Record::new(Section::Orders, shown(item)))
            .collect();
    if personal::get(db, table, customer_key(email))
        .await?
        .is_some()
    {
        records.push(Record::new(
            Section::ShopRecords,
            serde_json::json!({"record": "the shop's list of customers who have paid for an order", "email": email}),
        ));
    }
    if let Some(counter) =
        personal::get(db, table, open_unpaid_key(&format!("email#{email}"))).await?
    {
        records.push(Record::limit("orders waiting for their payment", &counter));
    }
    Ok(records)
}

/// An order as its buyer reads it: its storage plumbing left out, its lines as a list.
fn shown(item: &Item) -> serde_json::Value {
    let mut value = personal::readable(item);
    if let Some(fields) = value.as_object_mut() {
        for internal in [
            "fullnameLower",
            "countsWhenPaid",
            "holdUntil",
            "idempotencyKey",
            "refundClaim",
        ] {
            fields.remove(internal);
        }
        if let Some(lines) = fields
            .get("lines")
            .and_then(|l| l.as_str())
            .and_then(|l| serde_json::from_str(l).ok())
        {
            fields.insert("lines".to_owned(), lines);
        }
    }
    value
}

/// Takes the address out of its orders that have ended, marks those still on their way as waiting, and
/// deletes its customer entry and (when no order of it is open) its unpaid counter.
pub async fn erase(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<OrdersErased, ApiError> {
    let mut erased = OrdersErased::default();
    for order in orders_of(db, table, email).await? {
        if has_ended(order.status) {
            erased.tally.kept += u32::from(anonymise(db, table, &order.id, email).await?);
        } else {
            mark_waiting(db, table, &order.id).await?;
            erased.waiting.push(WaitingOrder::of(&order));
        }
    }
    erased.tally.deleted +=
        u32::from(personal::delete_exact(db, table, customer_key(email)).await?);
    erased.tally.deleted += u32::from(delete_closed_counter(db, table, email).await?);
    Ok(erased)
}

async fn mark_waiting(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
) -> Result<(), ApiError> {
    db.update_item()
        .table_name(table)
        .set_key(Some(order_key(id)))
        .update_expression("SET erasureWaiting = :yes")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":yes", b(true))
        .send()
        .await
        .map_err(ApiError::internal)?;
    let mut marker = waiting_key(id);
    marker.insert("since".to_owned(), n(shared::time::now_unix()));
    db.put_item()
        .table_name(table)
        .set_item(Some(marker))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

/// The counter goes only when it counts no open order (a pending order's release takes it down later and
/// would otherwise write it again).
async fn delete_closed_counter(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<bool, ApiError> {
    let deleted = db
        .delete_item()
        .table_name(table)
        .set_key(Some(open_unpaid_key(&format!("email#{email}"))))
        .condition_expression(
            "attribute_exists(pk) AND (attribute_not_exists(#open) OR #open <= :zero)",
        )
        .expression_attribute_names("#open", "open")
        .expression_attribute_values(":zero", n(0))
        .send()
        .await;
    match deleted {
        Ok(_) => Ok(true),
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(false),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// The order `id` without the person, while it still names `email` (a second run changes nothing).
async fn anonymise(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    id: &str,
    email: &str,
) -> Result<bool, ApiError> {
    let written = db
        .update_item()
        .table_name(table)
        .set_key(Some(order_key(id)))
        .update_expression(
            "SET fullname = :erased, fullnameLower = :lower, email = :blank, phone = :blank, \
             address = :erased, message = :blank, gsi1pk = :gone \
             REMOVE client, cardMark, addressLine1, addressLine2, town, postcode, erasureWaiting",
        )
        .condition_expression("gsi1pk = :customer")
        .expression_attribute_values(":erased", s(ERASED))
        .expression_attribute_values(":lower", s(ERASED.to_lowercase()))
        .expression_attribute_values(":blank", s(""))
        .expression_attribute_values(":gone", s("ERASED"))
        .expression_attribute_values(":customer", s(customer_index_key(email)))
        .send()
        .await;
    match written {
        Ok(_) => Ok(true),
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(false),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// The address's orders still on their way: those an erasure now would wait for.
pub async fn on_their_way(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    email: &str,
) -> Result<Vec<WaitingOrder>, ApiError> {
    Ok(orders_of(db, table, email)
        .await?
        .iter()
        .filter(|order| !has_ended(order.status))
        .map(WaitingOrder::of)
        .collect())
}

/// Which of `ids` an erasure still waits for (for the admin's list of erasures).
pub async fn still_waiting(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    ids: &[String],
) -> Result<Vec<WaitingOrder>, ApiError> {
    let mut waiting = Vec::new();
    for id in ids {
        if let Some(item) = personal::get(db, table, order_key(id)).await? {
            let order = Order::from_item(&item).map_err(ApiError::internal)?;
            if shared::dynamo::get_bool(&item, "erasureWaiting") {
                waiting.push(WaitingOrder::of(&order));
            }
        }
    }
    Ok(waiting)
}

/// Finishes the erasures that waited for orders which have ended since (the expiry run calls this): the
/// person is taken out of the order, and out of the rest of the table again. Answers how many finished.
pub async fn finish_waiting(db: &aws_sdk_dynamodb::Client, table: &str) -> Result<u32, ApiError> {
    let mut finished = 0;
    for marker in personal::partition(db, table, WAITING).await? {
        let id = get_s(&marker, "sk")
            .map_err(ApiError::internal)?
            .trim_start_matches("ORDER#")
            .to_owned();
        let order = match personal::get(db, table, order_key(&id)).await? {
            Some(item) => Some(Order::from_item(&item).map_err(ApiError::internal)?),
            None => None,
        };
        match order {
            Some(order) if !has_ended(order.status) => continue,
            Some(order) if !order.email.is_empty() => {
                erase(db, table, &order.email).await?;
            }
            _ => {}
        }
        personal::delete_exact(db, table, waiting_key(&id)).await?;
        finished += 1;
    }
    Ok(finished)
}
