//! The bulk mailer: an admin writes a subject and sections and picks lists; every distinct subscriber of
//! those lists gets one e-mail (HTML with every admin text escaped, and plain text), each with their own
//! unsubscribe link. The letter is checked here (`letter` is what it becomes); sending is a job (`mailing`).

use crate::letter::{Letter, Section};
use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::extract::Query;
use shared::json::Object;
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
            // Queued, not sent: the sender function works through the lists after this answer.
            message: "The mailing is queued: it goes out in the background".to_owned(),
            id: mailing.id,
            recipients: mailing.recipients,
        }),
    )
        .into_response())
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct RecipientsQuery {
    /// The mail lists, their names separated by commas (names are matched ignoring case).
    #[schemars(required, length(max = 2000))]
    lists: Option<String>,
}

/// How many subscribers a mailing would reach.
#[derive(Serialize, schemars::JsonSchema)]
pub struct RecipientCount {
    /// Subscribers on any of the lists, each counted once.
    recipients: u64,
}

/// GET /api/subscription/recipients/?lists=…: how many subscribers a mailing to those lists would reach
/// now, a reader on two lists counted once (the count the mailer records when it queues), so the admin's
/// question before sending names the real number.
pub async fn count_mailing_recipients(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<RecipientsQuery>,
) -> ApiResult<Json<RecipientCount>> {
    let names: Vec<String> = query
        .lists
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    if names.is_empty() {
        return Err(ApiError::invalid(ADD_MAIL_LIST));
    }
    let lists = state.lists.resolve("lists", &names)?;
    Ok(Json(RecipientCount {
        recipients: crate::mailing::count_recipients(&state, &lists).await?,
    }))
}
