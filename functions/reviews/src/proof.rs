//! What makes a review "verified": proof that its writer holds the address of a buyer of the drink. Three
//! ways give it: writing signed in as that buyer, writing through the delivered e-mail's "review what you
//! bought" link (shared::review_links), or following the confirmation link that a review with a typed
//! address mails to that address. Typing someone's address proves nothing, and no answer tells the writer
//! whether an address bought anything: a typed review is answered unverified whoever its address is, and
//! the confirmation mail goes only to an address that bought the drink (nobody else could be verified by
//! it, so nobody else is mailed).
//!
//! One verified review per buyer and drink: the first proven review puts a mark under the buyer's address
//! (`pk = REVIEW-VERIFIED#{email}`, `sk = PRODUCT#{drink}`, found by that exact key for their data
//! rights); a later review of the same drink by the same buyer is shown, unverified.
//!
//! A confirmation token is `{review id}.{expires}.{signature}`, an HMAC with a key derived from
//! `MAIL_LINK_KEY` for these links alone. Its link opens the storefront's page, whose button sends
//! `POST /api/reviews/confirm/ {token}`: a mail scanner that fetches the link confirms nothing.

use crate::review::{self, Review};
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::dynamo::{b, s, Item};
use shared::extract::Query;
use shared::json::Message;
use shared::mail::{branded_html, escape_html, Mail};
use shared::outbox::QueuedMail;
use shared::review_links::ReviewLinks;
use shared::signed::LinkKey;
use shared::{ApiError, ApiResult, Json};

/// How long a review's confirmation link works.
pub const CONFIRM_DAYS: i64 = 7;
/// The storefront's page a confirmation link opens.
pub const CONFIRM_PAGE: &str = "/confirm/review";

pub const BAD_LINK: &str = "This review link is not valid or has expired";
pub const BAD_CONFIRM: &str = "This confirmation link is not valid or has expired";

/// The keys of the two kinds of links: the delivered e-mail's and the confirmation's.
pub struct Links {
    pub invitations: ReviewLinks,
    confirm: LinkKey,
}

impl Links {
    pub fn new(secret: &[u8]) -> Self {
        Links {
            invitations: ReviewLinks::new(secret),
            confirm: LinkKey::derive(secret, b"review-confirm-v1"),
        }
    }

    fn confirm_message(id: &str, expires: i64) -> Vec<u8> {
        format!("{id}\n{expires}").into_bytes()
    }

    pub fn confirm_token(&self, id: &str, expires: i64) -> String {
        format!(
            "{id}.{expires}.{}",
            self.confirm.sign(&Self::confirm_message(id, expires))
        )
    }

    /// The review a genuine, unexpired confirmation token names.
    pub fn confirmed_review(&self, token: &str, now: i64) -> Option<String> {
        let mut parts = token.trim().split('.');
        let (id, expires, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !review::is_review_id(id) {
            return None;
        }
        let expires: i64 = expires.parse().ok()?;
        (expires >= now
            && self
                .confirm
                .verifies(&Self::confirm_message(id, expires), signature))
        .then(|| id.to_owned())
    }
}

/// The partition of one address's marks: the address whole.
pub fn mark_prefix(email: &str) -> String {
    format!("REVIEW-VERIFIED#{email}")
}

/// The mark of a buyer's verified review of a drink.
pub fn mark_key(email: &str, product: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(mark_prefix(email))),
        ("sk".to_owned(), s(format!("PRODUCT#{product}"))),
    ])
}

/// Whether `email` has a verified review of `product` already.
pub async fn has_mark(state: &AppState, email: &str, product: &str) -> Result<bool, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(mark_key(email, product)))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found.item().is_some())
}

/// The write of the mark, conditional on there being none: of two proven reviews at once, one is verified.
pub fn put_mark(
    state: &AppState,
    email: &str,
    product: &str,
    review: &str,
) -> Result<TransactWriteItem, ApiError> {
    let mut item = mark_key(email, product);
    item.insert("review".to_owned(), s(review));
    let put = Put::builder()
        .table_name(&*state.table)
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk)")
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

/// The buyer a delivered e-mail's link stands for, and the drink; 422 for a forged or expired link, or
/// one whose order is not (or no longer) a purchase of the drink.
pub async fn invitation(
    state: &AppState,
    token: &str,
) -> Result<(orders::purchases::Buyer, String), ApiError> {
    let refused = || ApiError::invalid(BAD_LINK);
    let invitation = state
        .links
        .invitations
        .verify(token, shared::time::now_unix())
        .ok_or_else(refused)?;
    let buyer = orders::purchases::buyer_of(
        &state.db,
        &state.orders_table,
        &invitation.order,
        &invitation.product,
    )
    .await?
    .ok_or_else(refused)?;
    Ok((buyer, invitation.product))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct InvitationQuery {
    /// The `write` token of the delivered e-mail's link.
    #[schemars(required, length(max = 400))]
    token: Option<String>,
}

/// What the review form is filled in with for a delivered e-mail's link.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Invitation {
    /// The buyer's name on the order (they may change it).
    fullname: String,
    /// The drink's `_id`.
    products: String,
    #[serde(rename = "productName")]
    product_name: String,
}

