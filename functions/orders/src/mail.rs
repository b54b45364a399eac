//! The order confirmation to the customer and the notice to the shop, as HTML and text, queued through the
//! outbox with the write that makes the order paid. The confirmation is the contract's durable record
//! (Consumer Contracts Regulations 2013, regs. 16 and 10): the lines, the VAT the total includes, the trader
//! (its company, registered office and address), the delivery estimate, the terms' key points and a link to
//! the version the order was sold under, the 14-day right to cancel with who pays to send drinks back and
//! the model cancellation form in full, how to complain, and the printable VAT receipt.

use crate::order::{Carrier, Order, Status};
use crate::AppState;
use aws_sdk_dynamodb::types::TransactWriteItem;
use shared::consumer::{how_to_complain, model_cancellation_form, terms_key_points, RETURN_COSTS};
use shared::mail::{branded_html, escape_html, Mail};
use shared::money::Pence;
use shared::outbox::{Pending, QueuedMail};
use shared::trader::Trader;
use shared::ApiError;

/// The standard policy pages the content function always serves (see content's `policies`).
pub const TERMS_PATH: &str = "/drinks/policies/terms";
pub const CANCELLATION_PATH: &str = "/drinks/policies/returns";

/// The links an order's e-mails carry, absolute on the shop's address.
pub struct Links {
    pub terms: String,
    pub cancellation: String,
    /// The printable VAT receipt, with the order link's key (the receipt shows the buyer's name).
    pub receipt: String,
    /// The order page with a key that opens it without logging in (see `links`).
    pub order: String,
    /// That key, for the credit notes' links.
    pub key: String,
    /// One "review what you bought" link per drink of the order: its name and address.
    pub reviews: Vec<(String, String)>,
}

