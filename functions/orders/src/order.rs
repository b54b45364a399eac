//! An order as stored and as the API shows it. Lines are copies of what the customer bought at the price
//! they paid, so later catalogue changes never rewrite history.

use serde::{Deserialize, Serialize};
use shared::dynamo::{b, get_bool, get_n, get_s, get_s_or_default, n, s, Item, ItemError};
use shared::money::{Pence, Percent};
use shared::validation::UkAddress;

/// Where an order stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Written with its stock, code use and month figures reserved; waiting for the payment.
    Pending,
    Paid,
    Shipped,
    Delivered,
    /// Cancelled before it was paid (by an admin): nothing was charged.
    Cancelled,
    /// The payment never completed (declined, abandoned, or the hold ran out): everything released.
    Expired,
    /// Paid, then cancelled and refunded in full.
    Refunded,
}

/// Who carries a shipped order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Carrier {
    RoyalMail,
    Dpd,
    Evri,
    Other,
}

impl Carrier {
    pub fn as_str(self) -> &'static str {
        match self {
            Carrier::RoyalMail => "royal-mail",
            Carrier::Dpd => "dpd",
            Carrier::Evri => "evri",
            Carrier::Other => "other",
        }
    }

    fn parse(text: &str) -> Option<Carrier> {
        serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
    }

    pub fn label(self) -> &'static str {
        match self {
            Carrier::RoyalMail => "Royal Mail",
            Carrier::Dpd => "DPD",
            Carrier::Evri => "Evri",
            Carrier::Other => "the courier",
        }
    }

    /// The carrier's public tracking page for a parcel, when it has one.
    pub fn tracking_url(self, number: &str) -> Option<String> {
        let number: String = number
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        match self {
            Carrier::RoyalMail => Some(format!(
                "https://www.royalmail.com/track-your-item#/tracking-results/{number}"
            )),
            Carrier::Dpd => Some(format!("https://track.dpd.co.uk/parcels/{number}")),
            Carrier::Evri => Some(format!("https://www.evri.com/track/parcel/{number}")),
            Carrier::Other => None,
        }
    }
}

/// One move of an order's status, for the order page's history.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StatusChange {
    pub status: Status,
    /// ISO 8601 UTC.
    pub at: String,
}

impl StatusChange {
    /// The history entry a status write appends (`list_append` of this one-element list).
    pub fn entry(status: Status, at: &str) -> aws_sdk_dynamodb::types::AttributeValue {
        aws_sdk_dynamodb::types::AttributeValue::L(vec![
            aws_sdk_dynamodb::types::AttributeValue::M(Item::from([
                ("status".to_owned(), s(status.as_str())),
                ("at".to_owned(), s(at)),
            ])),
        ])
    }
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Paid => "paid",
            Status::Shipped => "shipped",
            Status::Delivered => "delivered",
            Status::Cancelled => "cancelled",
            Status::Expired => "expired",
            Status::Refunded => "refunded",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Status> {
        serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
    }

    /// What an admin may ask for. Payment moves an order out of `pending` (to `paid` or `expired`), never an
    /// admin, who may only cancel it; a paid order goes on to shipped and delivered, and cancelling it before
    /// delivery refunds it (it becomes `refunded`).
    pub fn can_become(self, next: Status) -> bool {
        use Status::*;
        matches!(
            (self, next),
            (Pending, Cancelled)
                | (Paid, Shipped | Delivered | Cancelled)
                | (Shipped, Delivered | Cancelled)
        )
    }

    /// Whether the customer paid and has not been refunded: what counts in their totals.
    pub fn is_paid(self) -> bool {
        matches!(self, Status::Paid | Status::Shipped | Status::Delivered)
    }