/// GET /api/reviews/invitation/?token=...: the name and drink a "review what you bought" link fills the
/// form with (never the address); 422 for a link that is not valid.
pub async fn show_invitation(
    State(state): State<AppState>,
    Query(query): Query<InvitationQuery>,
) -> ApiResult<Json<Invitation>> {
    let (buyer, product) = invitation(&state, query.token.as_deref().unwrap_or_default()).await?;
    Ok(Json(Invitation {
        fullname: buyer.fullname,
        products: product,
        product_name: buyer.drink,
    }))
}

/// The confirmation mail of a review written with a typed address, for the outbox.
pub fn confirmation_mail(state: &AppState, review: &Review) -> QueuedMail {
    let expires = shared::time::now_unix() + CONFIRM_DAYS * 24 * 3600;
    let link = format!(
        "{}{CONFIRM_PAGE}?token={}",
        state.site_url,
        state.links.confirm_token(&review.id, expires)
    );
    let content = format!(
        "<p>A review of <strong>{drink}</strong> was written on {shop} with this address, signed \
         \u{201c}{name}\u{201d}.</p>\
         <p>If it was you, confirm it and it will show as a verified buyer's review:</p>\
         <p><a href=\"{link}\" style=\"font-weight:bold\">Confirm my review</a></p>\
         <p style=\"font-size:13px\">The link works for {days} days. If it was not you, ignore this e-mail: \
         the review stays unverified, and you can report it on the reviews page.</p>",
        drink = escape_html(&review.product_name),
        shop = escape_html(&state.shop_name),
        name = escape_html(&review.fullname),
        link = escape_html(&link),
        days = CONFIRM_DAYS,
    );
    QueuedMail::new(Mail {
        to: review.email.clone(),
        subject: format!("Confirm your review on {}", state.shop_name),
        html: branded_html(&state.shop_name, "Confirm your review", &content),
        text: format!(
            "A review of {} was written on {} with this address, signed \u{201c}{}\u{201d}.\n\nIf it was \
             you, confirm it and it will show as a verified buyer's review: {link}\n\nThe link works for \
             {CONFIRM_DAYS} days. If it was not you, ignore this e-mail: the review stays unverified, and \
             you can report it on the reviews page.\n",
            review.product_name, state.shop_name, review.fullname
        ),
        reply_to: None,
    })
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ConfirmReview {
    /// The `token` of the confirmation link (`{review id}.{expires}.{signature}`).
    #[schemars(length(max = 200))]
    token: String,
}

pub const CONFIRMED: &str = "Thank you: your review is confirmed and shows as a verified buyer's.";
pub const NOT_A_BUYER: &str =
    "Thank you for confirming. We found no paid order of this drink for your address, so the review \
     stays unverified.";
pub const ALREADY: &str =
    "Thank you: you have a verified review of this drink already, so this one stays unverified.";

/// POST /api/reviews/confirm/ `{token}`: the writer proves the review's address is theirs; the review is
/// verified when that address paid for the drink. Confirming twice changes nothing. 400 for a forged,
/// expired or removed review's link.
pub async fn confirm_review(
    State(state): State<AppState>,
    Json(body): Json<ConfirmReview>,
) -> ApiResult<Json<Message>> {
    let refused = || ApiError::bad_request(BAD_CONFIRM);
    let id = state
        .links
        .confirmed_review(&body.token, shared::time::now_unix())
        .ok_or_else(refused)?;
    let found = state
        .db
        .get_item()
        .table_name(&*state.table)
        .set_key(Some(review::key(&id)))
        .consistent_read(true)
        .send()
        .await?;
    let review = Review::from_item(found.item().ok_or_else(refused)?)?;
    if review.verified {
        return Ok(Message::new(CONFIRMED));
    }
    let bought = orders::purchases::has_bought(
        &state.db,
        &state.orders_table,
        &review.email,
        &review.product,
    )
    .await?;
    if !bought {
        return Ok(Message::new(NOT_A_BUYER));
    }
    if has_mark(&state, &review.email, &review.product).await? {
        return Ok(Message::new(ALREADY));
    }
    let verify = Update::builder()
        .table_name(&*state.table)
        .set_key(Some(review::key(&id)))
        .update_expression("SET verified = :yes")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(":yes", b(true))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().update(verify).build())
        .transact_items(put_mark(&state, &review.email, &review.product, &id)?)
        .send()
        .await
        .map_err(|error| {
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception())
            {
                ApiError::conflict("The review changed meanwhile: follow the link again")
            } else {
                ApiError::internal(error)
            }
        })?;
    Ok(Message::new(CONFIRMED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confirmation_token_names_its_review_until_it_expires() {
        let links = Links::new(b"0123456789abcdef0123456789abcdef");
        let id = "0b6f2a4e-1c1d-4c4e-9a57-1f3a1d0e9b11";
        let token = links.confirm_token(id, 1_000);
        assert_eq!(links.confirmed_review(&token, 999).as_deref(), Some(id));
        assert_eq!(links.confirmed_review(&token, 1_001), None);
        assert_eq!(
            links.confirmed_review(&token.replace(".1000.", ".9000."), 999),
            None
        );
        // An invitation's signature is not a confirmation's.
        let invitation = links.invitations.token(id, "p", 1_000);
        assert_eq!(links.confirmed_review(&invitation, 999), None);
    }
}
