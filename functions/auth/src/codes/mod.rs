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
//!
//! The two handlers are short lists of named steps: the request is checked (`input`), the limits are
//! applied (`limits`), the code is made and hashed (`key`) and mailed (`mail`), a guess is counted and
//! compared (`tries`), and a right one answers a session (`session`). Every key, expression and SDK call on
//! the login records is `store`'s.

mod input;
mod key;
mod limits;
mod mail;
mod session;
mod store;
mod tries;

pub(crate) use key::new_code;
pub use key::CodeKey;
pub use limits::{MAX_CODES_PER_ADDRESS_CLIENT_HOUR, MAX_CODES_PER_HOUR, MAX_TRIES};
pub use session::Session;
pub(crate) use store::login_partition;

use crate::users;
use crate::AppState;
use axum::extract::State;
use input::{LoginRequest, VerifyRequest};
use shared::json::Message;
use shared::rate::SourceIp;
use shared::{ApiError, ApiResult, Json};

pub async fn request_code(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<Message>> {
    let email = body.email()?;
    let email = email.as_str();
    let now = shared::time::now_unix();
    let rates = store::reserve_requests(&state, email, ip.as_deref(), now).await?;
    let code = key::new_code()?;
    store::save_code(&state, email, state.codes.tag(email, &code), rates, now).await?;
    state
        .send_within_budget(mail::code_mail(&state.shop_name, email, &code))
        .await?;
    Ok(Message::new(
        "If this address can log in, a code is on its way. It works for 10 minutes.",
    ))
}

pub async fn verify_code(
    State(state): State<AppState>,
    SourceIp(ip): SourceIp,
    Json(body): Json<VerifyRequest>,
) -> ApiResult<Json<Session>> {
    let (email, code) = body.read()?;
    let email = email.as_str();
    let now = shared::time::now_unix();
    let client = ip.as_deref().unwrap_or(limits::UNKNOWN_CLIENT);
    // Checked before the code: past the day's wrong codes even the right one is refused, so guessing
    // across many codes gains nothing.
    if store::wrong_today(&state, email, client, now)
        .await?
        .locked()
    {
        return Err(limits::too_many_wrong(now));
    }
    let live = store::live_codes(&state, email, now).await?;
    if live.is_empty() {
        // Nothing to guess: not counted as a wrong code.
        return Err(ApiError::bad_request(tries::WRONG_OR_EXPIRED));
    }
    let candidates = tries::count_tries(&state, email, client, live, now).await?;
    let Some(right) = tries::matching(&state, email, code, &candidates) else {
        store::count_wrong(&state, email, client, now).await?;
        return Err(tries::wrong(&candidates));
    };
    if !store::use_code(&state, email, &right.sk, &right.stored).await? {
        return Err(ApiError::bad_request(tries::WRONG_OR_EXPIRED));
    }
    let listed_admin = state.admin_emails.iter().any(|a| a == email);
    let user = users::sign_in(&state, email, listed_admin).await?;
    Ok(Json(Session::of(&state, user)?))
}
