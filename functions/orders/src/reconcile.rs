//! A month's money, the shop's records beside Stripe's, for the accounts: the shop's payments and refunds
//! (its ledger: one line per order paid, refund made, refund failed or late payment, written with the move
//! itself, records.rs) and Stripe's balance transactions created in the month (charges with their fees,
//! refunds, disputes, payouts). Each payment is matched to its charge by PaymentIntent and each refund to
//! Stripe's by its id; whatever has no partner, or a different amount, is listed as a difference. Months are
//! calendar months in UTC, as the shop's dates are, so a payment in the last seconds of a month may show on
//! each side in a different month: it is listed, not hidden.
//!
//! The admin's screen reads `GET /api/order/reconciliation/{month}` (and makes the month's CSV from its
//! lines); `make reconcile STAGE= MONTH=` prints the same report from the command line (the expiry
//! function answers it, `report_text`).

use crate::manage::SignedPounds;
use crate::records::{ledger_partition, Entry};
use crate::stripe::BalanceTransaction;
use crate::AppState;
use axum::extract::State;
use serde::Serialize;
use shared::auth::Admin;
use shared::dynamo::{get_n, get_s, s, Item};
use shared::extract::Path;
use shared::money::Pence;
use shared::{ApiError, ApiResult, Json};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What `Month::parse` takes: `YYYY-MM` from 2000 to 2999.
pub const MONTH_PATTERN: &str = r"^2[0-9]{3}-(0[1-9]|1[0-2])$";

/// A calendar month, `YYYY-MM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    year: i32,
    month: u8,
}

impl Month {
    /// `2026-03`; 422 for anything else.
    pub fn parse(text: &str) -> Result<Month, ApiError> {
        let refuse = || ApiError::invalid("month must be a month as YYYY-MM, e.g. 2026-03");
        let (year, month) = text.trim().split_once('-').ok_or_else(refuse)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(refuse());
        }
        let year: i32 = year.parse().map_err(|_| refuse())?;
        let month: u8 = month.parse().map_err(|_| refuse())?;
        if !(2000..=2999).contains(&year) || !(1..=12).contains(&month) {
            return Err(refuse());
        }
        Ok(Month { year, month })
    }

    pub fn label(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// Unix seconds of the month's first moment, and of the next month's.
    fn bounds(self) -> (i64, i64) {
        let start = |year: i32, month: u8| {
            time::Date::from_calendar_date(
                year,
                time::Month::try_from(month).unwrap_or(time::Month::January),
                1,
            )
            .map(|date| date.midnight().assume_utc().unix_timestamp())
            .unwrap_or(0)
        };
        let (next_year, next_month) = match self.month {
            12 => (self.year + 1, 1),
            month => (self.year, month + 1),
        };
        (start(self.year, self.month), start(next_year, next_month))
    }
}

/// The shop's side of a month.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct ShopSide {
    /// Orders paid in the month, and what they came to.
    payments: usize,
    paid: Pence,
    /// Refunds made in the month (of sales and of late payments), and what they came to.
    refunds: usize,
    refunded: Pence,
    /// Payments that arrived after their order was released (each refunded in turn).
    #[serde(rename = "latePayments")]
    late_payments: usize,
    #[serde(rename = "lateReceived")]
    late_received: Pence,
    /// Refunds the bank could not make (the money stayed).
    #[serde(rename = "refundsFailed")]
    refunds_failed: Pence,
    /// What the shop's records say the month brought in: paid and late received, less refunded, plus
    /// refunds that failed.
    net: SignedPounds,
}

/// Stripe's side of a month, from its balance transactions.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct StripeSide {
    charges: usize,
    charged: Pence,
    refunds: usize,
    refunded: Pence,
    /// Refunds that failed and came back to the balance.
    #[serde(rename = "refundsFailed")]
    refunds_failed: Pence,
    /// Stripe's fees on the month's transactions.
    fees: Pence,
    /// Disputes' withdrawals and reinstatements (fees included in `fees`).
    disputes: SignedPounds,
    /// What the month added to the balance: every transaction's net but payouts.
    net: SignedPounds,
    /// Paid out to the shop's bank in the month.
    payouts: Pence,
}

