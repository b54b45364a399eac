//! What happened to an order's money after it was taken: its refunds (each a record of its own, with the
//! credit note it gets), the holds a dispute or a fraud warning puts on it, and an admin's refund under way.
//! They live on the order's own item, beside what `order.rs` maps, so one conditional write moves an order's
//! status and its money together; this module reads and writes them and shows them with the order.

use crate::order::{order_key, Order, Status, COUNTS_WHEN_PAID};
use crate::AppState;
use serde::{Deserialize, Serialize};
use shared::dynamo::{get_bool, get_n, get_s, Item};
use shared::money::Pence;
use shared::ApiError;

/// The prefix of a credit note's number (`CN-10001`), as `PD-` is an order's.
pub const CREDIT_NOTE_PREFIX: &str = "CN-";

/// Where a refund stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RefundState {
    /// Asked for and accepted; the bank has not confirmed it yet.
    Pending,
    Succeeded,
    /// The bank could not return it: the money stayed with the shop.
    Failed,
}

impl RefundState {
    /// Money back with the customer or on its way: what `refunded` adds up.
    pub fn counts(self) -> bool {
        self != RefundState::Failed
    }
}

/// Units of one line a refund is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RefundLine {
    /// The drink's id, as on the order's line.
    pub product: String,
    pub name: String,
    pub qty: u32,
}

/// The credit note a refund of a sale gets: its own number, and the VAT the refund takes back at the
/// order's rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreditNote {
    pub number: u64,
    #[serde(rename = "vatPence")]
    pub vat_pence: i64,
    #[serde(rename = "vatRate")]
    pub vat_rate: u32,
}

/// One refund, however it was made (by an admin here, in Stripe's Dashboard, or the shop's own refund of a
/// payment that came too late), as stored on the order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefundRecord {
    /// Stripe's refund id (`re_...`).
    pub id: String,
    #[serde(rename = "amountPence")]
    pub amount_pence: i64,
    pub reason: String,
    /// The admin's e-mail; `stripe` for a refund made at Stripe; `shop` for one the shop made itself.
    pub by: String,
    /// When it was recorded, ISO 8601 UTC.
    pub at: String,
    pub status: RefundState,
    #[serde(default)]
    pub lines: Vec<RefundLine>,
    #[serde(default)]
    pub delivery: bool,
    /// Whether its lines' stock went back on sale.
    #[serde(default)]
    pub restocked: bool,
    #[serde(rename = "creditNote", default)]
    pub credit_note: Option<CreditNote>,
    /// A payment that arrived after the order was released, returned: no sale was made.
    #[serde(default)]
    pub late: bool,
}

impl RefundRecord {
    pub fn amount(&self) -> Pence {
        Pence::new(self.amount_pence).unwrap_or_default()
    }
}

/// Why an order is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HoldKind {
    /// The cardholder disputed the payment with their bank.
    Dispute,
    /// The card's issuer reported the payment as likely fraud (Stripe Radar's early fraud warning).
    FraudWarning,
}

/// A hold on an order: while one is open the order is not shipped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hold {
    pub kind: HoldKind,
    /// Stripe's dispute (`dp_`) or warning (`issfr_`) id.
    pub id: String,
    /// Stripe's reason or fraud type (`fraudulent`, `made_with_stolen_card`, ...).
    pub reason: String,
    #[serde(rename = "amountPence")]
    pub amount_pence: i64,
    #[serde(rename = "openedAt")]
    pub opened_at: String,
    /// How it closed (`won`, `lost`, `warning_closed`, `refunded`, `released`); `None` while open.
    #[serde(default)]
    pub outcome: Option<String>,
    #[serde(rename = "closedAt", default)]
    pub closed_at: Option<String>,
}

impl Hold {
    pub fn is_open(&self) -> bool {
        self.outcome.is_none()
    }
}

/// An admin's refund asked of Stripe and not yet recorded: the key it is asked with (kept, so asking again
/// or looking it up finds the same refund), and what it is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefundClaim {
    pub key: String,
    #[serde(rename = "amountPence")]
    pub amount_pence: i64,
    pub lines: Vec<RefundLine>,
    pub delivery: bool,
    pub restock: bool,
    pub reason: String,
    pub by: String,
    pub at: String,
}

/// An order's money after the charge.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderMoney {
    /// What has gone back or is on its way (refunds pending or succeeded).
    pub refunded: Pence,
    pub refunds: Vec<RefundRecord>,
    pub holds: Vec<Hold>,
    pub claim: Option<RefundClaim>,
    /// Whether the month's results count the order when it is paid (every order the shop writes now);
    /// orders written before were counted when they were placed, and are taken back as they were counted.
    pub counts_when_paid: bool,
}

