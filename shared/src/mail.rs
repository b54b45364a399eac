//! Sending e-mail through SES: one HTML and one text part, from the shop's address. Templates are
//! rendered by the caller (the emulator has no SES templates, and rendering here keeps them testable).

use crate::ApiError;
use aws_sdk_sesv2::types::{Body, Content, Destination, EmailContent, Message};

#[derive(Clone)]
pub struct Mailer {
    ses: aws_sdk_sesv2::Client,
    from: String,
}

/// A rendered e-mail.
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub html: String,
    pub text: String,
    pub reply_to: Option<String>,
}

impl Mailer {
    pub fn new(ses: aws_sdk_sesv2::Client, from: impl Into<String>) -> Self {
        Mailer {
            ses,
            from: from.into(),
        }
    }

    pub async fn send(&self, mail: Mail) -> Result<(), ApiError> {
        let part = |data: &str| Content::builder().data(data).charset("UTF-8").build();
        let message = Message::builder()
            .subject(part(&mail.subject).map_err(ApiError::internal)?)
            .body(
                Body::builder()
                    .html(part(&mail.html).map_err(ApiError::internal)?)
                    .text(part(&mail.text).map_err(ApiError::internal)?)
                    .build(),
            )
            .build();
        self.ses
            .send_email()
            .from_email_address(&self.from)
            .destination(Destination::builder().to_addresses(&mail.to).build())
            .set_reply_to_addresses(mail.reply_to.map(|r| vec![r]))
            .content(EmailContent::builder().simple(message).build())
            .send()
            .await
            .map_err(ApiError::internal)?;
        Ok(())
    }
}

/// Escapes text for an HTML body.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The shop's e-mail frame: a header band with the shop's name, the content, and a small footer.
pub fn branded_html(shop: &str, title: &str, content_html: &str) -> String {
    let shop = escape_html(shop);
    let title = escape_html(title);
    format!(
        "<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body style=\"margin:0;background:#fff7ef;font-family:Arial,Helvetica,sans-serif;color:#2b1a12\">\
         <table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\"><tr><td align=\"center\" style=\"padding:24px\">\
         <table role=\"presentation\" width=\"560\" cellpadding=\"0\" cellspacing=\"0\" style=\"background:#ffffff;border-radius:12px;overflow:hidden\">\
         <tr><td style=\"background:#b3261e;color:#ffffff;padding:20px 28px;font-size:22px;font-weight:bold\">{shop}</td></tr>\
         <tr><td style=\"padding:28px;font-size:16px;line-height:1.5\">{content_html}</td></tr>\
         <tr><td style=\"padding:16px 28px;font-size:12px;color:#6b5b53;border-top:1px solid #f0e4da\">\
         {shop} · Delivery across the UK</td></tr></table></td></tr></table></body></html>"
    )
}
