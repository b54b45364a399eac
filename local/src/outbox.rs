//! The local outbox: the e-mails the functions sent through the emulator's SES, a page at a time, as JSON
//! (`GET /_local/outbox`) and as a page for a person (`/_local/outbox.html`). It reads SES's sent list
//! alone (scripts/moto_serial.py's `/_shop/mails`), never the emulator's whole state. Local only.

use axum::extract::{Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shared::error::message_response;
use std::collections::BTreeMap;
use std::sync::Arc;
use testkit::emulator::{Emulator, MailQuery, SentMail};

/// Mails per page unless `limit` says otherwise: enough for a person, cheap however many were sent.
const PAGE: u32 = 50;
const MAX_PAGE: u32 = 500;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Mail {
    pub to: Vec<String>,
    pub from: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    #[serde(rename = "sentAt")]
    pub sent_at: String,
    /// What the mail was sent with beyond its body (List-Unsubscribe, ...), as the emulator kept it.
    pub headers: BTreeMap<String, String>,
    /// The mail's place in the emulator's list: `?before=` pages to mails older than it.
    pub seq: u64,
}

impl From<SentMail> for Mail {
    fn from(sent: SentMail) -> Self {
        // The emulator keeps only the HTML part of a simple mail when both were sent; the wrapper keeps the
        // text beside it, but mail sent before it did has only the one body.
        let html = sent.html.unwrap_or_default();
        let text = match sent.text {
            Some(text) => text,
            None if looks_like_html(&html) => strip_tags(&html),
            None => String::new(),
        };
        Mail {
            to: sent.to,
            from: sent.from.unwrap_or_default(),
            subject: sent.subject,
            text,
            html,
            sent_at: sent.sent_at.unwrap_or_default(),
            headers: sent.headers,
            seq: sent.seq,
        }
    }
}

/// `?limit=50&before=SEQ&to=ADDRESS`
#[derive(Debug, Default, Deserialize)]
pub struct OutboxQuery {
    limit: Option<String>,
    before: Option<String>,
    to: Option<String>,
}

impl OutboxQuery {
    fn parse(&self) -> Result<MailQuery, String> {
        let limit = match &self.limit {
            None => PAGE,
            Some(text) => text
                .parse()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| format!("limit must be a whole number from 1 to {MAX_PAGE}"))?,
        };
        let before = match &self.before {
            None => None,
            Some(text) => Some(
                text.parse()
                    .map_err(|_| "before must be a mail's seq (a whole number)".to_owned())?,
            ),
        };
        let to = self
            .to
            .as_deref()
            .map(str::trim)
            .filter(|to| !to.is_empty())
            .map(str::to_owned);
        Ok(MailQuery { limit, before, to })
    }
}

/// One page of sent mail, newest first, and the `before` of the next (older) page.
pub struct Page {
    pub mails: Vec<Mail>,
    pub next: Option<u64>,
}

pub struct Outbox {
    emulator: Emulator,
}

impl Outbox {
    pub fn new(emulator: Emulator) -> Self {
        Outbox { emulator }
    }

    /// One page of sent mail, newest first.
    pub async fn page(&self, query: MailQuery) -> Result<Page, String> {
        let emulator = self.emulator.clone();
        let page = tokio::task::spawn_blocking(move || emulator.mails(&query))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        Ok(Page {
            mails: page.mails.into_iter().map(Mail::from).collect(),
            next: page.next,
        })
    }
}

fn looks_like_html(body: &str) -> bool {
    let start = body.trim_start();
    start.starts_with('<') && body.contains("</")
}

/// Text of an HTML body: tags dropped, block ends as line breaks, entities for the common characters.
pub fn strip_tags(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    let mut tag = String::new();
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => {
                in_tag = true;
                tag.clear();
            }
            (true, '>') => {
                in_tag = false;
                let name = tag
                    .trim_start_matches('/')
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                if matches!(
                    name.as_str(),
                    "br" | "p" | "div" | "h1" | "h2" | "h3" | "tr" | "li" | "table"
                ) {
                    text.push('\n');
                }
            }
            (true, c) => tag.push(c),
            (false, c) => text.push(c),
        }
    }
    let text = text
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn emulator_silent(error: &str) -> Response {
    message_response(
        StatusCode::BAD_GATEWAY,
        &format!("The AWS emulator did not answer: {error}"),
    )
}