    /// Nothing more happens to it: it holds no stock and no money waits on it. Only such an order may be
    /// archived, and (if never paid) deleted.
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            Status::Delivered | Status::Cancelled | Status::Expired | Status::Refunded
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The product id.
    pub product: String,
    pub name: String,
    pub image: String,
    /// Units bought.
    pub qty: u32,
    /// The pack label, e.g. "24 x 330ml".
    pub quantity: String,
    /// The unit price paid, in pence (the product's own discount applied).
    #[serde(rename = "pricePence")]
    pub price_pence: i64,
}

/// A line of an order: a copy of the drink as it was bought.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "OrderLine")]
struct LineJson<'a> {
    /// The product id.
    product: &'a str,
    name: &'a str,
    /// The drink's first image (an upload name), or empty.
    image: &'a str,
    /// Units bought.
    qty: u32,
    /// The pack label, e.g. "24 x 330ml".
    quantity: &'a str,
    /// The unit price paid.
    price: Pence,
}

/// The card that paid, as Stripe describes it (empty until known).
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "OrderCard")]
struct Card<'a> {
    brand: &'a str,
    last4: &'a str,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: String,
    /// The short sequential number people use (`PD-10001`); `None` on orders placed before numbers.
    pub number: Option<u64>,
    pub lines: Vec<Line>,
    pub subtotal: Pence,
    pub discount: Pence,
    pub shipping: Pence,
    pub total: Pence,
    /// The VAT rate (whole percent) prices included when the order was placed, and the VAT its total holds,
    /// rounded once; `None` on orders placed before the shop recorded VAT.
    pub vat_rate: Option<u32>,
    pub vat: Option<Pence>,
    pub code: Option<String>,
    pub code_rate: Percent,
    /// Whether a once-per-e-mail mark was written for the code (a cancel removes it).
    pub code_marked: bool,
    /// The card's fingerprint its once-per-customer code was also marked with (a cancel removes that mark
    /// too); `None` without such a code, on orders placed before cards were marked, or when Stripe gave none.
    pub card_mark: Option<String>,
    pub status: Status,
    pub fullname: String,
    /// The delivery address in one box (every order has it; orders placed with the UK parts hold them
    /// there a part a line).
    pub address: String,
    /// The UK address's parts, on orders placed since the checkout asked for them.
    pub delivery: Option<UkAddress>,
    /// The basket held an age-restricted drink: the carrier checks the buyer's age on delivery.
    pub age_check: bool,
    pub phone: String,
    pub email: String,
    pub message: String,
    pub card_brand: String,
    pub card_last4: String,
    /// The Stripe PaymentIntent (empty until it is created).
    pub payment_intent: String,
    /// Unix time when an unpaid order's reservation ends.
    pub hold_until: i64,
    /// The checkout's Idempotency-Key, released with the reservation so a new attempt can use it.
    pub idempotency_key: Option<String>,
    pub refund_id: Option<String>,
    /// The viewer address (as the per-address limits key it) the order was placed from, while it counts
    /// among that address's open unpaid orders.
    pub client: Option<String>,
    /// Set when the admin ships it.
    pub carrier: Option<Carrier>,
    pub tracking_number: Option<String>,
    /// Every status it has had, oldest first (orders placed before this was kept start empty).
    pub history: Vec<StatusChange>,
    /// When an admin archived it (ISO 8601 UTC): off the admin's default list, kept for the accounts.
    pub archived_at: Option<String>,
    /// The version of the terms of sale it was sold under (content's policy versions); `None` on orders
    /// placed before versions were kept.
    pub terms_version: Option<u32>,
    /// Counted among the units unpaid orders hold of its drinks (`crate::unpaid`): set once its bank's
    /// 3-D Secure step started, so leaving `pending` gives the units back to the counters. Never shown.
    pub unpaid_counted: bool,
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
}

/// What an order number is written with.
pub const NUMBER_PREFIX: &str = "PD-";
/// The first order's number.
pub const FIRST_NUMBER: u64 = 10_001;

/// `PD-10001` for 10001.
pub fn format_number(number: u64) -> String {
    format!("{NUMBER_PREFIX}{number}")
}

