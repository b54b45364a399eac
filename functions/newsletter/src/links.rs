//! Who a subscriber is to a link: the id derived from their address, and the signed unsubscribe link
//! (`?token={id}.{signature}`) with the RFC 8058 headers every list mail carries. Below both the subscriber
//! records, which put the link in a welcome, and the unsubscribe handlers, which read it back.

use crate::AppState;
use shared::signed::LinkKey;
use shared::validation::Email;

/// The id of an address: the first 16 bytes of its SHA-256, in hex. Stable, so a second sign-up finds the
/// first, and it keeps addresses out of admin URLs.
pub fn id_of(email: &Email) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, email.as_str().as_bytes());
    digest.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn is_subscriber_id(id: &str) -> bool {
    id.len() == 32 && id.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
}

pub struct UnsubscribeKey(LinkKey);

impl UnsubscribeKey {
    /// A key of its own, derived from `secret`: an unsubscribe signature is never a valid login token part.
    pub fn new(secret: &[u8]) -> Self {
        UnsubscribeKey(LinkKey::derive(secret, b"unsubscribe-links-v1"))
    }

    pub fn token(&self, id: &str) -> String {
        format!("{id}.{}", self.0.sign(id.as_bytes()))
    }

    /// The subscriber id a genuine token names.
    pub fn verify<'t>(&self, token: &'t str) -> Option<&'t str> {
        let (id, signature) = token.trim().split_once('.')?;
        (is_subscriber_id(id) && self.0.verifies(id.as_bytes(), signature)).then_some(id)
    }
}

/// The link that unsubscribes subscriber `id`.
pub fn link(state: &AppState, id: &str) -> String {
    format!(
        "{}/api/subscription/unsubscribe/?token={}",
        state.base_url(),
        state.unsubscribe.token(id)
    )
}

/// The RFC 8058 headers of a mail to a list: the https link (one click) and a mailto for older clients.
pub fn headers(state: &AppState, link: &str, token: &str) -> Vec<(String, String)> {
    vec![
        (
            "List-Unsubscribe".to_owned(),
            format!(
                "<{link}>, <mailto:{}?subject=unsubscribe%20{token}>",
                state.mail_from
            ),
        ),
        (
            "List-Unsubscribe-Post".to_owned(),
            "List-Unsubscribe=One-Click".to_owned(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_only_with_its_key_and_id() {
        let key = UnsubscribeKey::new(b"a-secret-of-at-least-thirty-two-chars");
        let id = "0123456789abcdef0123456789abcdef";
        let token = key.token(id);
        assert_eq!(key.verify(&token), Some(id));
        let other = UnsubscribeKey::new(b"another-secret-of-thirty-two-chars!!");
        assert_eq!(other.verify(&token), None);
        let swapped = token.replacen('0', "1", 1);
        assert_eq!(key.verify(&swapped), None);
        for bad in ["", ".", "x.y", "0123456789abcdef0123456789abcdef.zz"] {
            assert_eq!(key.verify(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_address_has_one_id_however_it_is_written() {
        let a = Email::parse_normalised(" Layla@Example.com ").unwrap();
        let b = Email::parse_normalised("layla@example.com").unwrap();
        assert_eq!(id_of(&a), id_of(&b));
        assert!(is_subscriber_id(&id_of(&a)));
        assert!(!is_subscriber_id("x1"));
    }
}
