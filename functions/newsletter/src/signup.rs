//! Double opt-in (UK PECR practice): a sign-up only records a pending entry and e-mails a confirmation
//! link; the address joins the lists (and gets the welcome) when the link is followed. Unconfirmed entries
//! expire after `PENDING_HOURS` (the table's TTL removes them; the link refuses them before that). The link
//! is `?token={id}.{expires}.{signature}`, an HMAC with a key derived from the unsubscribe secret, so only
//! the mail's reader can confirm. It opens the storefront's confirmation page, whose button sends
//! `POST /api/subscription/confirm/ {token}`: a mail scanner that fetches the link confirms nothing (an
//! older mail's link to the API's own address only leads to that page).

use crate::AppState;
use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{header, StatusCode};
use serde::Deserialize;
use shared::dynamo::{get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item};
use shared::extract::Query;
use shared::json::{Created, Message};
use shared::mail::{branded_html, escape_html, Mail};
use shared::outbox::QueuedMail;
use shared::rate::{PerSender, SourceIp, Window};
use shared::signed::LinkKey;
use shared::validation::{bounded_text, Email};
use shared::{ApiError, ApiResult, Json};

/// Sign-ups one e-mail address may make in an hour.
pub const LIMIT_PER_EMAIL: usize = 5;
/// Sign-ups one source address may make in an hour. Generous: behind CloudFront the source address is the
/// edge location's, shared by every shopper near it.
pub const LIMIT_PER_IP: usize = 30;
const HOUR: i64 = 3600;

/// Names the sign-ups' windows (`SUBSCRIBE-RATE#…`).
pub const RATE_SCOPE: &str = "SUBSCRIBE";

const LIMITS: PerSender<'static> = PerSender {
    scope: RATE_SCOPE,
    per_email: Window {
        limit: LIMIT_PER_EMAIL,
        seconds: HOUR,
    },
    per_email_refusal: "This e-mail address was signed up several times already",
    per_ip: Window {
        limit: LIMIT_PER_IP,
        seconds: HOUR,
    },
    per_ip_refusal: "Many sign-ups came from your network in the last hour",
};

/// The one answer to every accepted sign-up, new or known, pending or not: the form never tells who is
/// subscribed.
pub const SIGNED_UP: &str =
    "Thank you for subscribing: please confirm with the link we have e-mailed you. \
     You can unsubscribe at any time from the link in every e-mail.";
pub const CONFIRMED: &str =
    "You are subscribed. Thank you: you can unsubscribe at any time from the link in every e-mail.";
pub const BAD_CONFIRM: &str =
    "This confirmation link has expired or was used already: sign up again from the shop.";

/// How long a confirmation link works.
pub const PENDING_HOURS: i64 = 48;
/// A repeated sign-up within this long mails no second confirmation (the first is still on its way).
pub const RESEND_AFTER_SECONDS: i64 = 3600;

pub struct ConfirmKey(LinkKey);

impl ConfirmKey {
    pub fn new(secret: &[u8]) -> Self {
        ConfirmKey(LinkKey::derive(secret, b"confirm-links-v1"))
    }

    fn message(id: &str, expires: i64) -> Vec<u8> {
        format!("{id}\n{expires}").into_bytes()
    }

    pub fn token(&self, id: &str, expires: i64) -> String {
        format!(
            "{id}.{expires}.{}",
            self.0.sign(&Self::message(id, expires))
        )
    }

    /// The subscriber id a genuine, unexpired token names.
    pub fn verify(&self, token: &str, now: i64) -> Option<String> {
        let mut parts = token.trim().split('.');
        let (id, expires, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !crate::links::is_subscriber_id(id) {
            return None;
        }
        let expires: i64 = expires.parse().ok()?;
        (expires >= now && self.0.verifies(&Self::message(id, expires), signature))
            .then(|| id.to_owned())
    }
}

/// A sign-up waiting for its confirmation.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub id: String,
    pub email: String,
    pub fullname: String,
    pub lists: Vec<String>,
    pub expires_at: i64,
    pub sent_at: i64,
}

pub fn pending_key(id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("PENDING#{id}"))),
        ("sk".to_owned(), s("PENDING")),
    ])
}

impl Pending {
    pub fn to_item(&self) -> Item {
        let mut item = pending_key(&self.id);
        item.extend([
            ("email".to_owned(), s(&self.email)),
            ("fullname".to_owned(), s(&self.fullname)),
            ("lists".to_owned(), string_list(&self.lists)),
            // The table's TTL attribute: an unconfirmed sign-up goes by itself.
            ("expiresAt".to_owned(), n(self.expires_at)),
            ("sentAt".to_owned(), n(self.sent_at)),
        ]);
        item
    }

