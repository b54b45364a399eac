//! Login codes. A code is six random digits, stored only as a keyed hash for ten minutes (DynamoDB TTL
//! removes it later), good for one use. An address may hold several live codes at once, each its own item:
//! a new request never replaces or invalidates a code already mailed, so a stranger asking for codes for
//! someone's address cannot spoil the one in their inbox. Each try is counted on every live code, per viewer
//! address, by one atomic conditional write before the codes are compared, so parallel guesses cannot get
//! round the limit, and five wrong tries from one viewer address burn a code for that viewer address only:
//! a stranger's guesses never burn the owner's code. Requests are limited per viewer address for one e-mail
//! address (three an hour) before the e-mail address's own cap (ten an hour), and per viewer address in all
//! (thirty an hour): one network cannot use up an address's codes. Wrong codes are also bounded per day,
//! however many codes are asked for: ten for one e-mail address from one viewer address, and the address
//! itself is locked only once wrong codes for it came from many viewer addresses, so one attacker cannot lock
//! the admin out (who can always sign in with a passkey besides: `passkeys`). Past a limit even the right
//! code is refused until the (UTC) day is over. The answer to a request is the same whether or not the
//! address has an account; the code is in the mail's body only, never its subject (lock screens).

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
/// Wrong tries one viewer address may make against one code.
pub const MAX_TRIES: u32 = 5;
/// Codes one e-mail address may be sent in an hour, from every viewer address together.
pub const MAX_CODES_PER_HOUR: usize = 10;
/// Codes one viewer address may ask for one e-mail address in an hour: below the address's own cap, so one
/// client alone can never use it up.
pub const MAX_CODES_PER_ADDRESS_CLIENT_HOUR: usize = 3;
/// Live codes read for a comparison: more than an hour's requests can make within a code's ten minutes.
const MAX_LIVE_CODES: i32 = 20;
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

    /// An HMAC of `message` with this key (the passkeys' user handles).
    pub(crate) fn sign(&self, message: &[u8]) -> hmac::Tag {
        hmac::sign(&self.0, message)
    }

    /// The name a viewer address's tries are kept under on a code: a keyed hash, so the code's item (which a
    /// data export shows its owner) holds no stranger's network address.
    pub(crate) fn client_tag(&self, client: &str) -> String {
        let tag = hmac::sign(&self.0, format!("client:{client}").as_bytes());
        hex(&tag.as_ref()[..8])
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

fn login_pk(email: &str) -> String {
    format!("LOGIN#{email}")
}

/// The partition of one address's login records (codes, windows, wrong codes): the address whole.
pub(crate) fn login_partition(email: &str) -> String {
    login_pk(email)
}

/// One code of `email`, sorted by when it expires (then its own random id): the live ones are a range of
/// the sort key, however many expired ones DynamoDB's TTL has yet to remove.
fn code_key(email: &str, expires: i64, id: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(login_pk(email))),
        (
            "sk".to_owned(),
            s(format!("{CODE_PREFIX}{expires:012}#{id}")),
        ),
    ])
}

const CODE_PREFIX: &str = "CODE#";

