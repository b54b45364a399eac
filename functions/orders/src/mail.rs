//! The order confirmation to the customer and the notice to the shop, as HTML and text, queued through the
//! outbox with the write that makes the order paid.

use crate::order::Order;
use crate::AppState;
use aws_sdk_dynamodb::types::TransactWriteItem;
use shared::mail::{branded_html, escape_html, Mail};
use shared::money::Pence;
use shared::outbox::{Pending, QueuedMail};
use shared::ApiError;

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
    for (label, amount) in totals {
        html.push_str(&format!("<tr><td style=\"padding:4px 0\"><strong>{label}</strong></td><td align=\"right\"><strong>{amount}</strong></td></tr>"));
        text.push_str(&format!("{label}: {amount}\n"));
    }
    (
        format!("<table role=\"presentation\" width=\"100%\">{html}</table>"),
        text,
    )
}

pub fn confirmation(shop: &str, order: &Order) -> Mail {
    let (table, lines) = rows(order);
    let content = format!(
        "<p>Thank you, {name}. We have your order <strong>{id}</strong> and will send it to:</p>\
         <p style=\"white-space:pre-wrap\">{address}</p>{table}<p>Paid by {brand} ending {last4}.</p>",
        name = escape_html(&order.fullname),
        id = escape_html(&order.id),
        address = escape_html(&order.address),
        brand = escape_html(&order.card_brand),
        last4 = escape_html(&order.card_last4),
    );
    Mail {
        to: order.email.clone(),
        subject: format!("Your {shop} order: {}", order.total),
        html: branded_html(shop, "Your order", &content),
        text: format!(
            "Thank you, {}. We have your order {} and will send it to:\n{}\n\n{}\nPaid by {} ending {}.\n",
            order.fullname, order.id, order.address, lines, order.card_brand, order.card_last4
        ),
        reply_to: None,
    }
}

pub fn notice(shop: &str, to: &str, order: &Order) -> Mail {
    let (table, lines) = rows(order);
    let content = format!(
        "<p>New order <strong>{id}</strong> from {name} ({email}, {phone}).</p>{table}<p>{message}</p>",
        id = escape_html(&order.id),
        name = escape_html(&order.fullname),
        email = escape_html(&order.email),
        phone = escape_html(&order.phone),
        message = escape_html(&order.message),
    );
    Mail {
        to: to.to_owned(),
        subject: format!("New order from {}: {}", order.fullname, order.total),
        html: branded_html(shop, "New order", &content),
        text: format!(
            "New order {} from {} ({}, {}).\n\n{}\n{}\n",
            order.id, order.fullname, order.email, order.phone, lines, order.message
        ),
        reply_to: Some(order.email.clone()),
    }
}

/// The confirmation to the customer and the notice to the shop, as outbox items to write with the move that
/// makes the order paid (so they exist exactly when it did), and the handles to queue them with after it.
pub fn confirmations(
    state: &AppState,
    order: &Order,
) -> Result<(Vec<TransactWriteItem>, Vec<Pending>), ApiError> {
    let mut items = Vec::new();
    let mut pending = Vec::new();
    for mail in [
        confirmation(&state.shop_name, order),
        notice(&state.shop_name, &state.shop_address, order),
    ] {
        let (item, handle) = state.outbox.put(&QueuedMail::new(mail))?;
        items.push(item);
        pending.push(handle);
    }
    Ok((items, pending))
}