/// The number in `PD-10001`, `pd-10001` or `10001`.
pub fn parse_number(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = match text.get(..NUMBER_PREFIX.len()) {
        Some(prefix) if prefix.eq_ignore_ascii_case(NUMBER_PREFIX) => &text[NUMBER_PREFIX.len()..],
        _ => text,
    };
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl Order {
    /// The number as people read it, or the start of the id for an order placed before numbers.
    pub fn reference(&self) -> String {
        match self.number {
            Some(number) => format_number(number),
            None => self.id.chars().take(8).collect(),
        }
    }

    pub fn tracking_url(&self) -> Option<String> {
        match (self.carrier, &self.tracking_number) {
            (Some(carrier), Some(number)) => carrier.tracking_url(number),
            _ => None,
        }
    }

    /// Whether money was ever taken for it: paid at some point, or a late payment refunded. The shop keeps
    /// such an order for its accounts (six years), so it can be archived but never deleted.
    pub fn was_paid(&self) -> bool {
        matches!(
            self.status,
            Status::Paid | Status::Shipped | Status::Delivered | Status::Refunded
        ) || self.refund_id.is_some()
            || self
                .history
                .iter()
                .any(|change| change.status == Status::Paid)
    }

    pub fn units(&self) -> u32 {
        self.lines.iter().map(|l| l.qty).sum()
    }

    /// The month the order counts in, `YYYY-MM`.
    pub fn month(&self) -> &str {
        self.created_at.get(..7).unwrap_or("0000-00")
    }
}

/// An order as the API answers it.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Order")]
struct OrderJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    /// The order's number as people read it (`PD-10001`); `null` on orders placed before numbers.
    number: Option<String>,
    product: Vec<LineJson<'a>>,
    subtotal: Pence,
    discount: Pence,
    shipping: Pence,
    total: Pence,
    /// The VAT rate the prices included, a whole percentage (e.g. 20).
    #[serde(rename = "vatRate")]
    vat_rate: Option<u32>,
    /// The VAT the total includes, in pounds like `total`.
    vat: Option<Pence>,
    /// The discount code used, if any.
    code: Option<&'a str>,
    #[serde(rename = "codeRate")]
    code_rate: Percent,
    status: Status,
    fullname: &'a str,
    address: &'a str,
    /// The UK address's parts (`null` on orders placed with the address in one box).
    #[serde(rename = "addressLine1")]
    address_line1: Option<&'a str>,
    /// Blank when the address has one street line.
    #[serde(rename = "addressLine2")]
    address_line2: Option<&'a str>,
    town: Option<&'a str>,
    /// Upper-cased, one space before the inward code (`SW1A 1AA`).
    postcode: Option<&'a str>,
    /// The basket held an age-restricted drink: age check on delivery.
    #[serde(rename = "ageCheck")]
    age_check: bool,
    phone: &'a str,
    email: &'a str,
    message: &'a str,
    card: Card<'a>,
    /// Stripe's id of the latest refund that stands (every refund is in `refunds`).
    #[serde(rename = "refundId", skip_serializing_if = "Option::is_none")]
    refund_id: Option<&'a str>,
    /// Who carries it, once shipped: `royal-mail`, `dpd`, `evri` or `other`.
    carrier: Option<Carrier>,
    #[serde(rename = "trackingNumber")]
    tracking_number: Option<&'a str>,
    /// The carrier's tracking page for the parcel, when there is one.
    #[serde(rename = "trackingUrl")]
    tracking_url: Option<String>,
    /// Every status the order has had, oldest first.
    history: &'a [StatusChange],
    /// Whether money was ever taken for it: such an order is kept for the accounts and cannot be deleted.
    #[serde(rename = "wasPaid")]
    was_paid: bool,
    /// When an admin archived it (off the admin's default list, still in searches, exports and the
    /// results), or `null`.
    #[serde(rename = "archivedAt")]
    archived_at: Option<&'a str>,
    /// The version of the terms of sale it was sold under (`GET /api/policy/versions/terms/{n}`); `null` on
    /// orders placed before versions were kept.
    #[serde(rename = "termsVersion")]
    terms_version: Option<u32>,
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    #[serde(rename = "updatedAt")]
    updated_at: &'a str,
}