fn json_list<T: serde::de::DeserializeOwned>(item: &Item, key: &str) -> Vec<T> {
    get_s(item, key)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

impl OrderMoney {
    pub fn from_item(item: &Item, order: &Order) -> OrderMoney {
        let mut refunds: Vec<RefundRecord> = json_list(item, "refunds");
        // Orders refunded before refunds were records hold the one refund's id only: it was the whole order.
        if refunds.is_empty() {
            if let Some(id) = &order.refund_id {
                let late = matches!(order.status, Status::Expired | Status::Cancelled);
                refunds.push(RefundRecord {
                    id: id.clone(),
                    amount_pence: order.total.pence(),
                    reason: if late {
                        "The payment arrived after the order was released".to_owned()
                    } else {
                        "Cancelled".to_owned()
                    },
                    by: "shop".to_owned(),
                    at: order.updated_at.clone(),
                    status: RefundState::Succeeded,
                    lines: Vec::new(),
                    delivery: !late,
                    restocked: !late,
                    credit_note: None,
                    late,
                });
            }
        }
        let refunded = get_n::<i64>(item, "refundedPence").unwrap_or_else(|_| {
            refunds
                .iter()
                .filter(|r| r.status.counts())
                .map(|r| r.amount_pence)
                .sum()
        });
        OrderMoney {
            refunded: Pence::new(refunded).unwrap_or_default(),
            refunds,
            holds: json_list(item, "holds"),
            claim: get_s(item, "refundClaim")
                .ok()
                .and_then(|text| serde_json::from_str(&text).ok()),
            counts_when_paid: get_bool(item, COUNTS_WHEN_PAID),
        }
    }

    pub fn on_hold(&self) -> bool {
        self.holds.iter().any(Hold::is_open)
    }

    /// What can still be refunded.
    pub fn refundable(&self, order: &Order) -> Pence {
        order.total.minus(self.refunded)
    }

    /// Units of `product` already refunded (by refunds that stand).
    pub fn refunded_units(&self, product: &str) -> u32 {
        self.refunds
            .iter()
            .filter(|r| r.status.counts())
            .flat_map(|r| &r.lines)
            .filter(|l| l.product == product)
            .map(|l| l.qty)
            .sum()
    }

    /// Whether the delivery charge was refunded already.
    pub fn delivery_refunded(&self) -> bool {
        self.refunds.iter().any(|r| r.status.counts() && r.delivery)
    }

    pub fn refund(&self, id: &str) -> Option<&RefundRecord> {
        self.refunds.iter().find(|r| r.id == id)
    }
}

/// An order with its money, as every order is read where money moves.
pub async fn find(state: &AppState, id: &str) -> Result<Option<(Order, OrderMoney)>, ApiError> {
    if id.is_empty() || id.chars().count() > 64 {
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
    let Some(item) = found.item() else {
        return Ok(None);
    };
    let order = Order::from_item(item)?;
    let money = OrderMoney::from_item(item, &order);
    Ok(Some((order, money)))
}

// ---------------------------------------------------------------------------------------------------------
// As the API shows them.

/// A refund as the order shows it.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Refund")]
pub struct RefundJson {
    /// Stripe's refund id.
    #[serde(rename = "_id")]
    id: String,
    amount: Pence,
    reason: String,
    /// Who made it: an admin's e-mail, `stripe` (in Stripe's Dashboard) or `shop` (a late payment returned).
    /// Only admins see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    /// ISO 8601 UTC.
    #[serde(rename = "createdAt")]
    created_at: String,
    status: RefundState,
    /// The units it was for (empty for an amount, or a refund made at Stripe).
    lines: Vec<RefundLine>,
    /// Whether the delivery charge is part of it.
    delivery: bool,
    /// Whether its lines went back on sale.
    restocked: bool,
    /// Its credit note; `null` for a late payment's refund (no sale was made) and refunds recorded before
    /// credit notes.
    #[serde(rename = "creditNote")]
    credit_note: Option<CreditNoteJson>,
    /// A payment that arrived after the order was released, returned in full.
    late: bool,
}

/// A credit note: what a refund takes off the VAT receipt.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "CreditNote")]
pub struct CreditNoteJson {
    /// `CN-10001`.
    number: String,
    /// The refund's date, ISO 8601 UTC.
    date: String,
    amount: Pence,
    /// The VAT the refund takes back.
    vat: Pence,
    #[serde(rename = "vatRate")]
    vat_rate: u32,
}

impl RefundRecord {
    pub fn json(&self, with_by: bool) -> RefundJson {
        RefundJson {
            id: self.id.clone(),
            amount: self.amount(),
            reason: self.reason.clone(),
            by: with_by.then(|| self.by.clone()),
            created_at: self.at.clone(),
            status: self.status,
            lines: self.lines.clone(),
            delivery: self.delivery,
            restocked: self.restocked,
            credit_note: self.credit_note.map(|note| CreditNoteJson {
                number: format!("{CREDIT_NOTE_PREFIX}{}", note.number),
                date: self.at.clone(),
                amount: self.amount(),
                vat: Pence::new(note.vat_pence).unwrap_or_default(),
                vat_rate: note.vat_rate,
            }),
            late: self.late,
        }
    }
}

/// A hold as admins see it.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Hold")]
struct HoldJson<'a> {
    kind: HoldKind,
    /// Stripe's dispute or warning id.
    #[serde(rename = "_id")]
    id: &'a str,
    reason: &'a str,
    amount: Pence,
    #[serde(rename = "openedAt")]
    opened_at: &'a str,
    /// `won`, `lost`, `warning_closed`, `refunded` or `released`; `null` while the order is held.
    outcome: Option<&'a str>,
    #[serde(rename = "closedAt")]
    closed_at: Option<&'a str>,
}

/// Who is looking: what an order shows depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// The shop's admins: everything, who refunded and the holds included.
    Admin,
    /// The customer, or anyone with the order's link (manage.rs takes the contact details out for the latter).
    Customer,
}

