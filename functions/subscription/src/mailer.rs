//! The bulk mailer: an admin writes a subject and sections and picks lists; every distinct subscriber of
//! those lists gets one e-mail (HTML with every admin text escaped, and plain text), each with their own
//! unsubscribe link. The letter is checked here; sending is a job (`mailing`).

use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde::Deserialize;
use shared::auth::Admin;
use shared::mail::{branded_html, escape_html};
use shared::validation::bounded_text;
use shared::{ApiError, ApiResult, Json};

pub const ADD_MAIL_LIST: &str = "Add Mail List";
pub const INPUTS_EMPTY: &str = "inputs is empty";
const MAX_SECTIONS: usize = 10;

#[derive(Deserialize, Default)]
pub struct SectionInput {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    link: Option<String>,
    #[serde(default)]
    image: Option<String>,
}

#[derive(Deserialize, Default)]
pub struct LetterInput {
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    sections: Option<Vec<SectionInput>>,
}

#[derive(Deserialize)]
pub struct MailingInput {
    #[serde(rename = "MailList", default)]
    mail_list: Option<Vec<String>>,
    #[serde(default)]
    data: Option<LetterInput>,
}

/// A section as checked: trimmed, links and images only `http(s)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Section {
    pub title: String,
    pub description: String,
    pub link: String,
    pub image: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Letter {
    pub lists: Vec<String>,
    pub subject: String,
    pub sections: Vec<Section>,
}

/// What the preview and the e-mail show: a field only when it is longer than 2 characters.
fn shown(text: &str) -> Option<&str> {
    (text.chars().count() > 2).then_some(text)
}

fn long_enough(text: &str) -> bool {
    text.trim().chars().count() >= 3
}

fn web_address(field: String, value: &str) -> Result<String, ApiError> {
    let value = bounded_text(&field, value, 2_000)?;
    let lower = value.to_ascii_lowercase();
    let ok = value.is_empty()
        || ((lower.starts_with("https://") || lower.starts_with("http://"))
            && !value.chars().any(char::is_whitespace));
    if ok {
        Ok(value)
    } else {
        Err(ApiError::invalid(format!(
            "{field} must be a web address starting with http:// or https://"
        )))
    }
}

