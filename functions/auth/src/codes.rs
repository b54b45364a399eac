//! Login codes. A code is six random digits, stored only as a keyed hash for ten minutes (DynamoDB TTL
//! removes it later), good for one use and burned after five tries. Each try is counted on the code by one
//! atomic conditional write before the code is compared, so parallel guesses cannot get round the limit: a
//! guess that loses the race is refused like a wrong one. An address can ask for at most five codes an hour,
//! a viewer address for thirty. Wrong codes are also bounded per day, however many codes are asked for: ten
//! for one e-mail address from one viewer address, and the address itself is locked only once wrong codes
//! for it came from many viewer addresses, so one attacker cannot lock the admin out. Past a limit even the
//! right code is refused until the (UTC) day is over. The answer to a request is the same whether or not
//! the address has an account; the code is in the mail's body only, never its subject (lock screens).

use crate::users::{self, UserInfo};
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, Put, ReturnValue, TransactWriteItem};
use axum::extract::State;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use serde::{Deserialize, Serialize};
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::json::Message;
use shared::mail::{branded_html, Mail};
use shared::validation::{check, Email};
use shared::{ApiError, ApiResult, Json};

pub const CODE_TTL_SECONDS: i64 = 10 * 60;
pub const MAX_TRIES: u32 = 5;
pub const MAX_CODES_PER_HOUR: usize = 5;
/// Code requests per viewer address (one network, many people) an hour.
pub const MAX_CODES_PER_CLIENT_HOUR: usize = 30;
/// Wrong codes a day for one e-mail address from one viewer address, across all its codes.
pub const MAX_WRONG_PER_CLIENT_DAY: u32 = 10;
/// Wrong codes a day for one e-mail address from every viewer address together, past which the address
/// itself is locked, but only when they came from at least [`MIN_CLIENTS_TO_LOCK_ADDRESS`] viewer addresses:
/// one network can only lock itself out.
pub const MAX_WRONG_PER_DAY: u32 = 50;
pub const MIN_CLIENTS_TO_LOCK_ADDRESS: usize = 10;
const HOUR: i64 = 60 * 60;
const DAY: i64 = 24 * HOUR;
/// The viewer address counted for requests no trusted layer vouched for (the local gateway, the tests).
const UNKNOWN_CLIENT: &str = "unknown";

const WRONG_OR_EXPIRED: &str = "This code is wrong or has expired: ask for a new one";

/// The key codes are hashed with: a secret of its own (`LOGIN_CODE_KEY`), unrelated to token signing.
pub struct CodeKey(hmac::Key);

impl CodeKey {
    pub fn new(key: &[u8]) -> Self {
        CodeKey(hmac::Key::new(hmac::HMAC_SHA256, key))
    }

    pub(crate) fn tag(&self, email: &str, code: &str) -> String {
        hex(hmac::sign(&self.0, format!("{email}:{code}").as_bytes()).as_ref())
    }

    /// Constant-time comparison of a code against the stored tag.
    pub(crate) fn matches(&self, email: &str, code: &str, stored_hex: &str) -> bool {
        match unhex(stored_hex) {
            Some(tag) => hmac::verify(&self.0, format!("{email}:{code}").as_bytes(), &tag).is_ok(),
            None => false,
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

/// Six digits from the system's secure generator, without modulo bias.
pub(crate) fn new_code() -> Result<String, ApiError> {
    let rng = SystemRandom::new();
    loop {
        let mut bytes = [0u8; 4];
        rng.fill(&mut bytes)
            .map_err(|_| ApiError::internal("no secure randomness"))?;
        let value = u32::from_be_bytes(bytes);
        // 4_294_000_000 is the largest multiple of 1_000_000 below 2^32.
        if value < 4_294_000_000 {
            return Ok(format!("{:06}", value % 1_000_000));
        }
    }
}

fn code_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("LOGIN#{email}"))),
        ("sk".to_owned(), s("CODE")),
    ])
}

fn rate_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("LOGIN#{email}"))),
        ("sk".to_owned(), s("RATE")),
    ])
}

fn client_rate_key(ip: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("LOGIN-RATE#ip#{ip}"))),
        ("sk".to_owned(), s("RATE")),
    ])
}

/// The day's wrong codes for an address (all viewer addresses together: `wrong` and the set `clients`), or
/// for one viewer address when `client` is given. Days are UTC days, so the keys roll over by themselves.
fn wrong_key(email: &str, day: i64, client: Option<&str>) -> Item {
    let sk = match client {
        Some(client) => format!("WRONG#{day}#{client}"),
        None => format!("WRONG#{day}"),
    };
    Item::from([
        ("pk".to_owned(), s(format!("LOGIN#{email}"))),
        ("sk".to_owned(), s(sk)),
    ])
}

const TOO_MANY_WRONG: &str = "Too many wrong codes for this address today";

/// 429 until the day is over, with the wait in words.
fn too_many_wrong(now: i64) -> ApiError {
    let wait = DAY - now.rem_euclid(DAY);
    let when = if wait >= 2 * HOUR {
        format!("{} hours", wait / HOUR)
    } else {
        format!("{} minutes", (wait.max(60) + 59) / 60)
    };
    ApiError::too_many_requests(format!("{TOO_MANY_WRONG}: try again in {when}")).retry_after(wait)
}

