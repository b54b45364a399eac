//! The bulk mailer: an admin writes a subject and sections and picks lists; every distinct subscriber of
//! those lists gets one e-mail (HTML with every admin text escaped, and plain text), each with their own
//! unsubscribe link. The letter is checked here; sending is a job (`mailing`).

use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::json::Object;
use shared::mail::{branded_html, escape_html};
use shared::validation::{bounded_lines, bounded_text};
use shared::{ApiError, ApiResult, Json};

pub const ADD_MAIL_LIST: &str = "Add Mail List";
pub const INPUTS_EMPTY: &str = "inputs is empty";
const MAX_SECTIONS: usize = 10;

/// A section of a letter after the first: every field may be left out.
#[derive(Deserialize, Default, schemars::JsonSchema)]
#[schemars(rename = "MailingSection")]
pub struct SectionInput {
    /// At most 200 characters (trimmed).
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::UpTo<200>>")]
    title: Option<String>,
    /// At most 5000 characters (trimmed).
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::UpToLines<5000>>")]
    description: Option<String>,
    /// A web address (`http://` or `https://`, no spaces, at most 2000 characters), or blank.
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::WebAddress>")]
    link: Option<String>,
    /// An image's web address, as `link`.
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::WebAddress>")]
    image: Option<String>,
}

/// The first section of a letter (only described: it is read as a `SectionInput`), which must have a title
/// and a description.
#[derive(schemars::JsonSchema)]
#[schemars(rename = "MailingFirstSection")]
#[allow(dead_code)]
struct FirstSection {
    /// 3 to 200 characters (trimmed).
    title: crate::schema::Trimmed<3, 200>,
    /// 3 to 5000 characters (trimmed), on as many lines as it needs.
    description: crate::schema::TrimmedLines<3, 5_000>,
    /// A web address (`http://` or `https://`, no spaces, at most 2000 characters), or blank.
    link: Option<crate::schema::WebAddress>,
    /// An image's web address, as `link`.
    image: Option<crate::schema::WebAddress>,
}

/// A letter's sections: 1 to 10, the first with a title and a description.
struct Sections;

impl schemars::JsonSchema for Sections {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Sections".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_SECTIONS,
            "prefixItems": [generator.subschema_for::<FirstSection>()],
            "items": generator.subschema_for::<SectionInput>(),
        })
    }
}

#[derive(Deserialize, Default, schemars::JsonSchema)]
#[schemars(rename = "MailingLetter")]
pub struct LetterInput {
    /// 3 to 200 characters (trimmed).
    #[schemars(required, with = "crate::schema::Trimmed<3, 200>")]
    subject: Option<String>,
    #[schemars(required, with = "Sections")]
    sections: Option<Vec<Object<SectionInput>>>,
}

/// A bulk mailing: the lists it goes to and the letter.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct MailingInput {
    /// The lists, by name (ignoring case): every distinct subscriber on any of them gets the letter once.
    /// Blank names are left out; at least one must remain.
    #[serde(rename = "MailList")]
    #[schemars(required, with = "crate::schema::MailListNames")]
    mail_list: Option<Vec<String>>,
    #[schemars(required, with = "LetterInput")]
    data: Option<Object<LetterInput>>,
}

/// The answer to a mailing accepted for sending.
#[derive(Serialize, schemars::JsonSchema)]
pub struct MailingQueued {
    message: String,
    /// The mailing's id: `GET /api/subscription/mailings/{id}` shows its progress.
    #[serde(rename = "_id")]
    id: String,
    /// Subscribers on the lists when it was queued.
    recipients: u64,
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
        let Object(letter) = self.data.unwrap_or_default();
        let subject = letter.subject.unwrap_or_default();
        let sections: Vec<SectionInput> = letter
            .sections
            .unwrap_or_default()
            .into_iter()
            .map(|Object(section)| section)
            .collect();
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
                    description: bounded_lines(
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
        Json(MailingQueued {
            message: "Emails have been sent".to_owned(),
            id: mailing.id,
            recipients: mailing.recipients,
        }),
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
