//! A guess at a code. The try is counted on every live code before the comparison, atomically and per
//! viewer address: of fifty parallel guesses only the first five reach the comparison with a code, and the
//! rest are refused as wrong. A code whose tries this viewer address used up is left out (for it alone). A
//! wrong guess is answered with the tries left.

use super::limits::MAX_TRIES;
use super::store;
use crate::AppState;
use shared::ApiError;

pub const WRONG_OR_EXPIRED: &str = "This code is wrong or has expired: ask for a new one";

/// A live code this viewer address may still try: its sort key, its stored hash, and its tries so far
/// (this one counted).
pub struct Candidate {
    pub sk: String,
    pub stored: String,
    tries: u32,
}

/// Counts this try on each of the live codes `live`: the codes it counted on, which alone are compared.
pub async fn count_tries(
    state: &AppState,
    email: &str,
    client: &str,
    live: Vec<String>,
    now: i64,
) -> Result<Vec<Candidate>, ApiError> {
    let tries_of = state.codes.client_tag(client);
    let mut candidates = Vec::new();
    for sk in live {
        if let Some((stored, tries)) = store::count_try(state, email, &sk, &tries_of, now).await? {
            candidates.push(Candidate { sk, stored, tries });
        }
    }
    Ok(candidates)
}

/// The candidate `code` is (compared in constant time), if any.
pub fn matching<'a>(
    state: &AppState,
    email: &str,
    code: &str,
    candidates: &'a [Candidate],
) -> Option<&'a Candidate> {
    candidates
        .iter()
        .find(|candidate| state.codes.matches(email, code, &candidate.stored))
}

/// The answer to a wrong guess: the most tries any of its codes has left, or that none was left to try.
pub fn wrong(candidates: &[Candidate]) -> ApiError {
    if candidates.is_empty() {
        return ApiError::bad_request(WRONG_OR_EXPIRED);
    }
    let left = candidates
        .iter()
        .map(|candidate| MAX_TRIES.saturating_sub(candidate.tries))
        .max()
        .unwrap_or(0);
    ApiError::bad_request(if left == 0 {
        "That code is wrong, and now used up: ask for a new one".to_owned()
    } else {
        format!("That code is wrong: {left} tries left")
    })
}