/// The login rule of the spec: valid, and longer than 7 characters.
fn login_email(raw: &str) -> Result<Email, ApiError> {
    // The parser's own refusal says what was wrong (a malformed address, or one past 254 characters).
    let email = Email::parse_normalised(raw)?;
    if !check(
        "login_email",
        &serde_json::Value::String(email.as_str().to_owned()),
    ) {
        return Err(ApiError::invalid("email must be longer than 7 characters"));
    }
    Ok(email)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct LoginRequest {
    /// A valid e-mail address longer than 7 characters (trimmed, compared lower-cased).
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
}

pub async fn request_code(
    State(state): State<AppState>,
    shared::rate::SourceIp(ip): shared::rate::SourceIp,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<Message>> {
    let email = login_email(&body.email)?;
    let email = email.as_str();
    let now = shared::time::now_unix();

    let rate = shared::rate::reserve(
        state.db(),
        state.table(),
        rate_key(email),
        &shared::rate::Window {
            limit: MAX_CODES_PER_HOUR,
            seconds: HOUR,
        },
        now,
        "Too many codes asked for this address",
    )
    .await?;
    let mut rates = vec![rate];
    if let Some(ip) = ip {
        rates.push(
            shared::rate::reserve(
                state.db(),
                state.table(),
                client_rate_key(&ip),
                &shared::rate::Window {
                    limit: MAX_CODES_PER_CLIENT_HOUR,
                    seconds: HOUR,
                },
                now,
                "Many login codes were asked from your network",
            )
            .await?,
        );
    }

    let code = new_code()?;
    let mut code_item = code_key(email);
    code_item.extend([
        ("codeHash".to_owned(), s(state.codes.tag(email, &code))),
        ("tries".to_owned(), n(0)),
        ("expiresAt".to_owned(), n(now + CODE_TTL_SECONDS)),
    ]);
    let code_put = Put::builder()
        .table_name(state.table())
        .set_item(Some(code_item))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db()
        .transact_write_items()
        .set_transact_items(Some(rates))
        .transact_items(TransactWriteItem::builder().put(code_put).build())
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;
    state
        .mailer
        .send(code_mail(&state.shop_name, email, &code))
        .await?;
    Ok(Message::new(
        "If this address can log in, a code is on its way. It works for 10 minutes.",
    ))
}

fn code_mail(shop: &str, email: &str, code: &str) -> Mail {
    let content = format!(
        "<p>Here is your code to log in to {shop}:</p>\
         <p style=\"font-size:32px;font-weight:bold;letter-spacing:6px;margin:16px 0\">{code}</p>\
         <p>It works once, for 10 minutes. If you did not ask for it, you can ignore this e-mail: nobody can \
         log in without it.</p>",
        shop = shared::mail::escape_html(shop)
    );
    Mail {
        to: email.to_owned(),
        subject: format!("Your {shop} login code"),
        html: branded_html(shop, "Your login code", &content),
        text: format!(
            "Here is your code to log in to {shop}: {code}\n\nIt works once, for 10 minutes. If you did not ask \
             for it, you can ignore this e-mail: nobody can log in without it.\n"
        ),
        reply_to: None,
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct VerifyRequest {
    /// The address the code was sent to.
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
    /// The 6 digits from the e-mail.
    #[schemars(with = "crate::schema::LoginCode")]
    code: String,
}

/// A signed-in user: the bearer token for `Authorization` and who it belongs to.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Session {
    token: String,
    #[serde(rename = "userInfo")]
    user_info: UserInfo,
}

pub async fn verify_code(
    State(state): State<AppState>,
    shared::rate::SourceIp(ip): shared::rate::SourceIp,
    Json(body): Json<VerifyRequest>,
) -> ApiResult<Json<Session>> {
    let email = login_email(&body.email)?;
    let email = email.as_str();
    let code = body.code.trim();
    if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(ApiError::invalid(
            "code must be the 6 digits from the e-mail",
        ));
    }
    let now = shared::time::now_unix();
    let client = ip.as_deref().unwrap_or(UNKNOWN_CLIENT);
    // Checked before the code: past the day's wrong codes even the right one is refused, so guessing
    // across many codes gains nothing.
    refuse_if_locked(&state, email, client, now).await?;

    // The try is counted before the comparison, atomically: of fifty parallel guesses only the first
    // five reach the comparison, and the rest are refused as wrong.
    let counted = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(code_key(email)))
        .update_expression("ADD tries :one")
        .condition_expression("attribute_exists(codeHash) AND tries < :max AND expiresAt > :now")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":max", n(MAX_TRIES))
        .expression_attribute_values(":now", n(now))
        .return_values(ReturnValue::AllNew)
        .send()
        .await;
    let item = match counted {
        Ok(output) => output.attributes.unwrap_or_default(),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            if live_code_exists(&state, email, now).await? {
                count_wrong(&state, email, client, now).await?;
            }
            return Err(ApiError::bad_request(WRONG_OR_EXPIRED));
        }
        Err(error) => return Err(error.into()),
    };
    let stored = get_s(&item, "codeHash")?;
    let tries: u32 = get_n(&item, "tries")?;

    if !state.codes.matches(email, code, &stored) {
        count_wrong(&state, email, client, now).await?;
        let left = MAX_TRIES.saturating_sub(tries);
        return Err(ApiError::bad_request(if left == 0 {
            "That code is wrong, and now used up: ask for a new one".to_owned()
        } else {
            format!("That code is wrong: {left} tries left")
        }));
    }

    // Single use: only one of two racing verifications can delete the code (and a code asked for
    // meanwhile replaced this one).
    let used = state
        .db()
        .delete_item()
        .table_name(state.table())
        .set_key(Some(code_key(email)))
        .condition_expression("codeHash = :hash")
        .expression_attribute_values(":hash", s(&stored))
        .send()
        .await;
    match used {
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(ApiError::bad_request(WRONG_OR_EXPIRED))
        }
        other => {
            other?;
        }
    }

    let listed_admin = state.admin_emails.iter().any(|a| a == email);
    let user = users::sign_in(&state, email, listed_admin).await?;
    let keys = &state.auth.keys;
    let token = keys.issue_at_version(
        email,
        user.role,
        keys.ttl_for(user.role),
        user.token_version,
    )?;
    Ok(Json(Session {
        token,
        user_info: user.info(),
    }))
}