/// The page as JSON, newest first like the page for a person and the README; a `Link` header names the older
/// page.
pub async fn list_json(
    State(outbox): State<Arc<Outbox>>,
    Query(query): Query<OutboxQuery>,
) -> Response {
    let query = match query.parse() {
        Ok(query) => query,
        Err(message) => return message_response(StatusCode::BAD_REQUEST, &message),
    };
    let page = match outbox.page(query.clone()).await {
        Ok(page) => page,
        Err(error) => return emulator_silent(&error),
    };
    let mut response = shared::Json(page.mails).into_response();
    if let Some(next) = page.next {
        let link = format!(
            "<{}>; rel=\"next\"",
            older_page("/_local/outbox", &query, next)
        );
        if let Ok(value) = HeaderValue::from_str(&link) {
            response.headers_mut().insert(header::LINK, value);
        }
    }
    response
}

/// The address of the page older than `next`, with the same limit and recipient.
fn older_page(path: &str, query: &MailQuery, next: u64) -> String {
    let mut url = format!("{path}?before={next}&limit={}", query.limit);
    if let Some(to) = &query.to {
        url.push_str("&to=");
        url.push_str(&percent_encode(to));
    }
    url
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'@' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub async fn list_html(
    State(outbox): State<Arc<Outbox>>,
    Query(query): Query<OutboxQuery>,
) -> Response {
    let query = match query.parse() {
        Ok(query) => query,
        Err(message) => {
            return (
                StatusCode::BAD_REQUEST,
                Html(format!("<p>{}</p>", escape(&message))),
            )
                .into_response()
        }
    };
    let page = match outbox.page(query.clone()).await {
        Ok(page) => page,
        Err(error) => {
            return Html(format!(
                "<p>The AWS emulator did not answer: {}</p>",
                escape(&error)
            ))
            .into_response()
        }
    };
    let mut html = String::from(
        "<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>Local outbox</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1b}\
         article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}\
         dl{display:grid;grid-template-columns:6rem 1fr;margin:0}dt{font-weight:600}\
         iframe{width:100%;height:22rem;border:1px solid #ddd;border-radius:4px;margin-top:.5rem}\
         pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;border-radius:4px}</style></head><body>\
         <h1>Local outbox</h1><p>E-mails the shop sent through the local AWS emulator, newest first. \
         <a href=\"/_local/outbox.html\">Newest</a> · <a href=\"/_local/outbox\">JSON</a></p>",
    );
    if page.mails.is_empty() {
        html.push_str("<p>No e-mails yet. Ask for a login code on the login page and it will appear here.</p>");
    }
    for mail in &page.mails {
        html.push_str(&format!(
            "<article><dl><dt>To</dt><dd>{}</dd><dt>From</dt><dd>{}</dd><dt>Subject</dt><dd>{}</dd>\
             <dt>Sent</dt><dd>{}</dd></dl>",
            escape(&mail.to.join(", ")),
            escape(&mail.from),
            escape(&mail.subject),
            escape(&mail.sent_at)
        ));
        if mail.html.is_empty() {
            html.push_str(&format!("<pre>{}</pre>", escape(&mail.text)));
        } else {
            html.push_str(&format!(
                "<iframe sandbox title=\"{}\" srcdoc=\"{}\"></iframe>",
                escape(&mail.subject),
                escape(&mail.html)
            ));
        }
        html.push_str("</article>");
    }
    if let Some(next) = page.next {
        html.push_str(&format!(
            "<p><a href=\"{}\">Older e-mails</a></p>",
            escape(&older_page("/_local/outbox.html", &query, next))
        ));
    }
    html.push_str("</body></html>");
    Html(html).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_bodies_read_as_text() {
        assert_eq!(
            strip_tags("<h1>Your code</h1><p>Use <b>123456</b> &amp; hurry</p>"),
            "Your code\nUse 123456 & hurry"
        );
    }

    #[test]
    fn escaping_covers_attribute_quotes() {
        assert_eq!(
            escape(r#"<a href="x">'"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;"
        );
    }
}