impl Serialize for Order {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OrderJson {
            id: &self.id,
            number: self.number.map(format_number),
            product: self
                .lines
                .iter()
                .map(|l| LineJson {
                    product: &l.product,
                    name: &l.name,
                    image: &l.image,
                    qty: l.qty,
                    quantity: &l.quantity,
                    price: Pence::new(l.price_pence).unwrap_or_default(),
                })
                .collect(),
            subtotal: self.subtotal,
            discount: self.discount,
            shipping: self.shipping,
            total: self.total,
            vat_rate: self.vat_rate,
            vat: self.vat,
            code: self.code.as_deref(),
            code_rate: self.code_rate,
            status: self.status,
            fullname: &self.fullname,
            address: &self.address,
            address_line1: self.delivery.as_ref().map(|d| d.line1.as_str()),
            address_line2: self.delivery.as_ref().map(|d| d.line2.as_str()),
            town: self.delivery.as_ref().map(|d| d.town.as_str()),
            postcode: self.delivery.as_ref().map(|d| d.postcode.as_str()),
            age_check: self.age_check,
            phone: &self.phone,
            email: &self.email,
            message: &self.message,
            card: Card {
                brand: &self.card_brand,
                last4: &self.card_last4,
            },
            refund_id: self.refund_id.as_deref(),
            carrier: self.carrier,
            tracking_number: self.tracking_number.as_deref(),
            tracking_url: self.tracking_url(),
            history: &self.history,
            was_paid: self.was_paid(),
            archived_at: self.archived_at.as_deref(),
            terms_version: self.terms_version,
            created_at: &self.created_at,
            updated_at: &self.updated_at,
        }
        .serialize(serializer)
    }
}

impl schemars::JsonSchema for Order {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        OrderJson::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        OrderJson::json_schema(generator)
    }
}

/// The attribute that marks an order the month's results count when it is paid (every order written now);
/// orders written before it were counted when they were placed (see `money::OrderMoney::counts_when_paid`).
pub const COUNTS_WHEN_PAID: &str = "salesOnPayment";

/// The attribute that marks a pending order counted in its drinks' unpaid holds (`crate::unpaid`).
pub const UNPAID_COUNTED: &str = "unpaidCounted";

/// The partition of the pending-orders index.
pub const PENDING: &str = "PENDING";

/// Sorts by the end of the hold (zero-padded seconds), then the id.
pub fn hold_key(hold_until: i64, id: &str) -> String {
    format!("{hold_until:012}#{id}")
}

pub fn order_key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("ORDER#{id}"))),
        ("sk".to_owned(), s("ORDER")),
    ])
}

fn pence(item: &Item, key: &str) -> Result<Pence, ItemError> {
    Pence::new(get_n(item, key)?).map_err(|e| ItemError(format!("{key} {e}")))
}

impl Order {
    /// The order's place in the date indexes (`gsi1sk`, `gsi2sk`): created, then its id, so lists read
    /// newest first and a cursor names a place exactly.
    pub fn place(&self) -> String {
        format!("{}#{}", self.created_at, self.id)
    }

