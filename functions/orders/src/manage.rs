//! Reading and running orders: the order page (whole for its owner and admins, without contact details
//! for anyone else; the holds and who refunded for admins only), a customer's own history and totals, the
//! admin's orders (listed in crate::listing), status changes (a cancel gives the stock and the code's use back; a paid order
//! is refunded in full first; a held order or one being refunded does not move on), deletion, and the
//! monthly results.

use crate::index::query_all;
use crate::money::{self, Audience, OrderMoney, ShownOrder};
use crate::order::{order_key, Carrier, Order, Status, StatusChange};
use crate::payment::{release, Moved};
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use serde::{Deserialize, Serialize};
use shared::auth::{Admin, Customer, Role};
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::extract::{Path, Query};
use shared::json::Message;
use shared::money::Pence;
use shared::paging::{Page, PageQuery};
use shared::{ApiError, ApiResult, Json};

pub const CUSTOMER_PAGE: usize = 10;

fn no_such_order() -> ApiError {
    ApiError::not_found("No order has this id")
}

/// Orders read from index items, each with its money.
pub(crate) fn with_money(items: &[Item]) -> Result<Vec<(Order, OrderMoney)>, ApiError> {
    items
        .iter()
        .map(|item| {
            let order = Order::from_item(item)?;
            let money = OrderMoney::from_item(item, &order);
            Ok((order, money))
        })
        .collect()
}

pub(crate) fn shown(
    orders: Vec<(Order, OrderMoney)>,
    audience: Audience,
) -> Result<Vec<ShownOrder>, ApiError> {
    orders
        .iter()
        .map(|(order, money)| ShownOrder::of(order, money, audience))
        .collect()
}

pub(crate) async fn orders_of(
    state: &AppState,
    email: &str,
) -> Result<Vec<(Order, OrderMoney)>, ApiError> {
    with_money(&query_all(state, "gsi1", "gsi1pk", &format!("CUSTOMER#{email}")).await?)
}

/// Whoever asks for an order page: a signed-in user when a token is sent, else nobody in particular.
pub struct Viewer(Option<shared::auth::SignedIn>);

/// The token is optional, but one that is sent must be valid (401 otherwise).
impl shared::openapi::DocumentArg for Viewer {
    fn document(doc: &mut shared::openapi::Doc) {
        doc.errors.insert(401);
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if !parts.headers.contains_key(http::header::AUTHORIZATION) {
            return Ok(Viewer(None));
        }
        Customer::from_request_parts(parts, state)
            .await
            .map(|Customer(user)| Viewer(Some(user)))
    }
}

/// The order page. The id is unguessable, but it travels (a browser's history, a shared screen, a
/// forwarded answer), so the bare id shows only where the order stands (`OrderProgress`: status, history,
/// tracking). The name, the address and the drinks need the key an order e-mail or the checkout's answer
/// carries (`?key=`), which gives the public view (never the e-mail, phone, card, message, code or
/// refund); the owner's or an admin's token gives the whole order.
pub async fn show_order(
    viewer: Viewer,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(link): Query<OrderLinkQuery>,
) -> ApiResult<Json<OrderAnswer>> {
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    let keyed =
        match &link.key {
            Some(key) if state.links.opens(&order.id, key, shared::time::now_unix()) => true,
            Some(_) => return Err(ApiError::forbidden(
                "This order link has expired or is not for this order: log in to see your orders",
            )),
            None => false,
        };
    let admin = viewer
        .0
        .as_ref()
        .is_some_and(|user| user.role == Role::Admin);
    let whole = admin || viewer.0.is_some_and(|user| user.email == order.email);
    if !whole && !keyed {
        return Ok(Json(OrderAnswer::Progress(OrderProgress::of(&order))));
    }
    let audience = match admin {
        true => Audience::Admin,
        false => Audience::Customer,
    };
    let mut shown = ShownOrder::of(&order, &money, audience)?.0;
    if !whole {
        if let Some(fields) = shown.as_object_mut() {
            for private in PRIVATE {
                fields.remove(private);
            }
        }
    }
    Ok(Json(OrderAnswer::Whole(OrderPage(shown))))
}