/// An order with its money, as the API answers it (the `Order` schema).
pub struct OrderView<'a> {
    pub order: &'a Order,
    pub money: &'a OrderMoney,
    pub audience: Audience,
}

impl OrderView<'_> {
    pub fn value(&self) -> Result<serde_json::Value, ApiError> {
        let mut shown = serde_json::to_value(self.order).map_err(ApiError::internal)?;
        let admin = self.audience == Audience::Admin;
        let refunds: Vec<RefundJson> = self.money.refunds.iter().map(|r| r.json(admin)).collect();
        let fields = shown
            .as_object_mut()
            .ok_or_else(|| ApiError::internal("an order that is not an object"))?;
        fields.insert("refunded".into(), json(&self.money.refunded)?);
        fields.insert("refunds".into(), json(&refunds)?);
        // `refundId` named the one refund an order could have: now the latest that stands.
        if let Some(latest) = self.money.refunds.iter().rev().find(|r| r.status.counts()) {
            fields.insert("refundId".into(), latest.id.clone().into());
        }
        if admin {
            let holds: Vec<HoldJson> = self
                .money
                .holds
                .iter()
                .map(|h| HoldJson {
                    kind: h.kind,
                    id: &h.id,
                    reason: &h.reason,
                    amount: Pence::new(h.amount_pence).unwrap_or_default(),
                    opened_at: &h.opened_at,
                    outcome: h.outcome.as_deref(),
                    closed_at: h.closed_at.as_deref(),
                })
                .collect();
            fields.insert("holds".into(), json(&holds)?);
            fields.insert("onHold".into(), self.money.on_hold().into());
            fields.insert(
                "refunding".into(),
                json(
                    &self
                        .money
                        .claim
                        .as_ref()
                        .map(|c| Pence::new(c.amount_pence).unwrap_or_default()),
                )?,
            );
        }
        Ok(shown)
    }
}

fn json<T: Serialize>(value: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(ApiError::internal)
}

/// An order view owned, for lists.
pub struct ShownOrder(pub serde_json::Value);

impl Serialize for ShownOrder {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl ShownOrder {
    pub fn of(order: &Order, money: &OrderMoney, audience: Audience) -> Result<Self, ApiError> {
        OrderView {
            order,
            money,
            audience,
        }
        .value()
        .map(ShownOrder)
    }
}

impl schemars::JsonSchema for ShownOrder {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Order".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        order_schema(generator)
    }
}

/// The order's own fields and its money's: `refunded` and `refunds` always; `holds`, `onHold` and
/// `refunding` (the amount of a refund under way, or `null`) for admins only.
pub fn order_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = <Order as schemars::JsonSchema>::json_schema(generator);
    let refunded = generator.subschema_for::<Pence>();
    let refunds = generator.subschema_for::<Vec<RefundJson>>();
    let holds = generator.subschema_for::<Vec<HoldJson>>();
    let refunding = generator.subschema_for::<Option<Pence>>();
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        let mut described = |name: &str, schema: schemars::Schema, text: &str| {
            let mut value = schema.to_value();
            if let Some(fields) = value.as_object_mut() {
                if !fields.contains_key("$ref") {
                    fields.insert("description".into(), text.into());
                }
            }
            properties.insert(name.into(), value);
        };
        described(
            "refunded",
            refunded,
            "What has been refunded, or is on its way, in pounds like `total`.",
        );
        described(
            "refunds",
            refunds,
            "Every refund of the order, oldest first, each with its credit note.",
        );
        described(
            "holds",
            holds,
            "Admins only: the disputes and fraud warnings the order has had.",
        );
        described(
            "refunding",
            refunding,
            "Admins only: the amount of a refund asked of Stripe and not yet recorded, or null.",
        );
        properties.insert(
            "onHold".into(),
            serde_json::json!({"type": "boolean", "description": "Admins only: a dispute or fraud warning is open, so the order is not shipped."}),
        );
    }
    if let Some(required) = schema
        .get_mut("required")
        .and_then(serde_json::Value::as_array_mut)
    {
        required.extend(["refunded".into(), "refunds".into()]);
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_refund_does_not_count() {
        assert!(RefundState::Pending.counts());
        assert!(RefundState::Succeeded.counts());
        assert!(!RefundState::Failed.counts());
    }
}