    pub fn to_item(&self) -> Item {
        let mut item = order_key(&self.id);
        item.extend([
            ("id".to_owned(), s(&self.id)),
            // A customer's orders, newest first.
            ("gsi1pk".to_owned(), s(format!("CUSTOMER#{}", self.email))),
            ("gsi1sk".to_owned(), s(self.place())),
            // Every order, newest first, for the admin.
            ("gsi2pk".to_owned(), s("ORDERS")),
            ("gsi2sk".to_owned(), s(self.place())),
            (
                "lines".to_owned(),
                s(serde_json::to_string(&self.lines).unwrap_or_default()),
            ),
            ("subtotalPence".to_owned(), n(self.subtotal.pence())),
            ("discountPence".to_owned(), n(self.discount.pence())),
            ("shippingPence".to_owned(), n(self.shipping.pence())),
            ("totalPence".to_owned(), n(self.total.pence())),
            ("code".to_owned(), s(self.code.as_deref().unwrap_or(""))),
            ("codeRate".to_owned(), n(self.code_rate.value())),
            ("codeMarked".to_owned(), b(self.code_marked)),
            ("status".to_owned(), s(self.status.as_str())),
            ("fullname".to_owned(), s(&self.fullname)),
            ("fullnameLower".to_owned(), s(self.fullname.to_lowercase())),
            ("address".to_owned(), s(&self.address)),
            ("phone".to_owned(), s(&self.phone)),
            ("email".to_owned(), s(&self.email)),
            ("message".to_owned(), s(&self.message)),
            ("cardBrand".to_owned(), s(&self.card_brand)),
            ("cardLast4".to_owned(), s(&self.card_last4)),
            ("paymentIntent".to_owned(), s(&self.payment_intent)),
            ("holdUntil".to_owned(), n(self.hold_until)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
            ("version".to_owned(), n(self.version)),
            (COUNTS_WHEN_PAID.to_owned(), b(true)),
        ]);
        if self.status == Status::Pending {
            // The sparse index the expiry job reads: only orders waiting for their payment.
            item.insert("gsi3pk".to_owned(), s(PENDING));
            item.insert("gsi3sk".to_owned(), s(hold_key(self.hold_until, &self.id)));
        }
        if let Some(key) = &self.idempotency_key {
            item.insert("idempotencyKey".to_owned(), s(key));
        }
        if let Some(refund) = &self.refund_id {
            item.insert("refundId".to_owned(), s(refund));
        }
        if let Some(client) = &self.client {
            item.insert("client".to_owned(), s(client));
        }
        if let Some(fingerprint) = &self.card_mark {
            item.insert("cardMark".to_owned(), s(fingerprint));
        }
        if let Some(number) = self.number {
            item.insert("number".to_owned(), n(number));
        }
        if let Some(delivery) = &self.delivery {
            delivery.write_attributes(&mut item);
        }
        if self.age_check {
            item.insert("ageCheck".to_owned(), b(true));
        }
        if self.unpaid_counted {
            item.insert(UNPAID_COUNTED.to_owned(), b(true));
        }
        if let Some(carrier) = self.carrier {
            item.insert("carrier".to_owned(), s(carrier.as_str()));
        }
        if let Some(tracking) = &self.tracking_number {
            item.insert("trackingNumber".to_owned(), s(tracking));
        }
        if let Some(at) = &self.archived_at {
            item.insert("archivedAt".to_owned(), s(at));
        }
        item.insert(
            "history".to_owned(),
            aws_sdk_dynamodb::types::AttributeValue::L(
                self.history
                    .iter()
                    .flat_map(
                        |change| match StatusChange::entry(change.status, &change.at) {
                            aws_sdk_dynamodb::types::AttributeValue::L(list) => list,
                            _ => Vec::new(),
                        },
                    )
                    .collect(),
            ),
        );
        if let Some(terms) = self.terms_version {
            item.insert("termsVersion".to_owned(), n(terms));
        }
        if let (Some(rate), Some(vat)) = (self.vat_rate, self.vat) {
            item.insert("vatRate".to_owned(), n(rate));
            item.insert("vatPence".to_owned(), n(vat.pence()));
        }
        item
    }

    pub fn from_item(item: &Item) -> Result<Self, ItemError> {
        let lines = serde_json::from_str(&get_s(item, "lines")?)
            .map_err(|e| ItemError(format!("lines: {e}")))?;
        let status =
            Status::parse(&get_s(item, "status")?).ok_or_else(|| ItemError("status".into()))?;
        let code_rate = Percent::new(get_n::<f64>(item, "codeRate")?)
            .map_err(|e| ItemError(format!("codeRate {e}")))?;
        Ok(Order {
            id: get_s(item, "id")?,
            number: get_n(item, "number").ok(),
            lines,
            subtotal: pence(item, "subtotalPence")?,
            discount: pence(item, "discountPence")?,
            shipping: pence(item, "shippingPence")?,
            total: pence(item, "totalPence")?,
            vat_rate: get_n(item, "vatRate").ok(),
            vat: pence(item, "vatPence").ok(),
            code: Some(get_s_or_default(item, "code")).filter(|c| !c.is_empty()),
            code_rate,
            code_marked: get_bool(item, "codeMarked"),
            card_mark: get_s(item, "cardMark").ok(),
            status,
            fullname: get_s(item, "fullname")?,
            address: get_s(item, "address")?,
            delivery: UkAddress::from_attributes(item),
            age_check: get_bool(item, "ageCheck"),
            phone: get_s(item, "phone")?,
            email: get_s(item, "email")?,
            message: get_s_or_default(item, "message"),
            card_brand: get_s_or_default(item, "cardBrand"),
            card_last4: get_s_or_default(item, "cardLast4"),
            payment_intent: get_s_or_default(item, "paymentIntent"),
            hold_until: get_n(item, "holdUntil").unwrap_or(0),
            idempotency_key: Some(get_s_or_default(item, "idempotencyKey"))
                .filter(|k| !k.is_empty()),
            refund_id: Some(get_s_or_default(item, "refundId")).filter(|k| !k.is_empty()),
            client: get_s(item, "client").ok(),
            carrier: get_s(item, "carrier").ok().and_then(|c| Carrier::parse(&c)),
            tracking_number: get_s(item, "trackingNumber").ok(),
            history: history(item),
            archived_at: get_s(item, "archivedAt").ok(),
            terms_version: get_n(item, "termsVersion").ok(),
            unpaid_counted: get_bool(item, UNPAID_COUNTED),
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: get_n(item, "version")?,
        })
    }
}

fn history(item: &Item) -> Vec<StatusChange> {
    let Some(aws_sdk_dynamodb::types::AttributeValue::L(list)) = item.get("history") else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|entry| {
            let map = entry.as_m().ok()?;
            Some(StatusChange {
                status: Status::parse(&get_s(map, "status").ok()?)?,
                at: get_s(map, "at").ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Status::*;

    #[test]
    fn admins_ship_and_cancel_but_only_payments_move_pending_orders() {
        assert!(Pending.can_become(Cancelled));
        assert!(!Pending.can_become(Paid));
        assert!(!Pending.can_become(Shipped));
        assert!(Paid.can_become(Shipped));
        assert!(Paid.can_become(Cancelled));
        assert!(Shipped.can_become(Delivered));
        assert!(Shipped.can_become(Cancelled));
        assert!(!Delivered.can_become(Cancelled));
        assert!(!Shipped.can_become(Paid));
        assert!(!Paid.can_become(Refunded));
        for terminal in [Cancelled, Expired, Refunded] {
            for next in [
                Pending, Paid, Shipped, Delivered, Cancelled, Expired, Refunded,
            ] {
                assert!(!terminal.can_become(next), "{terminal:?} -> {next:?}");
            }
        }
    }

    #[test]
    fn numbers_read_with_or_without_their_prefix() {
        assert_eq!(super::parse_number("PD-10001"), Some(10_001));
        assert_eq!(super::parse_number(" pd-10002 "), Some(10_002));
        assert_eq!(super::parse_number("10003"), Some(10_003));
        assert_eq!(super::parse_number("PD-"), None);
        assert_eq!(super::parse_number("alice"), None);
        assert_eq!(super::format_number(10_004), "PD-10004");
    }

    #[test]
    fn pending_orders_sort_by_the_end_of_their_hold() {
        assert!(super::hold_key(999, "b") < super::hold_key(1000, "a"));
    }
}