impl Links {
    pub fn for_order(state: &AppState, order: &Order) -> Links {
        let site_url = &state.site_url;
        let now = shared::time::now_unix();
        let key = state.links.fresh_key(&order.id, now);
        Links {
            // The words the order was sold under, where its version is known.
            terms: match order.terms_version {
                Some(version) => format!("{site_url}{TERMS_PATH}?version={version}"),
                None => format!("{site_url}{TERMS_PATH}"),
            },
            cancellation: format!("{site_url}{CANCELLATION_PATH}#model-cancellation-form"),
            receipt: format!("{site_url}/order/{}/receipt?key={key}", order.id),
            order: crate::links::page_url(site_url, &order.id, &key),
            reviews: order
                .lines
                .iter()
                .map(|line| {
                    let url = state
                        .review_links
                        .url(site_url, &order.id, &line.product, now);
                    (line.name.clone(), url)
                })
                .collect(),
            key,
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

/// The seller as the confirmation names them: the company with its number and registered office where
/// the admin has set them, the trading name and its address.
fn seller(trader: &Trader) -> String {
    let trading = match trader.address.is_empty() {
        true => trader.name.clone(),
        false => format!(
            "{}, {}",
            trader.name,
            shared::trader::one_line(&trader.address)
        ),
    };
    match trader.company_line() {
        Some(company) => format!("{company}, trading as {trading}"),
        None => trading,
    }
}

pub fn confirmation(trader: &Trader, links: &Links, order: &Order) -> Mail {
    let (table, lines) = rows(order);
    let trader_line = seller(trader);
    let vat_number = match trader.vat_number.is_empty() {
        true => String::new(),
        false => format!(" VAT number {}.", trader.vat_number),
    };
    let points = terms_key_points(trader);
    let form = model_cancellation_form(trader);
    let complain = how_to_complain(trader);
    let points_html: String = points
        .iter()
        .map(|point| format!("<li>{}</li>", escape_html(point)))
        .collect();
    let form_html = form
        .iter()
        .map(|line| escape_html(line))
        .collect::<Vec<_>>()
        .join("<br>");
    let content = format!(
        "<p>Thank you, {name}. We have your order <strong>{id}</strong> and will send it to:</p>\
         <p style=\"white-space:pre-wrap\">{address}</p>{table}<p>Paid by {brand} ending {last4}. \
         Delivery takes {estimate}.</p>\
         <p><a href=\"{order_link}\">See your order</a> · <a href=\"{receipt}\">Your VAT receipt</a> (printable).</p>\
         <p><strong>Your right to cancel.</strong> You may cancel this order within 14 days of the day \
         you receive it, without giving a reason, and get a full refund of what you paid, delivery included. \
         Tell us by e-mail or with the model cancellation form below (also on our \
         <a href=\"{cancellation}\">returns page</a>); send the drinks back unopened within 14 days of telling \
         us. {return_costs}</p>\
         <p><strong>The key points of our terms</strong></p><ul>{points_html}</ul>\
         <p>Your order is sold on these <a href=\"{terms}\">terms of sale</a>. The seller is {trader}.{vat_number}</p>\
         <p><strong>How to complain.</strong> {complain}</p>\
         <div style=\"border:1px solid #ccc;padding:12px;margin-top:16px\"><p><strong>Model cancellation form</strong></p>\
         <p>{form_html}</p></div>",
        name = escape_html(&order.fullname),
        id = escape_html(&order.reference()),
        address = escape_html(&order.address),
        brand = escape_html(&order.card_brand),
        last4 = escape_html(&order.card_last4),
        estimate = escape_html(&trader.delivery_estimate),
        receipt = escape_html(&links.receipt),
        order_link = escape_html(&links.order),
        cancellation = escape_html(&links.cancellation),
        return_costs = escape_html(RETURN_COSTS),
        terms = escape_html(&links.terms),
        trader = escape_html(&trader_line),
        vat_number = escape_html(&vat_number),
        complain = escape_html(&complain),
    );
    let points_text: String = points.iter().map(|point| format!("- {point}\n")).collect();
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
             Delivery takes {}.\n\nYour order: {}\nYour VAT receipt: {}\n\n\
             Your right to cancel: you may cancel this order within 14 days of the day you receive it, \
             without giving a reason, and get a full refund of what you paid, delivery included. Tell us by \
             e-mail or with the model cancellation form below (also on our returns page: {}). Send the drinks \
             back unopened within 14 days of telling us. {}\n\n\
             The key points of our terms:\n{}\n\
             Terms of sale: {}\nThe seller is {}.{}\n\n\
             How to complain: {}\n\n\
             MODEL CANCELLATION FORM\n{}\n",
            order.fullname,
            order.reference(),
            order.address,
            lines,
            order.card_brand,
            order.card_last4,
            trader.delivery_estimate,
            links.order,
            links.receipt,
            links.cancellation,
            RETURN_COSTS,
            points_text,
            links.terms,
            trader_line,
            vat_number,
            complain,
            form.join("\n"),
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
    let links = Links::for_order(state, order);
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

/// The e-mail an admin's move sends the customer: shipped (with the tracking link) or delivered (refunds
/// have their own, `refund_mail`). `None` for a move that sends nothing.
pub fn status_mail(trader: &Trader, links: &Links, order: &Order) -> Option<Mail> {
    let reference = order.reference();
    let (subject, lead, text_lead) = match order.status {
        Status::Shipped => {
            let carrier = order.carrier.map_or("the courier", Carrier::label);
            let tracking = match (&order.tracking_number, order.tracking_url()) {
                (Some(number), Some(url)) => (
                    format!(
                        " Tracking number {}: <a href=\"{}\">track your parcel</a>.",
                        escape_html(number),
                        escape_html(&url)
                    ),
                    format!(" Tracking number {number}: {url}"),
                ),
                (Some(number), None) => (
                    format!(" Tracking number {}.", escape_html(number)),
                    format!(" Tracking number {number}."),
                ),
                _ => (String::new(), String::new()),
            };
            (
                format!("Your order {reference} is on its way"),
                format!(
                    "Your order <strong>{}</strong> has left us with {}.{}",
                    escape_html(&reference),
                    escape_html(carrier),
                    tracking.0
                ),
                format!("Your order {reference} has left us with {carrier}.{}", tracking.1),
            )
        }
        Status::Delivered => (
            format!("Your order {reference} has been delivered"),
            format!(
                "Your order <strong>{}</strong> has been delivered. If anything is wrong with it, reply to \
                 this e-mail. You may still cancel within 14 days of receiving it: see \
                 <a href=\"{}\">your right to cancel</a>.",
                escape_html(&reference),
                escape_html(&links.cancellation)
            ),
            format!(
                "Your order {reference} has been delivered. If anything is wrong with it, reply to this \
                 e-mail. You may still cancel within 14 days of receiving it: {}",
                links.cancellation
            ),
        ),
        _ => return None,
    };
    // Once delivered, one link per drink asks for a review that shows as a verified buyer's.
    let (reviews_html, reviews_text) = match order.status {
        Status::Delivered if !links.reviews.is_empty() => (
            format!(
                "<p>How did you find them? Reviewing takes a minute, and shows other shoppers a verified \
                 buyer's view:</p><ul>{}</ul>",
                links
                    .reviews
                    .iter()
                    .map(|(name, url)| format!(
                        "<li><a href=\"{}\">Review {}</a></li>",
                        escape_html(url),
                        escape_html(name)
                    ))
                    .collect::<String>()
            ),
            format!(
                "\nHow did you find them? Review what you bought:\n{}",
                links
                    .reviews
                    .iter()
                    .map(|(name, url)| format!("Review {name}: {url}\n"))
                    .collect::<String>()
            ),
        ),
        _ => (String::new(), String::new()),
    };
    let content = format!(
        "<p>Hello {name},</p><p>{lead}</p><p><a href=\"{link}\">See your order</a></p>{reviews_html}",
        name = escape_html(&order.fullname),
        link = escape_html(&links.order),
    );
    Some(Mail {
        to: order.email.clone(),
        html: branded_html(&trader.name, &subject, &content),
        text: format!(
            "Hello {},\n\n{text_lead}\n\nSee your order: {}\n{reviews_text}",
            order.fullname, links.order
        ),
        subject,
        reply_to: (!trader.email.is_empty()).then(|| trader.email.clone()),
    })
}

/// The outbox item of the e-mail a move to `order.status` sends (none for a move that sends nothing), to
/// write in the move's own transaction, and its handle to queue after it.
pub async fn status_mails(
    state: &AppState,
    order: &Order,
) -> Result<(Vec<TransactWriteItem>, Vec<Pending>), ApiError> {
    if !matches!(order.status, Status::Shipped | Status::Delivered) {
        return Ok((Vec::new(), Vec::new()));
    }
    let trader = state.trader().await?;
    let links = Links::for_order(state, order);
    match status_mail(&trader, &links, order) {
        Some(mail) => {
            let (item, handle) = state.outbox.put(&QueuedMail::new(mail))?;
            Ok((vec![item], vec![handle]))
        }
        None => Ok((Vec::new(), Vec::new())),
    }
}

/// A credit note's printable page: the order's receipt page showing that refund's note, opened with the
/// order link's `key` (the order page and the refund e-mail link it).
pub fn credit_note_url(site_url: &str, order_id: &str, refund_id: &str, key: &str) -> String {
    format!("{site_url}/order/{order_id}/receipt?creditNote={refund_id}&key={key}")
}

/// What a refund e-mail says about one refund.
pub struct RefundNotice<'a> {
    pub refund_id: &'a str,
    pub amount: Pence,
    /// The units it returns (drink name, units).
    pub lines: Vec<(&'a str, u32)>,
    pub delivery: bool,
    /// All the order's money is back (or on its way).
    pub whole: bool,
    /// The credit note's number, when the refund has one.
    pub credit_note: Option<String>,
}

/// The e-mail a refund sends the customer: how much, for what, when to expect it, and the credit note.
pub fn refund_mail(
    trader: &Trader,
    links: &Links,
    site_url: &str,
    order: &Order,
    refund: &RefundNotice,
) -> Mail {
    let reference = order.reference();
    let subject = if refund.whole {
        format!("Your order {reference} is refunded: {}", refund.amount)
    } else {
        format!("A refund of {} for your order {reference}", refund.amount)
    };
    let mut items: Vec<String> = refund
        .lines
        .iter()
        .map(|(name, qty)| format!("{qty} × {name}"))
        .collect();
    if refund.delivery {
        items.push("the delivery charge".to_owned());
    }
    let what = match items.is_empty() {
        true => String::new(),
        false => format!(" It is for {}.", items.join(", ")),
    };
    let card = match order.card_last4.is_empty() {
        true => "the card you paid with".to_owned(),
        false => format!("your {} card ending {}", order.card_brand, order.card_last4),
    };
    let note_url = credit_note_url(site_url, &order.id, refund.refund_id, &links.key);
    let (note_html, note_text) = match &refund.credit_note {
        Some(number) => (
            format!(
                " Your <a href=\"{}\">credit note {}</a> shows it against your VAT receipt.",
                escape_html(&note_url),
                escape_html(number)
            ),
            format!(" Your credit note {number}: {note_url}"),
        ),
        None => (String::new(), String::new()),
    };
    let lead = format!(
        "We have refunded {amount} to {card} for your order {reference}.{what} Refunds usually reach your \
         account within 5 to 10 working days.",
        amount = refund.amount,
    );
    let content = format!(
        "<p>Hello {name},</p><p>{lead}{note_html}</p><p>Refund reference: {id}</p>\
         <p><a href=\"{link}\">See your order</a></p>",
        name = escape_html(&order.fullname),
        lead = escape_html(&lead),
        id = escape_html(refund.refund_id),
        link = escape_html(&links.order),
    );
    Mail {
        to: order.email.clone(),
        html: branded_html(&trader.name, &subject, &content),
        text: format!(
            "Hello {},\n\n{lead}{note_text}\n\nRefund reference: {}\nSee your order: {}\n",
            order.fullname, refund.refund_id, links.order
        ),
        subject,
        reply_to: (!trader.email.is_empty()).then(|| trader.email.clone()),
    }
}

/// The e-mail to a shopper whose payment arrived after their order was released: it was returned in full.
pub fn late_refund_mail(trader: &Trader, links: &Links, order: &Order, refund_id: &str) -> Mail {
    let reference = order.reference();
    let subject = format!("Your payment for order {reference} has been refunded");
    let lead = format!(
        "Your bank confirmed your payment of {total} for order {reference} after the order had been released, \
         so the order was not placed and we have refunded the {total} in full. Refunds usually reach your \
         account within 5 to 10 working days. You are welcome to order again.",
        total = order.total,
    );
    let content = format!(
        "<p>Hello {name},</p><p>{lead}</p><p>Refund reference: {id}</p><p><a href=\"{link}\">See the order</a></p>",
        name = escape_html(&order.fullname),
        lead = escape_html(&lead),
        id = escape_html(refund_id),
        link = escape_html(&links.order),
    );
    Mail {
        to: order.email.clone(),
        html: branded_html(&trader.name, &subject, &content),
        text: format!(
            "Hello {},\n\n{lead}\n\nRefund reference: {refund_id}\nSee the order: {}\n",
            order.fullname, links.order
        ),
        subject,
        reply_to: (!trader.email.is_empty()).then(|| trader.email.clone()),
    }
}

/// A mail as an outbox item to write with the move it describes, and its handle to queue after it.
pub fn queued(state: &AppState, mail: Mail) -> Result<(TransactWriteItem, Pending), ApiError> {
    state.outbox.put(&QueuedMail::new(mail))
}
