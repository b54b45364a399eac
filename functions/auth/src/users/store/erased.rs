//! The mark an erasure leaves of an address (`ERASED#{keyed hash}`): the token version the next account of
//! that address starts from, so a token issued before the erasure never works again, even after the
//! address signs up anew.

use crate::AppState;
use shared::dynamo::{get_n, is_condition_failed, n, s, Item};
use shared::ApiError;

/// The mark's key: a keyed hash of the address (never the address).
fn erased_key(state: &AppState, email: &str) -> Item {
    let tag = state.codes.sign(format!("erased:{email}").as_bytes());
    Item::from([
        (
            "pk".to_owned(),
            s(format!("ERASED#{}", shared::signed::hex(tag.as_ref()))),
        ),
        ("sk".to_owned(), s("ERASED")),
    ])
}

/// Remembers that `email`'s account, at token version `last`, was erased: a token issued before the erasure
/// never works again, even after the address signs up anew.
pub async fn remember_erased(state: &AppState, email: &str, last: u64) -> Result<(), ApiError> {
    state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(erased_key(state, email)))
        .update_expression("SET tokenVersion = :next")
        .condition_expression("attribute_not_exists(tokenVersion) OR tokenVersion < :next")
        .expression_attribute_values(":next", n(last + 1))
        .send()
        .await
        .map(drop)
        .or_else(|error| {
            if is_condition_failed(&error) {
                Ok(())
            } else {
                Err(ApiError::internal(error))
            }
        })
}

/// The token version a new account of `email` starts from: past every token an erased account of the same
/// address was ever given.
pub async fn version_after_erasure(state: &AppState, email: &str) -> Result<u64, ApiError> {
    Ok(
        shared::personal::get(state.db(), state.table(), erased_key(state, email))
            .await?
            .and_then(|item| get_n(&item, "tokenVersion").ok())
            .unwrap_or(0),
    )
}