/// One thing the two sides do not agree on.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Difference {
    /// `missing-at-stripe`, `missing-in-shop`, `amount-differs` or `dispute`.
    kind: &'static str,
    /// `payment`, `refund`, `refund-failed` or `dispute`.
    what: &'static str,
    /// The order, when the shop knows it.
    #[serde(rename = "orderId")]
    order_id: Option<String>,
    number: Option<String>,
    #[serde(rename = "paymentIntent")]
    payment_intent: Option<String>,
    /// The refund's, charge's or dispute's id at Stripe.
    reference: Option<String>,
    shop: Option<Pence>,
    stripe: Option<Pence>,
    note: String,
}

/// One line of the month, from either side, as the CSV lists them.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MoneyLine {
    /// ISO 8601 UTC.
    at: String,
    /// `shop` or `stripe`.
    side: &'static str,
    /// The shop's `payment`, `refund`, `refund-failed`, `late-payment`; Stripe's transaction type
    /// (`charge`, `refund`, `refund_failure`, `adjustment`, `payout`, ...).
    kind: String,
    #[serde(rename = "orderId")]
    order_id: Option<String>,
    number: Option<String>,
    #[serde(rename = "paymentIntent")]
    payment_intent: Option<String>,
    /// Stripe's id of the refund, charge, dispute or payout (the transaction's source).
    reference: Option<String>,
    /// Money in (positive) or out (negative).
    amount: SignedPounds,
    fee: Pence,
    net: SignedPounds,
    /// The VAT it includes (the shop's side; a refund's is negative).
    vat: SignedPounds,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Reconciliation {
    /// `YYYY-MM`.
    month: String,
    shop: ShopSide,
    stripe: StripeSide,
    /// Empty when every payment and refund matches.
    differences: Vec<Difference>,
    /// Every line of both sides, oldest first.
    lines: Vec<MoneyLine>,
}

/// The shop's ledger line as read back.
struct Ledger {
    entry: Entry,
    at: String,
    reference: String,
    order_id: String,
    number: Option<u64>,
    payment_intent: String,
    amount: i64,
    vat: i64,
}

fn pence(value: i64) -> Pence {
    Pence::new(value.max(0)).unwrap_or_default()
}

fn iso(unix: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .map(shared::time::iso)
        .unwrap_or_default()
}

async fn ledger(state: &AppState, month: Month) -> Result<Vec<Ledger>, ApiError> {
    let mut lines = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(&state.tables.orders)
            .key_condition_expression("pk = :month")
            .expression_attribute_values(":month", s(ledger_partition(&month.label())))
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            let Some(entry) = get_s(item, "entry").ok().and_then(|e| Entry::parse(&e)) else {
                continue;
            };
            lines.push(Ledger {
                entry,
                at: get_s(item, "at")?,
                reference: get_s(item, "ref")?,
                order_id: get_s(item, "orderId")?,
                number: get_n(item, "number").ok(),
                payment_intent: get_s(item, "paymentIntent").unwrap_or_default(),
                amount: get_n(item, "amountPence")?,
                vat: get_n(item, "vatPence").unwrap_or(0),
            });
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(lines),
        }
    }
}

impl Difference {
    /// A difference about a line of the shop's (Stripe's `stripe` amount beside it, when it has one).
    fn of_shop(
        kind: &'static str,
        what: &'static str,
        line: &Ledger,
        reference: Option<&str>,
        stripe: Option<i64>,
        note: String,
    ) -> Difference {
        Difference {
            kind,
            what,
            order_id: Some(line.order_id.clone()),
            number: line.number.map(crate::order::format_number),
            payment_intent: Some(line.payment_intent.clone()).filter(|p| !p.is_empty()),
            reference: reference.map(str::to_owned),
            shop: Some(pence(line.amount)),
            stripe: stripe.map(pence),
            note,
        }
    }

