//! The items an order writes beside itself: its Idempotency-Key (checkout), the month's results, and the
//! money ledger the reconciliation reads. Below both placing an order (checkout) and moving it on (payment,
//! refunds), so none of them imports another for them.
//!
//! The results count paid money only: an order counts in the month it was paid, a refund in the month it was
//! made, whatever month the order was placed in. Each entry is written in the same transaction as the move
//! it describes, so the figures can never disagree with the orders.

use crate::order::Order;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use shared::dynamo::{n, s, Item};
use shared::ApiError;

/// The item that holds a checkout's Idempotency-Key (and the order it placed).
pub fn idempotency_item_key(key: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("IDEMPOTENCY#{key}"))),
        ("sk".to_owned(), s("KEY")),
    ])
}

/// What a move changes in a month's results.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    pub orders: i64,
    pub units: i64,
    /// Money paid (orders counted when paid).
    pub paid_pence: i64,
    pub refunds: i64,
    pub refunded_pence: i64,
    /// The VAT the money kept includes (a refund's VAT comes off).
    pub vat_pence: i64,
}

impl Figures {
    /// An order paid.
    pub fn paid(order: &Order) -> Figures {
        Figures {
            orders: 1,
            units: i64::from(order.units()),
            paid_pence: order.total.pence(),
            vat_pence: order.vat.map_or(0, |v| v.pence()),
            ..Figures::default()
        }
    }

    /// A refund of `amount` (its VAT, the units of its lines); `sign` -1 takes one back (it failed).
    pub fn refund(amount: i64, vat: i64, units: i64, sign: i64) -> Figures {
        Figures {
            units: -units * sign,
            refunds: sign,
            refunded_pence: amount * sign,
            vat_pence: -vat * sign,
            ..Figures::default()
        }
    }
}

/// Adds `figures` to month `month`'s results (`YYYY-MM`). `totalPence` is what was kept: paid less refunded.
pub fn results_update(
    table: &str,
    month: &str,
    figures: Figures,
) -> Result<TransactWriteItem, ApiError> {
    let update = Update::builder()
        .table_name(table)
        .key("pk", s(format!("SALES#{month}")))
        .key("sk", s("SALES"))
        .update_expression(
            "SET gsi1pk = :sales, gsi1sk = :month ADD totalOrders :orders, totalProductsSold :units, \
             totalPence :kept, paidPence :paid, refundedPence :refunded, refunds :refunds, vatPence :vat",
        )
        .expression_attribute_values(":sales", s("SALES"))
        .expression_attribute_values(":month", s(month))
        .expression_attribute_values(":orders", n(figures.orders))
        .expression_attribute_values(":units", n(figures.units))
        .expression_attribute_values(":kept", n(figures.paid_pence - figures.refunded_pence))
        .expression_attribute_values(":paid", n(figures.paid_pence))
        .expression_attribute_values(":refunded", n(figures.refunded_pence))
        .expression_attribute_values(":refunds", n(figures.refunds))
        .expression_attribute_values(":vat", n(figures.vat_pence))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// Takes back an order counted when it was placed (orders written before the results counted payments
/// only), in the month it was counted in: released before it was paid, it never sold.
pub fn uncount_placed(table: &str, order: &Order) -> Result<TransactWriteItem, ApiError> {
    let update = Update::builder()
        .table_name(table)
        .key("pk", s(format!("SALES#{}", order.month())))
        .key("sk", s("SALES"))
        .update_expression(
            "ADD totalOrders :orders, totalProductsSold :units, totalPence :pence, vatPence :vat",
        )
        .expression_attribute_values(":orders", n(-1))
        .expression_attribute_values(":units", n(-i64::from(order.units())))
        .expression_attribute_values(":pence", n(-order.total.pence()))
        .expression_attribute_values(":vat", n(-order.vat.map_or(0, |v| v.pence())))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// What moved money, as the ledger records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Entry {
    /// An order paid.
    Payment,
    /// Money back to a customer (of a sale, or of a late payment).
    Refund,
    /// A refund the bank could not make: the money stayed.
    RefundFailed,
    /// A payment that arrived after its order was released (refunded in turn).
    LatePayment,
}

impl Entry {
    pub fn as_str(self) -> &'static str {
        match self {
            Entry::Payment => "payment",
            Entry::Refund => "refund",
            Entry::RefundFailed => "refund-failed",
            Entry::LatePayment => "late-payment",
        }
    }

    pub fn parse(text: &str) -> Option<Entry> {
        [
            Entry::Payment,
            Entry::Refund,
            Entry::RefundFailed,
            Entry::LatePayment,
        ]
        .into_iter()
        .find(|e| e.as_str() == text)
    }
}

/// The ledger's partition of a month.
pub fn ledger_partition(month: &str) -> String {
    format!("LEDGER#{month}")
}

/// One ledger line, written with the move it records: `at` (ISO) gives its month. `id` is what makes it one
/// of a kind (the order for a payment, Stripe's refund for a refund): written twice, it is one line.
pub struct LedgerLine<'a> {
    pub entry: Entry,
    pub at: &'a str,
    pub id: &'a str,
    pub order: &'a Order,
    pub amount_pence: i64,
    pub vat_pence: i64,
}

pub fn ledger_put(table: &str, line: &LedgerLine) -> Result<TransactWriteItem, ApiError> {
    let month = line.at.get(..7).unwrap_or("0000-00");
    let mut item = Item::from([
        ("pk".to_owned(), s(ledger_partition(month))),
        (
            "sk".to_owned(),
            s(format!("{}#{}", line.entry.as_str(), line.id)),
        ),
        ("entry".to_owned(), s(line.entry.as_str())),
        ("at".to_owned(), s(line.at)),
        ("ref".to_owned(), s(line.id)),
        ("orderId".to_owned(), s(&line.order.id)),
        ("paymentIntent".to_owned(), s(&line.order.payment_intent)),
        ("amountPence".to_owned(), n(line.amount_pence)),
        ("vatPence".to_owned(), n(line.vat_pence)),
    ]);
    if let Some(number) = line.order.number {
        item.insert("number".to_owned(), n(number));
    }
    // Written again by a repeated move, it is the same line: no condition, so it never stops the move.
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_takes_its_money_and_vat_off_and_a_failed_one_puts_them_back() {
        let made = Figures::refund(500, 83, 1, 1);
        assert_eq!(
            (
                made.refunded_pence,
                made.vat_pence,
                made.units,
                made.refunds
            ),
            (500, -83, -1, 1)
        );
        let failed = Figures::refund(500, 83, 1, -1);
        assert_eq!(
            (
                failed.refunded_pence,
                failed.vat_pence,
                failed.units,
                failed.refunds
            ),
            (-500, 83, 1, -1)
        );
    }

    #[test]
    fn ledger_entries_read_back_as_written() {
        for entry in [
            Entry::Payment,
            Entry::Refund,
            Entry::RefundFailed,
            Entry::LatePayment,
        ] {
            assert_eq!(Entry::parse(entry.as_str()), Some(entry));
        }
        assert_eq!(Entry::parse("other"), None);
    }
}
