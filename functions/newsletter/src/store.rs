//! The subscription table's door for other functions: the keys of its mailings and subscribers, and what
//! the sender function (the bulk mailer's worker) joins: a mailing read and planned page by page through the
//! subscriber index, its readers read in one batch, each reader's e-mail rendered, a batch's outcomes counted
//! on the mailing and the mailing finished, and the sweep that repairs what a stopped sender left. Keys are
//! spelled in this crate alone (a test in the local gateway holds every crate to it), and template.yaml's
//! grants on the table name these operations.

use crate::subscriber::Subscriber;
use shared::dynamo::Item;
use shared::store::entity_key;

pub use crate::mailing::{
    count, delivery, finish_if_done, load, plan, readers, Delivery, Mailing, Outcome, Reader, Tally,
};
pub use crate::recount::{recount_lists, sweep, Swept};

/// The key of mailing `id`.
pub fn mailing_key(id: &str) -> Item {
    entity_key::<Mailing>(id)
}

/// The key of subscriber `id` (a hash of the address, `links::id_of`).
pub fn subscriber_key(id: &str) -> Item {
    entity_key::<Subscriber>(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::dynamo::s;

    #[test]
    fn mailings_and_subscribers_are_keyed_by_kind() {
        assert_eq!(mailing_key("m1")["pk"], s("MAILING#m1"));
        assert_eq!(mailing_key("m1")["sk"], s("MAILING"));
        assert_eq!(subscriber_key("ab")["pk"], s("SUBSCRIBER#ab"));
        assert_eq!(subscriber_key("ab")["sk"], s("SUBSCRIBER"));
    }
}