    /// Something Stripe holds that the shop's records have not.
    fn of_stripe(
        what: &'static str,
        payment_intent: Option<String>,
        reference: &str,
        amount: i64,
        note: String,
    ) -> Difference {
        Difference {
            kind: "missing-in-shop",
            what,
            order_id: None,
            number: None,
            payment_intent,
            reference: Some(reference.to_owned()),
            shop: None,
            stripe: Some(pence(amount.abs())),
            note,
        }
    }
}

/// The report for `month`.
pub async fn report(state: &AppState, month: Month) -> Result<Reconciliation, ApiError> {
    let (from, until) = month.bounds();
    let shop = ledger(state, month).await?;
    let stripe = state.stripe.balance_transactions(from, until).await?;
    Ok(compare(month, &shop, &stripe))
}

fn compare(month: Month, shop: &[Ledger], stripe: &[BalanceTransaction]) -> Reconciliation {
    let number = |n: Option<u64>| n.map(crate::order::format_number);
    let mut report = Reconciliation {
        month: month.label(),
        shop: ShopSide::default(),
        stripe: StripeSide::default(),
        differences: Vec::new(),
        lines: Vec::new(),
    };
    // Money in by PaymentIntent and refunds by id, from each side.
    let mut shop_in: BTreeMap<&str, &Ledger> = BTreeMap::new();
    let mut shop_refunds: BTreeMap<(&str, Entry), &Ledger> = BTreeMap::new();
    let mut shop_net = 0;
    for line in shop {
        let sign = match line.entry {
            Entry::Payment => {
                report.shop.payments += 1;
                report.shop.paid = report.shop.paid.plus(pence(line.amount));
                shop_in.insert(&line.payment_intent, line);
                1
            }
            Entry::LatePayment => {
                report.shop.late_payments += 1;
                report.shop.late_received = report.shop.late_received.plus(pence(line.amount));
                shop_in.insert(&line.payment_intent, line);
                1
            }
            Entry::Refund => {
                report.shop.refunds += 1;
                report.shop.refunded = report.shop.refunded.plus(pence(line.amount));
                shop_refunds.insert((&line.reference, Entry::Refund), line);
                -1
            }
            Entry::RefundFailed => {
                report.shop.refunds_failed = report.shop.refunds_failed.plus(pence(line.amount));
                shop_refunds.insert((&line.reference, Entry::RefundFailed), line);
                1
            }
        };
        shop_net += sign * line.amount;
        report.lines.push(MoneyLine {
            at: line.at.clone(),
            side: "shop",
            kind: line.entry.as_str().to_owned(),
            order_id: Some(line.order_id.clone()),
            number: number(line.number),
            payment_intent: Some(line.payment_intent.clone()).filter(|p| !p.is_empty()),
            reference: Some(line.reference.clone()),
            amount: SignedPounds(sign * line.amount),
            fee: Pence::ZERO,
            net: SignedPounds(sign * line.amount),
            vat: SignedPounds(sign * line.vat),
        });
    }
    report.shop.net = SignedPounds(shop_net);

    let mut stripe_in: BTreeMap<String, &BalanceTransaction> = BTreeMap::new();
    let mut stripe_refunds: BTreeMap<(String, Entry), &BalanceTransaction> = BTreeMap::new();
    let (mut net, mut fees, mut disputes, mut payouts) = (0, 0, 0, 0);
    for txn in stripe {
        fees += txn.fee;
        match txn.kind.as_str() {
            "charge" | "payment" => {
                report.stripe.charges += 1;
                report.stripe.charged = report.stripe.charged.plus(pence(txn.amount));
                stripe_in.insert(
                    txn.payment_intent().unwrap_or(txn.source_id()).to_owned(),
                    txn,
                );
            }
            "refund" | "payment_refund" => {
                report.stripe.refunds += 1;
                report.stripe.refunded = report.stripe.refunded.plus(pence(-txn.amount));
                stripe_refunds.insert((txn.source_id().to_owned(), Entry::Refund), txn);
            }
            "refund_failure" => {
                report.stripe.refunds_failed = report.stripe.refunds_failed.plus(pence(txn.amount));
                stripe_refunds.insert((txn.source_id().to_owned(), Entry::RefundFailed), txn);
            }
            "payout" => payouts -= txn.amount,
            "adjustment" => {
                disputes += txn.amount;
                report.differences.push(Difference {
                    kind: "dispute",
                    what: "dispute",
                    order_id: None,
                    number: None,
                    payment_intent: txn.payment_intent().map(str::to_owned),
                    reference: Some(txn.source_id().to_owned()),
                    shop: None,
                    stripe: Some(pence(txn.amount.abs())),
                    note: format!(
                        "Stripe {} {} for a dispute (fee {}): the shop's records hold no money movement for it",
                        if txn.amount < 0 { "took" } else { "returned" },
                        pence(txn.amount.abs()),
                        pence(txn.fee)
                    ),
                });
            }
            _ => {}
        }
        if txn.kind != "payout" {
            net += txn.net;
        }
        report.lines.push(MoneyLine {
            at: iso(txn.created),
            side: "stripe",
            kind: txn.kind.clone(),
            order_id: None,
            number: None,
            payment_intent: txn.payment_intent().map(str::to_owned),
            reference: Some(txn.source_id().to_owned()).filter(|r| !r.is_empty()),
            amount: SignedPounds(txn.amount),
            fee: pence(txn.fee),
            net: SignedPounds(txn.net),
            vat: SignedPounds(0),
        });
    }
    // A dispute names its order when the shop knows the payment (paid in this month).
    for difference in report
        .differences
        .iter_mut()
        .filter(|d| d.kind == "dispute")
    {
        if let Some(line) = difference
            .payment_intent
            .as_deref()
            .and_then(|intent| shop_in.get(intent))
        {
            difference.order_id = Some(line.order_id.clone());
            difference.number = number(line.number);
        }
    }
    report.stripe.fees = pence(fees);
    report.stripe.disputes = SignedPounds(disputes);
    report.stripe.net = SignedPounds(net);
    report.stripe.payouts = pence(payouts);

    // Money in: each shop payment (or late payment) against its charge.
    let label = month.label();
    for (intent, line) in &shop_in {
        let what = match line.entry {
            Entry::LatePayment => "late payment",
            _ => "payment",
        };
        match stripe_in.get(*intent) {
            None => report.differences.push(Difference::of_shop(
                "missing-at-stripe",
                "payment",
                line,
                None,
                None,
                format!("The shop counts this {what} in {label}, Stripe has no charge for it in the month"),
            )),
            Some(txn) if txn.amount != line.amount => report.differences.push(Difference::of_shop(
                "amount-differs",
                "payment",
                line,
                Some(txn.source_id()),
                Some(txn.amount),
                format!("The shop's {what} and Stripe's charge are not for the same amount"),
            )),
            Some(_) => {}
        }
    }
    for (intent, txn) in &stripe_in {
        if !shop_in.contains_key(intent.as_str()) {
            report.differences.push(Difference::of_stripe(
                "payment",
                Some(intent.clone()),
                txn.source_id(),
                txn.amount,
                format!("Stripe charged this in {label}, the shop counts no paid order for it in the month"),
            ));
        }
    }
    // Money back: each refund (and failed refund) against Stripe's.
    let refund_kind = |entry: &Entry| match entry {
        Entry::RefundFailed => "refund-failed",
        _ => "refund",
    };
    for ((id, entry), line) in &shop_refunds {
        let what = refund_kind(entry);
        let theirs = stripe_refunds
            .get(&((*id).to_owned(), *entry))
            .map(|txn| txn.amount.abs());
        match theirs {
            None => report.differences.push(Difference::of_shop(
                "missing-at-stripe",
                what,
                line,
                Some(id),
                None,
                format!("The shop records this {what} in {label}, Stripe has none in the month"),
            )),
            Some(amount) if amount != line.amount => report.differences.push(Difference::of_shop(
                "amount-differs",
                what,
                line,
                Some(id),
                Some(amount),
                "The shop's and Stripe's amounts differ".to_owned(),
            )),
            Some(_) => {}
        }
    }
    for ((id, entry), txn) in &stripe_refunds {
        if !shop_refunds.contains_key(&(id.as_str(), *entry)) {
            let what = refund_kind(entry);
            report.differences.push(Difference::of_stripe(
                what,
                txn.payment_intent().map(str::to_owned),
                id,
                txn.amount,
                format!("Stripe holds this {what} in {label}, the shop's records have none in the month"),
            ));
        }
    }
    report.lines.sort_by(|a, b| a.at.cmp(&b.at));
    report
}