impl MailingInput {
    /// The spec's rules first (`Add Mail List`, then `inputs is empty`), then the lists and the sizes.
    pub fn check(self, state: &AppState) -> Result<Letter, ApiError> {
        let lists: Vec<String> = self
            .mail_list
            .unwrap_or_default()
            .into_iter()
            .filter(|name| !name.trim().is_empty())
            .collect();
        if lists.is_empty() {
            return Err(ApiError::invalid(ADD_MAIL_LIST));
        }
        let letter = self.data.unwrap_or_default();
        let subject = letter.subject.unwrap_or_default();
        let sections = letter.sections.unwrap_or_default();
        let first_ok = sections.first().is_some_and(|first| {
            long_enough(first.title.as_deref().unwrap_or(""))
                && long_enough(first.description.as_deref().unwrap_or(""))
        });
        if !long_enough(&subject) || !first_ok {
            return Err(ApiError::invalid(INPUTS_EMPTY));
        }
        if sections.len() > MAX_SECTIONS {
            return Err(ApiError::invalid(format!(
                "a letter has at most {MAX_SECTIONS} sections"
            )));
        }
        let lists = state.lists.resolve("MailList", &lists)?;
        let subject = bounded_text("subject", &subject, 200)?;
        let sections = sections
            .into_iter()
            .enumerate()
            .map(|(i, section)| {
                let n = i + 1;
                Ok(Section {
                    title: bounded_text(
                        &format!("section {n} title"),
                        section.title.as_deref().unwrap_or(""),
                        200,
                    )?,
                    description: bounded_text(
                        &format!("section {n} description"),
                        section.description.as_deref().unwrap_or(""),
                        5_000,
                    )?,
                    link: web_address(
                        format!("section {n} link"),
                        section.link.as_deref().unwrap_or(""),
                    )?,
                    image: web_address(
                        format!("section {n} image"),
                        section.image.as_deref().unwrap_or(""),
                    )?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(Letter {
            lists,
            subject,
            sections,
        })
    }
}

impl Letter {
    /// The HTML content (inside the shop's frame) and the text part for one reader.
    pub fn render(&self, shop: &str, unsubscribe: &str) -> (String, String) {
        let mut html = String::new();
        let mut text = String::new();
        for section in &self.sections {
            if let Some(image) = shown(&section.image) {
                html.push_str(&format!(
                    "<p><img src=\"{}\" alt=\"{}\" width=\"504\" style=\"max-width:100%;height:auto;border-radius:8px\"></p>",
                    escape_html(image),
                    escape_html(&section.title)
                ));
            }
            if let Some(title) = shown(&section.title) {
                html.push_str(&format!(
                    "<h2 style=\"font-size:20px;margin:16px 0 8px\">{}</h2>",
                    escape_html(title)
                ));
                text.push_str(&format!("{title}\n\n"));
            }
            if let Some(description) = shown(&section.description) {
                html.push_str(&format!(
                    "<p style=\"white-space:pre-wrap\">{}</p>",
                    escape_html(description)
                ));
                text.push_str(&format!("{description}\n\n"));
            }
            if let Some(link) = shown(&section.link) {
                html.push_str(&format!(
                    "<p><a href=\"{}\" style=\"color:#b3261e;font-weight:bold\">Find out more</a></p>",
                    escape_html(link)
                ));
                text.push_str(&format!("Find out more: {link}\n\n"));
            }
        }
        html.push_str(&format!(
            "<p style=\"font-size:13px;color:#6b5b53\">You get this e-mail because you subscribed to it. \
             <a href=\"{}\">Unsubscribe</a> at any time.</p>",
            escape_html(unsubscribe)
        ));
        text.push_str(&format!(
            "You get this e-mail because you subscribed to it. Unsubscribe at any time: {unsubscribe}\n"
        ));
        (branded_html(shop, &self.subject, &html), text)
    }
}

/// POST /api/subscription/mailer/: checks the letter, records the mailing `queued` and queues it; 202
/// `{message, _id, recipients}` at once, whatever the size of the lists. The sender function sends it.
pub async fn send_mailing(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<MailingInput>,
) -> ApiResult<Response> {
    let letter = input.check(&state)?;
    let mailing = crate::mailing::queue(&state, letter, state.base_url().to_owned()).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({
            "message": "Emails have been sent",
            "_id": mailing.id,
            "recipients": mailing.recipients,
        })),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(sections: Vec<Section>) -> Letter {
        Letter {
            lists: vec!["Newsletter".to_owned()],
            subject: "Summer <drinks>".to_owned(),
            sections,
        }
    }

    #[test]
    fn admin_text_is_escaped_and_short_fields_are_left_out() {
        let (html, text) = letter(vec![
            Section {
                title: "<script>alert(1)</script>".to_owned(),
                description: "Fish & \"chips\"".to_owned(),
                link: "https://example.com/?a=1&b=\"2\"".to_owned(),
                image: String::new(),
            },
            Section {
                title: "ab".to_owned(),
                description: "Long enough".to_owned(),
                link: "ht".to_owned(),
                image: "x".to_owned(),
            },
        ])
        .render("Shop", "https://shop.example/u?token=t");
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Fish &amp; &quot;chips&quot;"));
        assert!(html.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""));
        assert!(html.contains("Summer &lt;drinks&gt;"));
        assert!(!html.contains(">ab<"));
        assert!(!html.contains("<img"));
        assert!(text.contains("<script>alert(1)</script>"));
        assert!(text.contains("Unsubscribe at any time: https://shop.example/u?token=t"));
    }
}
