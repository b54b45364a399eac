//! How many codes, tries and wrong codes the login allows, and the refusal once the day's wrong codes are
//! used up. Requests are limited per viewer address for one e-mail address before the e-mail address's own
//! cap, and per viewer address in all; wrong codes per day for one e-mail address from one viewer address,
//! and for the address itself only once they came from many viewer addresses.

use shared::ApiError;

pub const CODE_TTL_SECONDS: i64 = 10 * 60;
/// Wrong tries one viewer address may make against one code.
pub const MAX_TRIES: u32 = 5;
/// Codes one e-mail address may be sent in an hour, from every viewer address together.
pub const MAX_CODES_PER_HOUR: usize = 10;
/// Codes one viewer address may ask for one e-mail address in an hour: below the address's own cap, so one
/// client alone can never use it up.
pub const MAX_CODES_PER_ADDRESS_CLIENT_HOUR: usize = 3;
/// Live codes read for a comparison: more than an hour's requests can make within a code's ten minutes.
pub const MAX_LIVE_CODES: i32 = 20;
/// Code requests per viewer address (one network, many people) an hour.
pub const MAX_CODES_PER_CLIENT_HOUR: usize = 30;
/// Wrong codes a day for one e-mail address from one viewer address, across all its codes.
pub const MAX_WRONG_PER_CLIENT_DAY: u32 = 10;
/// Wrong codes a day for one e-mail address from every viewer address together, past which the address
/// itself is locked, but only when they came from at least [`MIN_CLIENTS_TO_LOCK_ADDRESS`] viewer addresses:
/// one network can only lock itself out.
pub const MAX_WRONG_PER_DAY: u32 = 50;
pub const MIN_CLIENTS_TO_LOCK_ADDRESS: usize = 10;
pub const HOUR: i64 = 60 * 60;
pub const DAY: i64 = 24 * HOUR;

const TOO_MANY_WRONG: &str = "Too many wrong codes for this address today";

/// The day's wrong codes for one e-mail address: from this viewer address (`pair`), from every viewer
/// address together (`address`), and how many viewer addresses those came from (`clients`).
pub struct WrongToday {
    pub pair: u32,
    pub address: u32,
    pub clients: usize,
}

impl WrongToday {
    /// Whether this viewer address has had its day's wrong codes for the address, or the address itself is
    /// locked.
    pub fn locked(&self) -> bool {
        let pair_locked = self.pair >= MAX_WRONG_PER_CLIENT_DAY;
        let address_locked =
            self.address >= MAX_WRONG_PER_DAY && self.clients >= MIN_CLIENTS_TO_LOCK_ADDRESS;
        pair_locked || address_locked
    }
}

/// 429 until the day is over, with the wait in words.
pub fn too_many_wrong(now: i64) -> ApiError {
    let wait = DAY - now.rem_euclid(DAY);
    let when = if wait >= 2 * HOUR {
        format!("{} hours", wait / HOUR)
    } else {
        format!("{} minutes", (wait.max(60) + 59) / 60)
    };
    ApiError::too_many_requests(format!("{TOO_MANY_WRONG}: try again in {when}")).retry_after(wait)
}

/// The viewer address counted for requests no trusted layer vouched for (the local gateway, the tests).
pub const UNKNOWN_CLIENT: &str = "unknown";