    pub fn from_item(item: &Item) -> Result<Pending, ApiError> {
        let pk = get_s(item, "pk")?;
        Ok(Pending {
            id: pk.trim_start_matches("PENDING#").to_owned(),
            email: get_s(item, "email")?,
            fullname: get_s_or_default(item, "fullname"),
            lists: get_string_list(item, "lists"),
            expires_at: get_n(item, "expiresAt")?,
            sent_at: get_n(item, "sentAt").unwrap_or(0),
        })
    }
}

pub async fn load(state: &AppState, id: &str) -> Result<Option<Pending>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(pending_key(id)))
        .consistent_read(true)
        .send()
        .await
        .map_err(ApiError::internal)?;
    found.item.as_ref().map(Pending::from_item).transpose()
}

/// The token of the confirmation link mailed to `email`, while its sign-up waits (the local seed and tests
/// follow it as a reader would).
pub async fn confirmation_token(state: &AppState, email: &str) -> Result<Option<String>, ApiError> {
    let id = crate::links::id_of(&Email::parse_normalised(email)?);
    Ok(load(state, &id)
        .await?
        .map(|pending| state.confirm.token(&pending.id, pending.expires_at)))
}

/// The storefront's page a confirmation link opens.
pub const CONFIRM_PAGE: &str = "/confirm/subscription";

/// The confirmation link of a pending sign-up.
pub fn link(state: &AppState, pending: &Pending) -> String {
    format!(
        "{}{CONFIRM_PAGE}?token={}",
        state.base_url(),
        state.confirm.token(&pending.id, pending.expires_at)
    )
}

pub fn confirmation_mail(state: &AppState, pending: &Pending) -> Mail {
    let link = link(state, pending);
    let lists = pending.lists.join(", ");
    let html = format!(
        "<p>Please confirm that you want {lists} from {shop} at this address:</p>\
         <p><a href=\"{link}\" style=\"font-weight:bold\">Yes, subscribe me</a></p>\
         <p style=\"font-size:13px\">The link works for {hours} hours. If you did not sign up, ignore this \
         e-mail: you will not hear from us again.</p>",
        lists = escape_html(&lists),
        shop = escape_html(&state.shop_name),
        link = escape_html(&link),
        hours = PENDING_HOURS,
    );
    Mail {
        to: pending.email.clone(),
        subject: format!("Confirm your subscription to {}", state.shop_name),
        html: branded_html(&state.shop_name, "Confirm your subscription", &html),
        text: format!(
            "Please confirm that you want {lists} from {} at this address: {link}\n\nThe link works for \
             {PENDING_HOURS} hours. If you did not sign up, ignore this e-mail: you will not hear from us \
             again.\n",
            state.shop_name
        ),
        reply_to: None,
    }
}

/// A sign-up to the mail lists.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct SignUp {
    /// A valid e-mail address (trimmed, compared lower-cased).
    #[schemars(with = "crate::schema::Email")]
    email: String,
    /// At most 100 characters (trimmed).
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::UpTo<100>>")]
    fullname: Option<String>,
    /// The lists to join, by name (ignoring case); none joins the first list. On a second sign-up they
    /// are added to the lists the address is on.
    #[serde(default)]
    #[schemars(with = "Option<Vec<crate::schema::ListName>>")]
    lists: Option<Vec<String>>,
}

/// POST /api/subscription/create/: 201 `{message}`, the same for a new, a pending and a known address.
/// Records the sign-up as pending and e-mails the confirmation link (not again within an hour); an address
/// already on every list asked for gets nothing.
pub async fn create_subscriber(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Json(input): Json<SignUp>,
) -> ApiResult<Created<Message>> {
    let email = Email::parse_normalised(&input.email)?;
    let fullname = bounded_text("fullname", input.fullname.as_deref().unwrap_or(""), 100)?;
    let mut lists = state
        .lists
        .resolve("lists", input.lists.as_deref().unwrap_or_default())?;
    if lists.is_empty() {
        lists.push(state.lists.default_list().to_owned());
    }
    let now = shared::time::now_unix();
    let mut writes = LIMITS
        .reserve(&state.db, &state.table, email.as_str(), ip.as_deref(), now)
        .await?;
    let signed_up = Created(Message {
        message: SIGNED_UP.to_owned(),
    });
    if crate::subscriber::is_on_all(&state, &email, &lists).await? {
        run(&state, writes).await?;
        return Ok(signed_up);
    }
    let id = crate::links::id_of(&email);
    let earlier = load(&state, &id).await?.filter(|p| p.expires_at >= now);
    let resend = earlier
        .as_ref()
        .is_none_or(|p| now - p.sent_at >= RESEND_AFTER_SECONDS);
    let mut merged = earlier
        .as_ref()
        .map(|p| p.lists.clone())
        .unwrap_or_default();
    merged.extend(lists);
    let pending = Pending {
        id,
        email: email.into_inner(),
        fullname: if fullname.is_empty() {
            earlier
                .as_ref()
                .map(|p| p.fullname.clone())
                .unwrap_or_default()
        } else {
            fullname
        },
        lists: state.lists.resolve("lists", &merged)?,
        expires_at: now + PENDING_HOURS * 3600,
        sent_at: if resend {
            now
        } else {
            earlier.as_ref().map_or(now, |p| p.sent_at)
        },
    };
    writes.push(
        TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(&*state.table)
                    .set_item(Some(pending.to_item()))
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build(),
    );
    let mail = if resend {
        let (item, handle) = state
            .outbox
            .put(&QueuedMail::new(confirmation_mail(&state, &pending)))?;
        writes.push(item);
        Some(handle)
    } else {
        None
    };
    run(&state, writes).await?;
    if let Some(mail) = mail {
        state.outbox.enqueue(mail).await;
    }
    Ok(signed_up)
}