/// The report as `make reconcile` prints it.
pub fn report_text(report: &Reconciliation) -> String {
    let mut out = String::new();
    let shop = &report.shop;
    let stripe = &report.stripe;
    let pounds = |p: SignedPounds| match p.0 < 0 {
        true => format!("-{}", pence(-p.0)),
        false => pence(p.0).to_string(),
    };
    let _ = writeln!(out, "Reconciliation for {}", report.month);
    let _ = writeln!(out, "\nThe shop");
    let _ = writeln!(
        out,
        "  paid orders      {:>5}  {:>12}",
        shop.payments,
        shop.paid.to_string()
    );
    let _ = writeln!(
        out,
        "  refunds          {:>5}  {:>12}",
        shop.refunds,
        shop.refunded.to_string()
    );
    let _ = writeln!(
        out,
        "  late payments    {:>5}  {:>12}",
        shop.late_payments,
        shop.late_received.to_string()
    );
    let _ = writeln!(
        out,
        "  refunds failed          {:>12}",
        shop.refunds_failed.to_string()
    );
    let _ = writeln!(out, "  net                     {:>12}", pounds(shop.net));
    let _ = writeln!(out, "\nStripe");
    let _ = writeln!(
        out,
        "  charges          {:>5}  {:>12}",
        stripe.charges,
        stripe.charged.to_string()
    );
    let _ = writeln!(
        out,
        "  refunds          {:>5}  {:>12}",
        stripe.refunds,
        stripe.refunded.to_string()
    );
    let _ = writeln!(
        out,
        "  refunds failed          {:>12}",
        stripe.refunds_failed.to_string()
    );
    let _ = writeln!(
        out,
        "  fees                    {:>12}",
        stripe.fees.to_string()
    );
    let _ = writeln!(
        out,
        "  disputes                {:>12}",
        pounds(stripe.disputes)
    );
    let _ = writeln!(out, "  net                     {:>12}", pounds(stripe.net));
    let _ = writeln!(
        out,
        "  paid out                {:>12}",
        stripe.payouts.to_string()
    );
    if report.differences.is_empty() {
        let _ = writeln!(out, "\nNo differences: every payment and refund matches.");
    } else {
        let _ = writeln!(out, "\n{} difference(s)", report.differences.len());
        for d in &report.differences {
            let _ = writeln!(
                out,
                "  {} {} {}{}: shop {}, Stripe {}. {}",
                d.kind,
                d.what,
                d.number.as_deref().or(d.order_id.as_deref()).unwrap_or("-"),
                d.reference
                    .as_deref()
                    .or(d.payment_intent.as_deref())
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                d.shop.map_or("-".to_owned(), |p| p.to_string()),
                d.stripe.map_or("-".to_owned(), |p| p.to_string()),
                d.note
            );
        }
    }
    out
}

