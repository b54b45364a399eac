//! The login's counters in the address's partition: the hour's request windows (`RATE` for the address,
//! `RATE#{viewer address}` for one viewer address's share of it, and `LOGIN-RATE#ip#…` per viewer address
//! in all) and the day's wrong codes (`WRONG#{day}`, in all and per viewer address).

use crate::codes::limits::{
    WrongToday, DAY, HOUR, MAX_CODES_PER_ADDRESS_CLIENT_HOUR, MAX_CODES_PER_CLIENT_HOUR,
    MAX_CODES_PER_HOUR,
};
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use shared::dynamo::{get_n, n, s, Item};
use shared::ApiError;

/// Requests for `email` from one viewer address.
fn pair_rate_key(email: &str, client: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("LOGIN#{email}"))),
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

/// The hour's windows a code request for `email` takes a place in, each refused with its own words: the
/// viewer address's own share of this e-mail address first (a stranger is refused there, before their
/// requests can count against the address's cap), the viewer address in all, then the address's cap.
pub async fn reserve_requests(
    state: &AppState,
    email: &str,
    ip: Option<&str>,
    now: i64,
) -> Result<Vec<TransactWriteItem>, ApiError> {
    let window = |limit| shared::rate::Window {
        limit,
        seconds: HOUR,
    };
    let mut rates = Vec::new();
    if let Some(ip) = ip {
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
    Ok(rates)
}

/// The day's wrong codes for `email`, from viewer address `client` and in all, read consistently.
pub async fn wrong_today(
    state: &AppState,
    email: &str,
    client: &str,
    now: i64,
) -> Result<WrongToday, ApiError> {
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
    Ok(WrongToday {
        pair: wrong(pair.item()),
        address: wrong(address.item()),
        clients,
    })
}

/// One more wrong code today, for the pair (address, viewer address) and for the address. Plain atomic
/// `ADD`s, never refused: every wrong guess counts, however many race.
pub async fn count_wrong(
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