/// Requests for `email` from one viewer address.
fn pair_rate_key(email: &str, client: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(login_pk(email))),
        ("sk".to_owned(), s(format!("RATE#{client}"))),
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

    let window = |limit| shared::rate::Window {
        limit,
        seconds: HOUR,
    };
    // The viewer address's own share of this e-mail address first: a stranger is refused there, before
    // their requests can count against the address's cap.
    let mut rates = Vec::new();
    if let Some(ip) = ip.as_deref() {
        rates.push(
            shared::rate::reserve(
                state.db(),
                state.table(),
                pair_rate_key(email, ip),
                &window(MAX_CODES_PER_ADDRESS_CLIENT_HOUR),
                now,
                "Several codes were asked for this address from your network",
            )
            .await?,
        );
        rates.push(
            shared::rate::reserve(
                state.db(),
                state.table(),
                client_rate_key(ip),
                &window(MAX_CODES_PER_CLIENT_HOUR),
                now,
                "Many login codes were asked from your network",
            )
            .await?,
        );
    }
    rates.push(
        shared::rate::reserve(
            state.db(),
            state.table(),
            rate_key(email),
            &window(MAX_CODES_PER_HOUR),
            now,
            "Too many codes asked for this address",
        )
        .await?,
    );

    let code = new_code()?;
    // A code of its own beside any still live: nothing mailed before stops working.
    let mut code_item = code_key(email, now + CODE_TTL_SECONDS, &shared::store::new_id());
    code_item.extend([
        ("codeHash".to_owned(), s(state.codes.tag(email, &code))),
        ("tries".to_owned(), AttributeValue::M(Item::new())),
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
        .send_within_budget(code_mail(&state.shop_name, email, &code))
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

    let live = live_codes(&state, email, now).await?;
    if live.is_empty() {
        // Nothing to guess: not counted as a wrong code.
        return Err(ApiError::bad_request(WRONG_OR_EXPIRED));
    }
    // The try is counted on every live code before the comparison, atomically and per viewer address: of
    // fifty parallel guesses only the first five reach the comparison with a code, and the rest are refused
    // as wrong. A code whose tries this viewer address used up is left out (for it alone).
    let tries_of = state.codes.client_tag(client);
    let mut candidates = Vec::new();
    for sk in live {
        let counted = state
            .db()
            .update_item()
            .table_name(state.table())
            .key("pk", s(login_pk(email)))
            .key("sk", s(&sk))
            .update_expression("SET tries.#client = if_not_exists(tries.#client, :zero) + :one")
            .condition_expression(
                "attribute_exists(codeHash) AND expiresAt > :now \
                 AND (attribute_not_exists(tries.#client) OR tries.#client < :max)",
            )
            .expression_attribute_names("#client", &tries_of)
            .expression_attribute_values(":zero", n(0))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(MAX_TRIES))
            .expression_attribute_values(":now", n(now))
            .return_values(ReturnValue::AllNew)
            .send()
            .await;
        match counted {
            Ok(output) => {
                let item = output.attributes.unwrap_or_default();
                let tries = match item.get("tries") {
                    Some(AttributeValue::M(tries)) => get_n::<u32>(tries, &tries_of).unwrap_or(0),
                    _ => 0,
                };
                candidates.push((sk, get_s(&item, "codeHash")?, tries));
            }
            Err(error) if shared::dynamo::is_condition_failed(&error) => {}
            Err(error) => return Err(error.into()),
        }
    }
    if candidates.is_empty() {
        count_wrong(&state, email, client, now).await?;
        return Err(ApiError::bad_request(WRONG_OR_EXPIRED));
    }
    let Some((sk, stored, _)) = candidates
        .iter()
        .find(|(_, stored, _)| state.codes.matches(email, code, stored))
    else {
        count_wrong(&state, email, client, now).await?;
        let left = candidates
            .iter()
            .map(|(_, _, tries)| MAX_TRIES.saturating_sub(*tries))
            .max()
            .unwrap_or(0);
        return Err(ApiError::bad_request(if left == 0 {
            "That code is wrong, and now used up: ask for a new one".to_owned()
        } else {
            format!("That code is wrong: {left} tries left")
        }));
    };

    // Single use: only one of two racing verifications can delete the code. The address's other live
    // codes stay good until they expire.
    let used = state
        .db()
        .delete_item()
        .table_name(state.table())
        .key("pk", s(login_pk(email)))
        .key("sk", s(sk))
        .condition_expression("codeHash = :hash")
        .expression_attribute_values(":hash", s(stored))
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
    Ok(Json(Session::of(&state, user)?))
}

impl Session {
    /// A fresh token for `user`, at their current token version.
    pub(crate) fn of(state: &AppState, user: users::User) -> Result<Self, ApiError> {
        let keys = &state.auth.keys;
        let token = keys.issue_at_version(
            &user.email,
            user.role,
            keys.ttl_for(user.role),
            user.token_version,
        )?;
        Ok(Session {
            token,
            user_info: user.info(),
        })
    }
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

/// The sort keys of `email`'s unexpired codes (those whose tries are used up included: a guess against
/// them counts as wrong, a guess with nothing to guess does not).
async fn live_codes(state: &AppState, email: &str, now: i64) -> Result<Vec<String>, ApiError> {
    let found = state
        .db()
        .query()
        .table_name(state.table())
        .key_condition_expression("pk = :pk AND sk BETWEEN :from AND :to")
        .expression_attribute_values(":pk", s(login_pk(email)))
        // Past now, to the end of the codes ('~' sorts after every digit).
        .expression_attribute_values(":from", s(format!("{CODE_PREFIX}{:012}", now + 1)))
        .expression_attribute_values(":to", s(format!("{CODE_PREFIX}~")))
        .consistent_read(true)
        .limit(MAX_LIVE_CODES)
        .send()
        .await?;
    Ok(found
        .items()
        .iter()
        .filter(|item| get_n::<i64>(item, "expiresAt").is_ok_and(|expires| expires > now))
        .filter_map(|item| item.get("sk")?.as_s().ok().cloned())
        .collect())
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
