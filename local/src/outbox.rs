//! The local outbox: every e-mail the functions sent through the emulator's SES, as JSON
//! (`GET /_local/outbox`) and as a page for a person (`/_local/outbox.html`). Local only.

use axum::extract::State;
use axum::response::{Html, IntoResponse, Response};
use serde::Serialize;
use shared::emulator::Emulator;
use shared::error::message_response;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Mail {
    pub to: Vec<String>,
    pub from: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The mail's own headers (`List-Unsubscribe`, ...): those of a raw (queued) mail; a simple send's
    /// are the ones SES writes from its fields.
    pub headers: BTreeMap<String, String>,
    #[serde(rename = "sentAt")]
    pub sent_at: String,
}

pub struct Outbox {
    emulator: Emulator,
    /// The emulator keeps no send times: the first time the gateway sees a message stands in.
    /// With the order the gateway first saw each message in, which the list keeps (simple and raw sends
    /// are two lists in the emulator, and times to the second cannot order them).
    first_seen: Mutex<HashMap<String, (usize, String)>>,
}

impl Outbox {
    pub fn new(emulator: Emulator) -> Self {
        Outbox {
            emulator,
            first_seen: Mutex::new(HashMap::new()),
        }
    }

    /// Every sent e-mail, newest last.
    pub async fn mails(&self) -> Result<Vec<Mail>, String> {
        let emulator = self.emulator.clone();
        let data = tokio::task::spawn_blocking(move || emulator.get("/moto-api/data.json"))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let data: serde_json::Value = serde_json::from_str(&data).map_err(|e| e.to_string())?;
        let messages = data["ses"]["Message"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let raw = data["ses"]["RawMessage"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut first_seen = self.first_seen.lock().map_err(|e| e.to_string())?;
        let mut mails: Vec<(usize, Mail)> = messages
            .iter()
            .map(|message| {
                let id = message["id"].as_str().unwrap_or_default().to_owned();
                let (order, sent_at) = seen(&mut first_seen, id);
                let body = message["body"].as_str().unwrap_or_default().to_owned();
                // The emulator keeps only the HTML part when both were sent.
                let (text, html) = if looks_like_html(&body) {
                    (strip_tags(&body), body)
                } else {
                    (body, String::new())
                };
                let to = strings(&message["destinations"]["ToAddresses"]);
                let from = message["source"].as_str().unwrap_or_default().to_owned();
                let subject = message["subject"].as_str().unwrap_or_default().to_owned();
                let headers = BTreeMap::from([
                    ("From".to_owned(), from.clone()),
                    ("To".to_owned(), to.join(", ")),
                    ("Subject".to_owned(), subject.clone()),
                ]);
                (
                    order,
                    Mail {
                        to,
                        from,
                        subject,
                        text,
                        html,
                        headers,
                        sent_at,
                    },
                )
            })
            .collect();
        // Queued mail goes out as raw MIME (so it keeps its own headers): read the parts and headers back.
        for message in &raw {
            let id = message["id"].as_str().unwrap_or_default().to_owned();
            let (order, sent_at) = seen(&mut first_seen, id);
            let parsed = shared::mime::parse(message["raw_data"].as_str().unwrap_or_default());
            let header = |name: &str| parsed.header(name).unwrap_or_default().to_owned();
            mails.push((
                order,
                Mail {
                    to: strings(&message["destinations"]),
                    from: message["source"].as_str().unwrap_or_default().to_owned(),
                    subject: header("Subject"),
                    text: parsed.text.clone(),
                    html: parsed.html.clone(),
                    headers: parsed.headers.iter().cloned().collect(),
                    sent_at,
                },
            ));
        }
        // Newest last across both kinds, in the order the gateway first saw them.
        mails.sort_by_key(|(order, _)| *order);
        Ok(mails.into_iter().map(|(_, mail)| mail).collect())
    }
}

/// When (and in which order) the gateway first saw message `id`: the emulator keeps no send times.
fn seen(first_seen: &mut HashMap<String, (usize, String)>, id: String) -> (usize, String) {
    let next = first_seen.len();
    first_seen
        .entry(id)
        .or_insert_with(|| (next, shared::time::now_iso()))
        .clone()
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
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

pub async fn list_json(State(outbox): State<Arc<Outbox>>) -> Response {
    match outbox.mails().await {
        Ok(mails) => shared::Json(mails).into_response(),
        Err(error) => message_response(
            axum::http::StatusCode::BAD_GATEWAY,
            &format!("The AWS emulator did not answer: {error}"),
        ),
    }
}

pub async fn list_html(State(outbox): State<Arc<Outbox>>) -> Response {
    let mails = match outbox.mails().await {
        Ok(mails) => mails,
        Err(error) => {
            return Html(format!(
                "<p>The AWS emulator did not answer: {}</p>",
                escape(&error)
            ))
            .into_response()
        }
    };
    let mut page = String::from(
        "<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>Local outbox</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1b}\
         article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}\
         dl{display:grid;grid-template-columns:6rem 1fr;margin:0}dt{font-weight:600}\
         iframe{width:100%;height:22rem;border:1px solid #ddd;border-radius:4px;margin-top:.5rem}\
         pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;border-radius:4px}</style></head><body>\
         <h1>Local outbox</h1><p>E-mails the shop sent through the local AWS emulator, newest first. \
         <a href=\"/_local/outbox.html\">Refresh</a> · <a href=\"/_local/outbox\">JSON</a></p>",
    );
    if mails.is_empty() {
        page.push_str("<p>No e-mails yet. Ask for a login code on the login page and it will appear here.</p>");
    }
    for mail in mails.iter().rev() {
        page.push_str(&format!(
            "<article><dl><dt>To</dt><dd>{}</dd><dt>From</dt><dd>{}</dd><dt>Subject</dt><dd>{}</dd>\
             <dt>Seen</dt><dd>{}</dd></dl>",
            escape(&mail.to.join(", ")),
            escape(&mail.from),
            escape(&mail.subject),
            escape(&mail.sent_at)
        ));
        let own: Vec<String> = mail
            .headers
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "From" | "To" | "Subject"))
            .map(|(name, value)| format!("{}: {}", escape(name), escape(value)))
            .collect();
        if !own.is_empty() {
            page.push_str(&format!(
                "<details><summary>Headers</summary><pre>{}</pre></details>",
                own.join("\n")
            ));
        }
        if mail.html.is_empty() {
            page.push_str(&format!("<pre>{}</pre>", escape(&mail.text)));
        } else {
            page.push_str(&format!(
                "<iframe sandbox title=\"{}\" srcdoc=\"{}\"></iframe>",
                escape(&mail.subject),
                escape(&mail.html)
            ));
        }
        page.push_str("</article>");
    }
    page.push_str("</body></html>");
    Html(page).into_response()
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