/// 429 when this viewer address has had its day's wrong codes for `email`, or the address itself is locked.
async fn refuse_if_locked(
    state: &AppState,
    email: &str,
    client: &str,
    now: i64,
) -> Result<(), ApiError> {
    let day = now.div_euclid(DAY);
    let read = |key: Item| {
        state
            .db()
            .get_item()
            .table_name(state.table())
            .set_key(Some(key))
            .consistent_read(true)
            .send()
    };
    let (pair, address) = tokio::try_join!(
        read(wrong_key(email, day, Some(client))),
        read(wrong_key(email, day, None)),
    )?;
    let wrong = |item: Option<&Item>| {
        item.and_then(|i| get_n::<u32>(i, "wrong").ok())
            .unwrap_or(0)
    };
    let clients = match address.item().and_then(|i| i.get("clients")) {
        Some(AttributeValue::Ss(clients)) => clients.len(),
        _ => 0,
    };
    let pair_locked = wrong(pair.item()) >= MAX_WRONG_PER_CLIENT_DAY;
    let address_locked =
        wrong(address.item()) >= MAX_WRONG_PER_DAY && clients >= MIN_CLIENTS_TO_LOCK_ADDRESS;
    if pair_locked || address_locked {
        return Err(too_many_wrong(now));
    }
    Ok(())
}

/// Whether `email` has an unexpired code (one whose tries are used up included): a guess against it
/// counts as wrong, a guess with nothing to guess does not.
async fn live_code_exists(state: &AppState, email: &str, now: i64) -> Result<bool, ApiError> {
    let found = state
        .db()
        .get_item()
        .table_name(state.table())
        .set_key(Some(code_key(email)))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found
        .item()
        .and_then(|item| get_n::<i64>(item, "expiresAt").ok())
        .is_some_and(|expires| expires > now))
}

/// One more wrong code today, for the pair (address, viewer address) and for the address. Plain atomic
/// `ADD`s, never refused: every wrong guess counts, however many race.
async fn count_wrong(
    state: &AppState,
    email: &str,
    client: &str,
    now: i64,
) -> Result<(), ApiError> {
    let day = now.div_euclid(DAY);
    let expires = (day + 2) * DAY;
    let pair = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(wrong_key(email, day, Some(client))))
        .update_expression("ADD wrong :one SET expiresAt = :expires")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":expires", n(expires))
        .send();
    let address = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(wrong_key(email, day, None)))
        .update_expression("ADD wrong :one, clients :client SET expiresAt = :expires")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":client", AttributeValue::Ss(vec![client.to_owned()]))
        .expression_attribute_values(":expires", n(expires))
        .send();
    tokio::try_join!(pair, address)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..100 {
            let code = new_code().unwrap();
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn a_tag_matches_only_its_code_and_address() {
        let key = CodeKey::new(b"secret-secret-secret-secret-secret");
        let tag = key.tag("a@example.com", "123456");
        assert!(key.matches("a@example.com", "123456", &tag));
        assert!(!key.matches("a@example.com", "123457", &tag));
        assert!(!key.matches("b@example.com", "123456", &tag));
        assert!(!key.matches("a@example.com", "123456", "zz"));
        assert!(!tag.contains("123456"));
    }

    #[test]
    fn the_mail_has_the_code_in_both_parts() {
        let mail = code_mail("Palestine <Drinks>", "a@example.com", "042042");
        assert!(mail.text.contains("042042"));
        assert!(mail.html.contains("042042"));
        assert!(mail.html.contains("Palestine &lt;Drinks&gt;"));
        assert!(
            !mail.subject.contains("042042"),
            "a lock screen shows the subject"
        );
    }
}
