//! One reader's e-mail from a mailing: the readers still subscribed, read in one batch, and what each gets,
//! their own unsubscribe link in the body and in the RFC 8058 one-click headers (or nothing, when they left).

use super::record::Mailing;
use crate::subscriber::Subscriber;
use crate::AppState;
use shared::dynamo::Item;
use shared::mail::Mail;
use shared::store::Entity;
use shared::ApiError;
use std::collections::HashMap;

/// A reader as the sender needs them: where to send and which lists they are on now.
#[derive(Debug, Clone)]
pub struct Reader {
    pub id: String,
    pub email: String,
    pub lists: Vec<String>,
}

/// The readers with these subscriber ids who are still subscribed, in one batched read (a queue batch's
/// worth, up to 100 ids).
pub async fn readers(
    state: &AppState,
    ids: &[String],
) -> Result<HashMap<String, Reader>, ApiError> {
    let mut found = HashMap::new();
    let keys: Vec<Item> = ids
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|id| crate::store::subscriber_key(id))
        .collect();
    for item in shared::dynamo::batch_get(&state.db, &state.table, keys).await? {
        let subscriber = Subscriber::from_item(&item)?;
        found.insert(
            subscriber.id.clone(),
            Reader {
                id: subscriber.id,
                email: subscriber.email,
                lists: subscriber.lists,
            },
        );
    }
    Ok(found)
}

/// What to do for one reader of a mailing.
pub enum Delivery {
    /// They left the lists (or the shop) since the mailing was queued.
    Skip,
    Send {
        to: String,
        mail: Mail,
        headers: Vec<(String, String)>,
    },
}

/// The e-mail `reader` gets from `mailing`: their own unsubscribe link in the body and in the RFC 8058
/// headers (the https link for one-click, and a mailto for clients that only know that).
pub fn delivery(state: &AppState, mailing: &Mailing, reader: Option<&Reader>) -> Delivery {
    let Some(reader) = reader else {
        return Delivery::Skip;
    };
    if !reader.lists.iter().any(|l| mailing.lists.contains(l)) {
        return Delivery::Skip;
    }
    let token = state.unsubscribe.token(&reader.id);
    let link = format!(
        "{}/api/subscription/unsubscribe/?token={token}",
        mailing.base_url.trim_end_matches('/')
    );
    let (html, text) = mailing.letter().render(&state.shop_name, &link);
    Delivery::Send {
        to: reader.email.clone(),
        headers: crate::links::headers(state, &link, &token),
        mail: Mail {
            to: reader.email.clone(),
            subject: mailing.subject.clone(),
            html,
            text,
            reply_to: None,
        },
    }
}