/// What `GET /api/order/Orderdetails/{id}` answers: the order (`OrderPage`) to its owner, an admin or a
/// holder of its key; where it stands (`OrderProgress`) to anyone else.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum OrderAnswer {
    Whole(OrderPage),
    Progress(OrderProgress),
}

/// The only view the bare id gives: `view` is always `progress`.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProgressView {
    Progress,
}

/// Where an order stands, and nothing about who placed it or what is in it.
#[derive(Serialize, schemars::JsonSchema)]
pub struct OrderProgress {
    #[serde(rename = "_id")]
    id: String,
    /// `progress`: the details need the e-mailed link's key or the owner's token.
    view: ProgressView,
    /// `PD-10001`; `null` on orders placed before numbers.
    number: Option<String>,
    status: Status,
    /// Every status the order has had, oldest first.
    history: Vec<StatusChange>,
    carrier: Option<Carrier>,
    #[serde(rename = "trackingNumber")]
    tracking_number: Option<String>,
    #[serde(rename = "trackingUrl")]
    tracking_url: Option<String>,
    #[serde(rename = "createdAt")]
    created_at: String,
}

impl OrderProgress {
    fn of(order: &Order) -> Self {
        OrderProgress {
            id: order.id.clone(),
            view: ProgressView::Progress,
            number: order.number.map(crate::order::format_number),
            status: order.status,
            history: order.history.clone(),
            carrier: order.carrier,
            tracking_number: order.tracking_number.clone(),
            tracking_url: order.tracking_url(),
            created_at: order.created_at.clone(),
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct OrderLinkQuery {
    /// The key of an e-mailed order link (`{expires}.{signature}`): it must be this order's and unexpired.
    #[schemars(regex(pattern = r"^[0-9]{1,12}\.[0-9a-f]{64}$"))]
    key: Option<String>,
}

/// What the order page leaves out for anyone but the owner and admins: the contact details and card, the
/// discount code (a code shared by link would otherwise be readable off any order id) and Stripe's refund.
const PRIVATE: [&str; 6] = ["email", "phone", "card", "message", "code", "refundId"];

/// An order as its page shows it: an `Order`, without `PRIVATE` unless the owner or an admin asks.
#[derive(Serialize)]
#[serde(transparent)]
pub struct OrderPage(serde_json::Value);

impl schemars::JsonSchema for OrderPage {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OrderPage".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = money::order_schema(generator);
        if let Some(required) = schema
            .get_mut("required")
            .and_then(serde_json::Value::as_array_mut)
        {
            required.retain(|name| !name.as_str().is_some_and(|name| PRIVATE.contains(&name)));
        }
        schema.insert(
            "description".into(),
            "An order as its page shows it: email, phone, card and message only for its owner and admins; holds and who refunded only for admins."
                .into(),
        );
        schema
    }
}

pub async fn list_my_orders(
    Customer(me): Customer,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<ShownOrder>>> {
    let page = query.page()?;
    Ok(Json(Page::of(
        shown(orders_of(&state, &me.email).await?, Audience::Customer)?,
        page,
        CUSTOMER_PAGE,
    )))
}

/// A customer's paid orders (not refunded in full) and what they came to, less what was refunded.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Totals {
    #[serde(rename = "totalOrders")]
    total_orders: usize,
    #[serde(rename = "totalPayments")]
    total_payments: Pence,
}

/// The customer's orders and what they paid: only orders paid and not refunded in full count, each less
/// what was refunded of it.
pub async fn show_my_total(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Totals>> {
    let orders: Vec<(Order, OrderMoney)> = orders_of(&state, &me.email)
        .await?
        .into_iter()
        .filter(|(o, _)| o.status.is_paid())
        .collect();
    Ok(Json(Totals {
        total_orders: orders.len(),
        total_payments: orders.iter().fold(Pence::ZERO, |sum, (o, m)| {
            sum.plus(o.total.minus(m.refunded))
        }),
    }))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct StatusInput {
    /// The status asked for: an unpaid order can only be cancelled; a paid one shipped, delivered, or
    /// cancelled (refunded) before delivery.
    status: Status,
    /// With `shipped`: who carries it (kept only with `shipped`).
    carrier: Option<Carrier>,
    /// With `shipped`: the parcel's tracking number, letters, digits, spaces and hyphens.
    #[serde(rename = "trackingNumber")]
    #[schemars(regex(pattern = TRACKING_PATTERN), length(max = 40))]
    tracking_number: Option<String>,
}

/// A tracking number as carriers print them (blank for none).
pub const TRACKING_PATTERN: &str = r"^\s*[A-Za-z0-9 -]*\s*$";

impl StatusInput {
    /// The carrier and tracking number a move to shipped records.
    fn shipping(&self) -> Result<(Option<Carrier>, Option<String>), ApiError> {
        let tracking = match self.tracking_number.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(number)
                if number.chars().count() <= 40
                    && number
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-') =>
            {
                Some(number.to_owned())
            }
            Some(_) => {
                return Err(ApiError::invalid(
                    "trackingNumber must be up to 40 letters, digits, spaces or hyphens",
                ))
            }
        };
        Ok((self.carrier, tracking))
    }
}

pub async fn update_order(
    Admin(admin): Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<StatusInput>,
) -> ApiResult<Json<ShownOrder>> {
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    let asked = input.status;
    // A repeated cancel of a paid order finds it refunded: the same answer, no second refund.
    if order.status == asked || (asked == Status::Cancelled && order.status == Status::Refunded) {
        return Ok(Json(ShownOrder::of(&order, &money, Audience::Admin)?));
    }
    if !order.status.can_become(asked) {
        return Err(ApiError::invalid(format!(
            "An order that is {} cannot become {}",
            order.status.as_str(),
            asked.as_str()
        )));
    }
    let shipping = input.shipping()?;
    if matches!(asked, Status::Shipped | Status::Delivered) {
        if money.on_hold() {
            return Err(ApiError::conflict(
                "This order is on hold (a dispute or a fraud warning): it must not be shipped until the hold closes",
            ));
        }
        if money.claim.is_some() {
            return Err(ApiError::conflict(
                "A refund of this order is under way: reload in a moment",
            ));
        }
    }
    match (order.status, asked) {
        (Status::Pending, Status::Cancelled) => cancel_unpaid(&state, &order).await?,
        (_, Status::Cancelled) => {
            // Cancelling a paid order refunds what is left of it; its drinks go back on sale.
            crate::refunds::refundable(&order, &money)?;
            let whole = crate::refunds::Ask::whole(&order, &money, "Cancelled by the shop", true);
            crate::refunds::refund_order(&state, &order, &whole, &admin.email).await?;
        }
        (_, Status::Shipped) => move_forward(&state, &order, asked, shipping).await?,
        _ => move_forward(&state, &order, asked, (None, None)).await?,
    }
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    Ok(Json(ShownOrder::of(&order, &money, Audience::Admin)?))
}

/// `POST /api/order/cancel/{_id}`: the customer cancels their own order before it ships (the right to cancel,
/// and the way to let a data erasure finish without waiting for it): an unpaid one is released, a paid one
/// refunded in full and its drinks put back on sale.
pub async fn cancel_my_order(
    Customer(me): Customer,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ShownOrder>> {
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    if order.email != me.email {
        return Err(no_such_order());
    }
    match order.status {
        Status::Pending => cancel_unpaid(&state, &order).await?,
        Status::Paid => {
            if money.on_hold() || money.claim.is_some() {
                return Err(ApiError::conflict(
                    "This order cannot be cancelled here just now: contact us and we will sort it out",
                ));
            }
            crate::refunds::refundable(&order, &money)?;
            let whole =
                crate::refunds::Ask::whole(&order, &money, "Cancelled by the customer before it shipped", true);
            crate::refunds::refund_order(&state, &order, &whole, &me.email).await?;
        }
        Status::Cancelled | Status::Refunded | Status::Expired => {}
        Status::Shipped | Status::Delivered => {
            return Err(ApiError::conflict(format!(
                "This order is {} already: to cancel it, send it back within 14 days of delivery (see the returns policy)",
                order.status.as_str()
            )))
        }
    }
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    Ok(Json(ShownOrder::of(&order, &money, Audience::Customer)?))
}

fn changed_meanwhile() -> ApiError {
    ApiError::conflict("This order was changed meanwhile: reload and try again")
}

/// paid → shipped → delivered, on the version the admin read, with the customer's e-mail about it written
/// in the same transaction: a move made twice (or by two admins at once) happens, and mails, once.
async fn move_forward(
    state: &AppState,
    order: &Order,
    to: Status,
    (carrier, tracking): (Option<Carrier>, Option<String>),
) -> Result<(), ApiError> {
    let now = shared::time::now_iso();
    let mut moved = order.clone();
    moved.status = to;
    let mut expression = String::from(
        "SET #status = :status, updatedAt = :at, version = :next, \
         history = list_append(if_not_exists(history, :none), :change)",
    );
    let mut update = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        // A refund under way or a hold opened since the read also refuse it (see update_order).
        .condition_expression("version = :read AND attribute_not_exists(refundClaim)")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":status", s(to.as_str()))
        .expression_attribute_values(":at", s(&now))
        .expression_attribute_values(":next", n(order.version + 1))
        .expression_attribute_values(":read", n(order.version))
        .expression_attribute_values(":none", AttributeValue::L(Vec::new()))
        .expression_attribute_values(":change", StatusChange::entry(to, &now));
    if let Some(carrier) = carrier {
        expression.push_str(", carrier = :carrier");
        update = update.expression_attribute_values(":carrier", s(carrier.as_str()));
        moved.carrier = Some(carrier);
    }
    if let Some(tracking) = tracking {
        expression.push_str(", trackingNumber = :tracking");
        update = update.expression_attribute_values(":tracking", s(&tracking));
        moved.tracking_number = Some(tracking);
    }
    let update = update
        .update_expression(expression)
        .build()
        .map_err(ApiError::internal)?;
    let (mails, pending) = crate::mail::status_mails(state, &moved).await?;
    let mut items = vec![TransactWriteItem::builder().update(update).build()];
    items.extend(mails);
    match crate::payment::run(state, items).await {
        Err(failed) if failed.step == Some(0) || failed.conflict => Err(changed_meanwhile()),
        Err(failed) => Err(failed.error),
        Ok(()) => {
            for mail in pending {
                state.outbox.enqueue(mail).await;
            }
            Ok(())
        }
    }
}

/// An unpaid order: its PaymentIntent is cancelled at Stripe first (so the bank can no longer take the
/// money), then the reservation is given back. A payment that completed meanwhile wins: nothing is cancelled.
async fn cancel_unpaid(state: &AppState, order: &Order) -> Result<(), ApiError> {
    if !order.payment_intent.is_empty() {
        let intent = state.stripe.intent(&order.payment_intent).await?;
        if intent.status == crate::stripe::IntentStatus::Succeeded {
            crate::payment::mark_paid(state, order, None).await?;
            return Err(ApiError::conflict(
                "This order has just been paid: reload, then cancel it to refund it",
            ));
        }
        if intent.status != crate::stripe::IntentStatus::Canceled {
            state.stripe.cancel_intent(&order.payment_intent).await?;
        }
    }
    match release(state, order, Status::Cancelled, None).await? {
        Moved::Now => Ok(()),
        _ => Err(changed_meanwhile()),
    }
}

/// Only finished orders that were never paid (cancelled before payment, or expired) can be deleted: an
/// unfinished one still holds stock or money, and the shop keeps every paid order for its accounts (six
/// years), so those are archived instead.
pub async fn delete_order(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    if order.was_paid() {
        return Err(ApiError::conflict(
            "A paid order is kept for the accounts and cannot be deleted: archive it instead",
        ));
    }
    if !order.status.is_finished() {
        return Err(ApiError::conflict(
            "Cancel the order first: it still holds stock",
        ));
    }
    if money.claim.is_some() || money.on_hold() {
        return Err(ApiError::conflict(
            "This order is on hold or being refunded: it stays until that is settled",
        ));
    }
    // A late payment records its refund on the order (and moves its version): then it is kept too.
    let deleted = state
        .db
        .delete_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .condition_expression("version = :read AND attribute_not_exists(refundId)")
        .expression_attribute_values(":read", n(order.version))
        .send()
        .await;
    match deleted {
        Err(error) if shared::dynamo::is_condition_failed(&error) => Err(ApiError::conflict(
            "This order was changed meanwhile: reload",
        )),
        Err(error) => Err(error.into()),
        Ok(_) => Ok(Message::new("The order was deleted")),
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ArchiveInput {
    /// `true` takes a finished order off the admin's default list; `false` brings it back.
    archived: bool,
}

/// Archives a finished order, or brings one back. An archived order stays whole: searches, the CSV export,
/// the results and the customer's own history still have it; only the admin's default list leaves it out.
pub async fn archive_order(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<ArchiveInput>,
) -> ApiResult<Json<ShownOrder>> {
    let (order, _) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    let update = state
        .db
        .update_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .expression_attribute_names("#status", "status");
    let update = if input.archived {
        if !order.status.is_finished() {
            return Err(ApiError::conflict(format!(
                "Only a finished order (delivered, cancelled, expired or refunded) can be archived: this one is {}",
                order.status.as_str()
            )));
        }
        // Archived twice keeps the first time; a finished status never moves, but it is checked anyway.
        update
            .update_expression("SET archivedAt = if_not_exists(archivedAt, :at)")
            .condition_expression("attribute_exists(pk) AND #status = :status")
            .expression_attribute_values(":at", s(shared::time::now_iso()))
            .expression_attribute_values(":status", s(order.status.as_str()))
    } else {
        update
            .update_expression("REMOVE archivedAt")
            .condition_expression("attribute_exists(pk) AND attribute_exists(#status)")
    };
    match update.send().await {
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(changed_meanwhile())
        }
        Err(error) => return Err(error.into()),
        Ok(_) => {}
    }
    let (order, money) = money::find(&state, &id).await?.ok_or_else(no_such_order)?;
    Ok(Json(ShownOrder::of(&order, &money, Audience::Admin)?))
}

/// A calendar month.
#[derive(Serialize, schemars::JsonSchema)]
pub struct MonthId {
    year: u32,
    month: u32,
}

/// A month's sales, from the counters the order transactions keep: paid money only. An order counts in the
/// month it was paid, a refund in the month it was made.
#[derive(Serialize, schemars::JsonSchema)]
pub struct MonthResult {
    #[serde(rename = "_id")]
    id: MonthId,
    /// Units of the orders paid, less the units of lines refunded.
    #[serde(rename = "totalProductsSold")]
    total_products_sold: i64,
    /// Orders paid in the month.
    #[serde(rename = "totalOrders")]
    total_orders: i64,
    /// What the month kept: paid less refunded (below zero when its refunds passed its payments).
    #[serde(rename = "totalPayments")]
    total_payments: SignedPounds,
    /// Paid in the month.
    #[serde(rename = "totalPaid")]
    total_paid: Pence,
    /// Refunded in the month (whatever month the orders were paid in).
    #[serde(rename = "totalRefunded")]
    total_refunded: Pence,
    /// Refunds made in the month.
    #[serde(rename = "totalRefunds")]
    total_refunds: i64,
    /// The VAT the month kept (a refund's VAT comes off; orders placed before VAT was recorded add none).
    #[serde(rename = "totalVat")]
    total_vat: SignedPounds,
}

/// Pounds that may be below zero: a month whose refunds passed its payments.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SignedPounds(pub i64);

impl Serialize for SignedPounds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0 as f64 / 100.0)
    }
}

impl schemars::JsonSchema for SignedPounds {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SignedPounds".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "description": "An amount in pounds sterling, at most two decimals; below zero when more went back than came in."
        })
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Results {
    /// Newest month first.
    results: Vec<MonthResult>,
    /// Every customer's e-mail, sorted.
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
        let pence = |name: &str| get_n::<i64>(item, name).unwrap_or(0);
        let pounds = |name: &str| Pence::new(pence(name).max(0)).unwrap_or_default();
        let kept = pence("totalPence");
        results.push(MonthResult {
            id: MonthId {
                year: year.parse().unwrap_or(0),
                month: number.parse().unwrap_or(0),
            },
            total_products_sold: get_n(item, "totalProductsSold")?,
            total_orders: get_n(item, "totalOrders")?,
            total_payments: SignedPounds(kept),
            // Months counted before the results kept paid and refunded apart: all they kept was paid.
            total_paid: match item.contains_key("paidPence") {
                true => pounds("paidPence"),
                false => Pence::new(kept.max(0)).unwrap_or_default(),
            },
            total_refunded: pounds("refundedPence"),
            total_refunds: get_n(item, "refunds").unwrap_or(0),
            total_vat: SignedPounds(pence("vatPence")),
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
