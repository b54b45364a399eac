//! The order confirmation to the customer and the notice to the shop, as HTML and text, queued through the
//! outbox with the write that makes the order paid. The confirmation is the contract's durable record
//! (Consumer Contracts Regulations 2013, reg. 16): the lines, the VAT the total includes, the trader's name
//! and address, the delivery estimate, the 14-day right to cancel with the model form, the terms, and the
//! printable VAT receipt.

use crate::order::Order;
use crate::AppState;
use aws_sdk_dynamodb::types::TransactWriteItem;
use shared::mail::{branded_html, escape_html, Mail};
use shared::money::Pence;
use shared::outbox::{Pending, QueuedMail};
use shared::trader::Trader;
use shared::ApiError;

/// The standard policy pages the content function always serves (see content's `policies`).
pub const TERMS_PATH: &str = "/drinks/policies/terms";
pub const CANCELLATION_PATH: &str = "/drinks/policies/returns";

/// The links a confirmation carries, absolute on the shop's address.
pub struct Links {
    pub terms: String,
    pub cancellation: String,
    pub receipt: String,
}

impl Links {
    pub fn for_order(site_url: &str, order: &Order) -> Links {
        Links {
            terms: format!("{site_url}{TERMS_PATH}"),
            cancellation: format!("{site_url}{CANCELLATION_PATH}#model-cancellation-form"),
            receipt: format!("{site_url}/order/{}/receipt", order.id),
        }
    }
}

fn rows(order: &Order) -> (String, String) {
    let mut html = String::new();
    let mut text = String::new();
    for line in &order.lines {
        let each = Pence::new(line.price_pence).unwrap_or_default();
        html.push_str(&format!(
            "<tr><td style=\"padding:4px 0\">{} × {} ({})</td><td align=\"right\">{}</td></tr>",
            line.qty,
            escape_html(&line.name),
            escape_html(&line.quantity),
            each.times(line.qty)
        ));
        text.push_str(&format!(
            "{} x {} ({})  {}\n",
            line.qty,
            line.name,
            line.quantity,
            each.times(line.qty)
        ));
    }
    let mut totals = vec![("Subtotal", order.subtotal.to_string())];
    if order.discount > Pence::ZERO {
        totals.push(("Discount", format!("-{}", order.discount)));
    }
    totals.push(("Shipping", order.shipping.to_string()));
    totals.push(("Total", order.total.to_string()));
    if let (Some(rate), Some(vat)) = (order.vat_rate, order.vat) {
        totals.push(("VAT included", format!("{vat} (at {rate}%)")));
    }
    for (label, amount) in totals {
        html.push_str(&format!("<tr><td style=\"padding:4px 0\"><strong>{label}</strong></td><td align=\"right\"><strong>{amount}</strong></td></tr>"));
        text.push_str(&format!("{label}: {amount}\n"));
    }
    (
        format!("<table role=\"presentation\" width=\"100%\">{html}</table>"),
        text,
    )
}

pub fn confirmation(trader: &Trader, links: &Links, order: &Order) -> Mail {
    let (table, lines) = rows(order);
    let trader_line = match trader.address.is_empty() {
        true => trader.name.clone(),
        false => format!("{}, {}", trader.name, trader.address),
    };
    let vat_number = match trader.vat_number.is_empty() {
        true => String::new(),
        false => format!(" VAT number {}.", trader.vat_number),
    };
    let content = format!(
        "<p>Thank you, {name}. We have your order <strong>{id}</strong> and will send it to:</p>\
         <p style=\"white-space:pre-wrap\">{address}</p>{table}<p>Paid by {brand} ending {last4}. \
         Delivery takes {estimate}.</p>\
         <p><a href=\"{receipt}\">Your VAT receipt</a> (printable).</p>\
         <p><strong>Your right to cancel.</strong> You may cancel this order within 14 days of the day \
         you receive it, without giving a reason, and get a full refund of what you paid, delivery included. \
         Tell us by e-mail or with the <a href=\"{cancellation}\">model cancellation form</a>; send the \
         drinks back unopened within 14 days of telling us.</p>\
         <p>Your order is sold on our <a href=\"{terms}\">terms of sale</a>. The seller is {trader}.{vat_number}</p>",
        name = escape_html(&order.fullname),
        id = escape_html(&order.reference()),
        address = escape_html(&order.address),
        brand = escape_html(&order.card_brand),
        last4 = escape_html(&order.card_last4),
        estimate = escape_html(&trader.delivery_estimate),
        receipt = escape_html(&links.receipt),
        cancellation = escape_html(&links.cancellation),
        terms = escape_html(&links.terms),
        trader = escape_html(&trader_line),
        vat_number = escape_html(&vat_number),
    );
    Mail {
        to: order.email.clone(),
        subject: format!(
            "Your {} order {}: {}",
            trader.name,
            order.reference(),
            order.total
        ),
        html: branded_html(&trader.name, "Your order", &content),
        text: format!(
            "Thank you, {}. We have your order {} and will send it to:\n{}\n\n{}\nPaid by {} ending {}. \
             Delivery takes {}.\n\nYour VAT receipt: {}\n\n\
             Your right to cancel: you may cancel this order within 14 days of the day you receive it, \
             without giving a reason, and get a full refund of what you paid, delivery included. Tell us by \
             e-mail or with the model cancellation form: {}\n\n\
             Terms of sale: {}\nThe seller is {}.{}\n",
            order.fullname,
            order.reference(),
            order.address,
            lines,
            order.card_brand,
            order.card_last4,
            trader.delivery_estimate,
            links.receipt,
            links.cancellation,
            links.terms,
            trader_line,
            vat_number,
        ),
        reply_to: (!trader.email.is_empty()).then(|| trader.email.clone()),
    }
}

pub fn notice(shop: &str, to: &str, order: &Order) -> Mail {
    let (table, lines) = rows(order);
    let content = format!(
        "<p>New order <strong>{number}</strong> ({id}) from {name} ({email}, {phone}).</p>{table}<p>{message}</p>",
        number = escape_html(&order.reference()),
        id = escape_html(&order.id),
        name = escape_html(&order.fullname),
        email = escape_html(&order.email),
        phone = escape_html(&order.phone),
        message = escape_html(&order.message),
    );
    Mail {
        to: to.to_owned(),
        subject: format!(
            "New order {} from {}: {}",
            order.reference(),
            order.fullname,
            order.total
        ),
        html: branded_html(shop, "New order", &content),
        text: format!(
            "New order {} ({}) from {} ({}, {}).\n\n{}\n{}\n",
            order.reference(),
            order.id,
            order.fullname,
            order.email,
            order.phone,
            lines,
            order.message
        ),
        reply_to: Some(order.email.clone()),
    }
}

/// The confirmation to the customer and the notice to the shop, as outbox items to write with the move that
/// makes the order paid (so they exist exactly when it did), and the handles to queue them with after it.
pub async fn confirmations(
    state: &AppState,
    order: &Order,
) -> Result<(Vec<TransactWriteItem>, Vec<Pending>), ApiError> {
    let trader = state.trader().await?;
    let links = Links::for_order(&state.site_url, order);
    let mut items = Vec::new();
    let mut pending = Vec::new();
    for mail in [
        confirmation(&trader, &links, order),
        notice(&trader.name, &state.shop_address, order),
    ] {
        let (item, handle) = state.outbox.put(&QueuedMail::new(mail))?;
        items.push(item);
        pending.push(handle);
    }
    Ok((items, pending))
}
