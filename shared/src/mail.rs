//! Sending e-mail through SES: one HTML and one text part, from the shop's address. Templates are
//! rendered by the caller (the emulator has no SES templates, and rendering here keeps them testable).

use crate::ApiError;
use aws_sdk_sesv2::error::SdkError;
use aws_sdk_sesv2::primitives::Blob;
use aws_sdk_sesv2::types::{
    Body, Content, Destination, EmailContent, Message, MessageTag, RawMessage,
};
use std::fmt;

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

/// Why a send failed, as the queue's sender must know it: try again later, or give up on this address.
#[derive(Debug)]
pub enum SendError {
    /// Throttling, a timeout, a fault on SES's side: the same mail may go through later.
    Transient(String),
    /// SES refused this mail (a rejected or malformed address, an unverified sender): retrying cannot help.
    Permanent(String),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Transient(why) => write!(f, "transient: {why}"),
            SendError::Permanent(why) => write!(f, "permanent: {why}"),
        }
    }
}

impl std::error::Error for SendError {}

/// A mail to send as raw MIME, with headers of its own and tags SES hands back in bounce and complaint
/// events (which mailing it belonged to).
pub struct RawMail<'a> {
    pub mail: &'a Mail,
    pub headers: &'a [(String, String)],
    pub tags: &'a [(String, String)],
}

impl Mailer {
    /// Sends `raw` as a MIME message (the only way its own headers reach the reader), through the
    /// configuration set when one is named, so bounces and complaints come back.
    pub async fn send_raw(
        &self,
        raw: RawMail<'_>,
        configuration_set: Option<&str>,
    ) -> Result<(), SendError> {
        let boundary = format!("=_{}", uuid::Uuid::new_v4().simple());
        let message = crate::mime::build(
            &crate::mime::Envelope {
                from: &self.from,
                to: &raw.mail.to,
                reply_to: raw.mail.reply_to.as_deref(),
                subject: &raw.mail.subject,
                text: &raw.mail.text,
                html: &raw.mail.html,
                headers: raw.headers,
            },
            &boundary,
        );
        let mut tags = Vec::new();
        for (name, value) in raw.tags {
            tags.push(
                MessageTag::builder()
                    .name(name)
                    .value(value)
                    .build()
                    .map_err(|e| SendError::Permanent(e.to_string()))?,
            );
        }
        let raw_message = RawMessage::builder()
            .data(Blob::new(message.into_bytes()))
            .build()
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        // The To header names the reader: a Destination as well would make some servers count them twice.
        self.ses
            .send_email()
            .from_email_address(&self.from)
            .content(EmailContent::builder().raw(raw_message).build())
            .set_email_tags((!tags.is_empty()).then_some(tags))
            .set_configuration_set_name(configuration_set.map(str::to_owned))
            .send()
            .await
            .map(drop)
            .map_err(classify)
    }
}

fn classify(
    error: SdkError<
        aws_sdk_sesv2::operation::send_email::SendEmailError,
        aws_sdk_sesv2::config::http::HttpResponse,
    >,
) -> SendError {
    let text = aws_sdk_sesv2::error::DisplayErrorContext(&error).to_string();
    match &error {
        SdkError::ServiceError(service) => {
            let e = service.err();
            if e.is_too_many_requests_exception()
                || e.is_limit_exceeded_exception()
                || e.is_sending_paused_exception()
            {
                SendError::Transient(text)
            } else if e.is_message_rejected()
                || e.is_bad_request_exception()
                || e.is_not_found_exception()
                || e.is_mail_from_domain_not_verified_exception()
                || e.is_account_suspended_exception()
            {
                SendError::Permanent(text)
            } else {
                // An error this SDK does not model: a throttle answers 429, a fault 5xx.
                let status = service.raw().status().as_u16();
                if status == 429 || status >= 500 {
                    SendError::Transient(text)
                } else {
                    SendError::Permanent(text)
                }
            }
        }
        // Timeouts, dropped connections, unreadable answers: nothing says the address is at fault.
        _ => SendError::Transient(text),
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