async fn run(state: &AppState, writes: Vec<TransactWriteItem>) -> Result<(), ApiError> {
    state
        .db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await
        .map(drop)
        .map_err(shared::rate::busy_or_internal)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ConfirmQuery {
    /// The token of the link in the confirmation e-mail (`{id}.{expires}.{signature}`). Any text is
    /// taken: the link always leads to the page, without what is not a token (over 200 characters, or
    /// other than letters, digits and dots), and the page says the link does not work.
    token: Option<String>,
}

/// GET /api/subscription/confirm/?token=...: where confirmation mails sent before the confirmation page
/// existed still lead. It confirms nothing (mail scanners fetch links): 303 to the storefront's page, whose
/// button confirms.
pub async fn open_confirmation(
    State(state): State<AppState>,
    query: Result<Query<ConfirmQuery>, ApiError>,
) -> Response {
    let token = query
        .ok()
        .and_then(|Query(query)| query.token)
        .filter(|token| {
            token.len() <= 200
                && token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.')
        })
        .unwrap_or_default();
    let page = format!("{}{CONFIRM_PAGE}?token={token}", state.base_url());
    (
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, page),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response()
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ConfirmSubscription {
    /// The token of the link in the confirmation e-mail (`{id}.{expires}.{signature}`).
    #[schemars(regex(pattern = r"^[0-9a-f]{32}\.[0-9]{1,12}\.[0-9a-f]{64}$"))]
    token: String,
}

/// POST /api/subscription/confirm/ `{token}`: the confirmation page's button. The pending sign-up joins its
/// lists (the counts and, for a new address, the welcome in the same transaction) and is removed; 400 for
/// a forged, expired or used link, 409 for two confirmations at once.
pub async fn confirm_subscription(
    State(state): State<AppState>,
    Json(body): Json<ConfirmSubscription>,
) -> ApiResult<Json<Message>> {
    let now = shared::time::now_unix();
    let pending = match state.confirm.verify(&body.token, now) {
        Some(id) => load(&state, &id).await?.filter(|p| p.expires_at >= now),
        None => None,
    };
    let Some(pending) = pending else {
        return Err(ApiError::bad_request(BAD_CONFIRM));
    };
    let email = Email::parse_normalised(&pending.email)?;
    let (mut writes, welcome) = crate::subscriber::join(
        &state,
        email,
        pending.fullname.clone(),
        pending.lists.clone(),
    )
    .await?;
    // Used once: only one of two clicks at once removes the pending sign-up, so it joins once.
    writes.push(
        TransactWriteItem::builder()
            .delete(
                Delete::builder()
                    .table_name(&*state.table)
                    .set_key(Some(pending_key(&pending.id)))
                    .condition_expression("attribute_exists(pk)")
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build(),
    );
    let joined = state
        .db
        .transact_write_items()
        .set_transact_items(Some(writes))
        .send()
        .await;
    match joined {
        Ok(_) => {}
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception()) =>
        {
            return Err(ApiError::conflict(
                "This subscription was confirmed or changed meanwhile: try the link again",
            ))
        }
        Err(error) => return Err(ApiError::internal(error)),
    }
    if let Some(welcome) = welcome {
        state.outbox.enqueue(welcome).await;
    }
    Ok(Message::new(CONFIRMED))
}

#[cfg(test)]
mod tests {
    use super::ConfirmKey;

    #[test]
    fn a_confirmation_token_names_its_subscriber_until_it_expires() {
        let key = ConfirmKey::new(b"a-secret-of-at-least-thirty-two-chars");
        let id = "a".repeat(32);
        let token = key.token(&id, 1_000);
        assert_eq!(key.verify(&token, 999).as_deref(), Some(id.as_str()));
        assert_eq!(key.verify(&token, 1_001), None, "expired");
        assert_eq!(key.verify(&token.replace(".1000.", ".9000."), 999), None);
        let other = ConfirmKey::new(b"another-secret-of-at-least-32-chars!!");
        assert_eq!(other.verify(&token, 999), None);
    }
}
