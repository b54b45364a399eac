//! The new order as it is first written: `pending`, priced, with its buyer and card, holding its
//! reservation until `hold_until`.

use super::idempotency::Idempotency;
use super::input::Buyer;
use super::pricing::Basket;
use crate::order::{Order, Status, StatusChange};
use crate::stripe::CardDetails;
use crate::AppState;
use shared::trader::Trader;

/// What the order is made of, each part already checked.
pub struct Parts<'a> {
    pub buyer: Buyer,
    pub basket: Basket,
    pub trader: Trader,
    pub card: CardDetails,
    pub idempotency: Option<&'a Idempotency>,
    pub client: Option<String>,
    /// The carrier checks the buyer's age on delivery.
    pub age_check: bool,
    /// The version of the terms of sale shown when the order is placed.
    pub terms_version: u32,
    pub now_unix: i64,
}

pub fn pending_order(state: &AppState, parts: Parts<'_>) -> Order {
    let Parts {
        buyer,
        basket,
        trader,
        card,
        idempotency,
        client,
        age_check,
        terms_version,
        now_unix,
    } = parts;
    let priced = basket.priced;
    let code = basket.code;
    let now = shared::time::now_iso();
    Order {
        id: uuid::Uuid::new_v4().to_string(),
        number: None,
        carrier: None,
        tracking_number: None,
        archived_at: None,
        terms_version: Some(terms_version),
        // Counted only once its bank's 3-D Secure step starts (crate::unpaid).
        unpaid_counted: false,
        history: vec![StatusChange {
            status: Status::Pending,
            at: now.clone(),
        }],
        lines: priced.lines,
        subtotal: priced.subtotal,
        discount: priced.discount,
        shipping: priced.shipping,
        total: priced.total,
        // Prices include VAT at the site info's rate: the order keeps the rate and the VAT of its total.
        vat_rate: Some(trader.vat_rate),
        vat: Some(trader.vat_in(priced.total)),
        code: code.as_ref().map(|c| c.code.clone()),
        code_rate: basket.rate,
        code_marked: code.as_ref().is_some_and(|c| c.once_per_email),
        // Once per customer is once per card too, when Stripe names the card.
        card_mark: code
            .as_ref()
            .filter(|c| c.once_per_email && !card.fingerprint.is_empty())
            .map(|_| card.fingerprint.clone()),
        status: Status::Pending,
        fullname: buyer.fullname.into_inner(),
        address: buyer.address.into_inner(),
        delivery: buyer.delivery,
        age_check,
        phone: buyer.phone.into_inner(),
        email: buyer.email.into_inner(),
        message: buyer.message,
        card_brand: card.brand,
        card_last4: card.last4,
        payment_intent: String::new(),
        hold_until: now_unix + state.hold_seconds,
        idempotency_key: idempotency.map(|i| i.key.clone()),
        refund_id: None,
        client,
        created_at: now.clone(),
        updated_at: now,
        version: 1,
    }
}
