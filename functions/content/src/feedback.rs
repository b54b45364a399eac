//! The contact form: a message from a visitor, kept in the table and e-mailed to the shop with the sender
//! as reply-to. Each sender may send a few an hour.

use crate::rules;
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use axum::extract::State;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use shared::dynamo::{s, Item};
use shared::json::Created;
use shared::mail::{branded_html, escape_html, Mail};
use shared::validation::{without_controls, Email, FullName, Lines, Phone};
use shared::{ApiError, ApiResult, Json};

pub const MAX_PER_HOUR: usize = 5;
/// How long a contact message is kept: a year.
pub const KEEP_SECONDS: i64 = 365 * 24 * 60 * 60;
pub const REPLY_PROMISE: &str =
    "Thank you: we reply within 24 hours on business days (Monday to Friday).";

/// A visitor's message through the contact form.
#[derive(Deserialize, JsonSchema)]
pub struct FeedbackInput {
    #[schemars(regex(pattern = rules::full_name()), length(max = 100))]
    fullname: String,
    #[schemars(regex(pattern = rules::EMAIL))]
    email: String,
    #[schemars(regex(pattern = rules::PHONE), length(max = 30))]
    phone: String,
    /// 10 to 1000 characters once trimmed.
    #[schemars(regex(pattern = rules::message()), length(max = 1_000))]
    message: String,
}

/// The stored message's id and the shop's promise to reply.
#[derive(Serialize, JsonSchema)]
pub struct FeedbackSent {
    #[serde(rename = "_id")]
    id: String,
    message: &'static str,
}

/// Contact messages one viewer address may send in an hour, whatever the e-mail addresses they give: the
/// per-sender limit alone let one client make the shop mail on behalf of any number of addresses.
pub const PER_ADDRESS: shared::rate::AddressLimit = shared::rate::AddressLimit {
    scope: "FEEDBACK",
    limit: 10,
    seconds: 3600,
    refusal: "Many messages came from your network in the last hour",
};

/// The key of the window that counts one address's messages, read and deleted by this exact key for the
/// person's export and erasure.
pub fn rate_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("FEEDBACK-RATE#{email}"))),
        ("sk".to_owned(), s("RATE")),
    ])
}

/// The contact form's message, capped like every free-text message (docs/validation.md).
pub const MESSAGE_MAX: usize = 1_000;

pub async fn send_feedback(
    State(state): State<AppState>,
    Json(input): Json<FeedbackInput>,
) -> ApiResult<Created<FeedbackSent>> {
    let fullname = FullName::parse(&input.fullname)?;
    let email = Email::parse_normalised(&input.email)?;
    let phone = Phone::parse(&input.phone)?;
    // The cap counts the text as sent (the document's maxLength), the minimum what is left once trimmed.
    let message = without_controls("message", &input.message, Lines::Many)?.trim();
    let length = message.chars().count();
    if length < 10 || input.message.chars().count() > MESSAGE_MAX {
        return Err(ApiError::invalid(format!(
            "message must be from 10 to {MESSAGE_MAX} characters"
        )));
    }
    let now = shared::time::now_unix();
    let rate = shared::rate::reserve(
        &state.db,
        &state.table,
        rate_key(email.as_str()),
        &shared::rate::Window {
            limit: MAX_PER_HOUR,
            seconds: 3600,
        },
        now,
        "You have sent several messages already",
    )
    .await?;
    let id = shared::store::new_id();
    let at = shared::time::now_iso();
    let item = shared::personal::tagged(
        Item::from([
            ("pk".to_owned(), s(format!("FEEDBACK#{id}"))),
            ("sk".to_owned(), s("FEEDBACK")),
            ("gsi1pk".to_owned(), s("FEEDBACK-LIST")),
            ("gsi1sk".to_owned(), s(format!("{at}#{id}"))),
            ("fullname".to_owned(), s(fullname.as_str())),
            ("email".to_owned(), s(email.as_str())),
            ("phone".to_owned(), s(phone.as_str())),
            ("message".to_owned(), s(message)),
            ("createdAt".to_owned(), s(&at)),
            // Kept a year, as the privacy notice says, then removed by the table's TTL.
            (
                "expiresAt".to_owned(),
                shared::dynamo::n(shared::time::now_unix() + KEEP_SECONDS),
            ),
        ]),
        email.as_str(),
    );
    let put = Put::builder()
        .table_name(&*state.table)
        .set_item(Some(item))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db
        .transact_write_items()
        .transact_items(rate)
        .transact_items(TransactWriteItem::builder().put(put).build())
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;

    let shop_address = crate::site::load(&state)
        .await?
        .map(|site| site.email)
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| state.mail_from.to_string());
    let body = format!(
        "<p><strong>{}</strong> ({}, {}) wrote:</p><p style=\"white-space:pre-wrap\">{}</p><p>Reply to this e-mail to answer them.</p>",
        escape_html(fullname.as_str()),
        escape_html(email.as_str()),
        escape_html(phone.as_str()),
        escape_html(message)
    );
    state
        .mailer
        .send(Mail {
            to: shop_address,
            subject: format!("Message from {} via the contact form", fullname.as_str()),
            html: branded_html(&state.shop_name, "Contact form", &body),
            text: format!(
                "{} ({}, {}) wrote:\n\n{}\n\nReply to this e-mail to answer them.\n",
                fullname.as_str(),
                email.as_str(),
                phone.as_str(),
                message
            ),
            reply_to: Some(email.into_inner()),
        })
        .await?;
    Ok(Created(FeedbackSent {
        id,
        message: REPLY_PROMISE,
    }))
}
