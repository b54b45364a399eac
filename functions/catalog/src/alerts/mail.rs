//! The two mails of an alert, queued through the outbox: the confirmation a sign-up sends (its link opens
//! the storefront's confirmation page) and the one back-in-stock mail (its stop link ends the address's
//! other alerts, in one click too: RFC 8058).

use super::limits::PENDING_HOURS;
use super::links::AlertLinks;
use crate::product::Product;
use crate::AppState;
use shared::mail::{branded_html, escape_html, Mail};
use shared::outbox::QueuedMail;
use shared::ApiError;

/// The storefront's page a confirmation link opens.
pub const CONFIRM_PAGE: &str = "/confirm/alert";

/// Back-in-stock mail's outbox, links and words: a 500 where the catalogue runs without them.
pub fn mail_settings(state: &AppState) -> Result<&crate::Alerts, ApiError> {
    state
        .alerts
        .as_deref()
        .ok_or_else(|| ApiError::internal("back-in-stock mail is not configured"))
}

pub fn confirmation_mail(
    settings: &crate::Alerts,
    product: &Product,
    email: &str,
    token: &str,
) -> QueuedMail {
    let link = format!("{}{CONFIRM_PAGE}?token={token}", settings.site_url);
    let content = format!(
        "<p>Please confirm that you want one e-mail from {shop} when <strong>{name}</strong> ({pack}) is \
         back in stock:</p>\
         <p><a href=\"{link}\" style=\"font-weight:bold\">Yes, tell me when it is back</a></p>\
         <p style=\"font-size:13px\">The link works for {hours} hours. If you did not ask, ignore this \
         e-mail: you will not hear from us about it.</p>",
        shop = escape_html(&settings.shop_name),
        name = escape_html(&product.name),
        pack = escape_html(&product.qty),
        link = escape_html(&link),
        hours = PENDING_HOURS,
    );
    QueuedMail::new(Mail {
        to: email.to_owned(),
        subject: format!("Confirm your alert for {}", product.name),
        html: branded_html(&settings.shop_name, "Confirm your alert", &content),
        text: format!(
            "Please confirm that you want one e-mail from {} when {} ({}) is back in stock: {link}\n\nThe \
             link works for {PENDING_HOURS} hours. If you did not ask, ignore this e-mail: you will not hear \
             from us about it.\n",
            settings.shop_name, product.name, product.qty
        ),
        reply_to: None,
    })
}

/// Where an alert mail's links lead.
pub struct AlertMail<'a> {
    pub shop: &'a str,
    pub site_url: &'a str,
    pub links: &'a AlertLinks,
}

pub fn alert_mail(how: &AlertMail, product: &Product, email: &str) -> QueuedMail {
    let page = format!("{}/drinks/{}", how.site_url, product.id);
    let stop = format!(
        "{}/api/product/notify/stop/?token={}",
        how.site_url,
        how.links.token(email)
    );
    let content = format!(
        "<p>Good news: <strong>{name}</strong> ({pack}) is back in stock.</p>\
         <p><a href=\"{page}\">See it in the shop</a></p>\
         <p>You asked us to tell you once, so you are off this drink's list now. \
         <a href=\"{stop}\">Stop my other back-in-stock alerts</a>.</p>",
        name = escape_html(&product.name),
        pack = escape_html(&product.qty),
        page = escape_html(&page),
        stop = escape_html(&stop),
    );
    QueuedMail::new(Mail {
        to: email.to_owned(),
        subject: format!("{} is back in stock", product.name),
        html: branded_html(how.shop, "Back in stock", &content),
        text: format!(
            "Good news: {} ({}) is back in stock.\n\nSee it in the shop: {page}\n\nYou asked us to tell you \
             once, so you are off this drink's list now. Stop my other back-in-stock alerts: {stop}\n",
            product.name, product.qty
        ),
        reply_to: None,
    })
    .with_header("List-Unsubscribe", format!("<{stop}>"))
    .with_header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
}