/// `GET /api/order/reconciliation/{month}`: the month's report.
pub async fn show_reconciliation(
    _: Admin,
    State(state): State<AppState>,
    Path(month): Path<String>,
) -> ApiResult<Json<Reconciliation>> {
    let month = Month::parse(&month)?;
    Ok(Json(report(&state, month).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_are_yyyy_mm_and_span_the_calendar_month() {
        let march = Month::parse("2026-03").unwrap();
        let (from, until) = march.bounds();
        assert_eq!(iso(from), "2026-03-01T00:00:00Z");
        assert_eq!(iso(until), "2026-04-01T00:00:00Z");
        assert_eq!(
            Month::parse("2026-12").unwrap().bounds().1,
            Month::parse("2027-01").unwrap().bounds().0
        );
        for bad in ["2026-13", "2026-3", "26-03", "march", "2026-00", ""] {
            assert!(Month::parse(bad).is_err(), "{bad}");
        }
    }

    fn txn(kind: &str, amount: i64, fee: i64, source: serde_json::Value) -> BalanceTransaction {
        serde_json::from_value(serde_json::json!({
            "id": format!("txn_{kind}_{amount}"), "amount": amount, "fee": fee, "net": amount - fee,
            "currency": "gbp", "type": kind, "created": 1_772_323_200, "source": source
        }))
        .unwrap()
    }

    fn line(entry: Entry, reference: &str, intent: &str, amount: i64) -> Ledger {
        Ledger {
            entry,
            at: "2026-03-02T10:00:00Z".into(),
            reference: reference.into(),
            order_id: "o1".into(),
            number: Some(10_001),
            payment_intent: intent.into(),
            amount,
            vat: 0,
        }
    }

    #[test]
    fn matching_sides_have_no_differences_and_each_mismatch_is_listed() {
        let march = Month::parse("2026-03").unwrap();
        let shop = [
            line(Entry::Payment, "o1", "pi_1", 1000),
            line(Entry::Refund, "re_1", "pi_1", 400),
        ];
        let stripe = [
            txn(
                "charge",
                1000,
                35,
                serde_json::json!({"id": "ch_1", "payment_intent": "pi_1"}),
            ),
            txn(
                "refund",
                -400,
                0,
                serde_json::json!({"id": "re_1", "payment_intent": "pi_1"}),
            ),
            txn("payout", -500, 0, serde_json::json!("po_1")),
        ];
        let matched = compare(march, &shop, &stripe);
        assert!(matched.differences.is_empty(), "{:?}", matched.differences);
        assert_eq!(matched.stripe.fees.pence(), 35);
        assert_eq!(matched.stripe.net.0, 1000 - 35 - 400);
        assert_eq!(matched.stripe.payouts.pence(), 500);
        assert_eq!(matched.shop.net.0, 600);
        assert_eq!(matched.lines.len(), 5);

        let shop = [
            line(Entry::Payment, "o1", "pi_1", 1000),
            line(Entry::Payment, "o2", "pi_2", 700),
            line(Entry::Refund, "re_9", "pi_1", 100),
        ];
        let stripe = [
            txn(
                "charge",
                999,
                35,
                serde_json::json!({"id": "ch_1", "payment_intent": "pi_1"}),
            ),
            txn(
                "charge",
                300,
                25,
                serde_json::json!({"id": "ch_3", "payment_intent": "pi_3"}),
            ),
            txn(
                "refund",
                -200,
                0,
                serde_json::json!({"id": "re_2", "payment_intent": "pi_3"}),
            ),
        ];
        let report = compare(march, &shop, &stripe);
        let kinds: Vec<(&str, &str)> = report
            .differences
            .iter()
            .map(|d| (d.kind, d.what))
            .collect();
        assert_eq!(
            kinds,
            [
                ("amount-differs", "payment"),
                ("missing-at-stripe", "payment"),
                ("missing-in-shop", "payment"),
                ("missing-at-stripe", "refund"),
                ("missing-in-shop", "refund"),
            ]
        );
        assert!(report_text(&report).contains("5 difference(s)"));

        let disputed = compare(
            march,
            &[line(Entry::Payment, "o1", "pi_1", 1000)],
            &[
                txn(
                    "charge",
                    1000,
                    35,
                    serde_json::json!({"id": "ch_1", "payment_intent": "pi_1"}),
                ),
                txn(
                    "adjustment",
                    -1000,
                    2000,
                    serde_json::json!({"id": "dp_1", "payment_intent": "pi_1"}),
                ),
            ],
        );
        assert_eq!(disputed.differences.len(), 1);
        assert_eq!(disputed.differences[0].kind, "dispute");
        assert_eq!(disputed.differences[0].number.as_deref(), Some("PD-10001"));
        assert_eq!(disputed.stripe.disputes.0, -1000);
        assert_eq!(disputed.stripe.fees.pence(), 2035);
    }
}
