//! The HMAC behind the shop's signed links (order links, unsubscribe, sign-up confirmation, back-in-stock
//! stop links): a key per kind of link, derived from a secret with the kind's label, so a signature made for
//! one kind is never valid for another; signatures travel as lower-case hex.

use ring::hmac;

pub struct LinkKey(hmac::Key);

impl LinkKey {
    /// The key for links labelled `label` (e.g. `b"order-links-v1"`), derived from `secret`.
    pub fn derive(secret: &[u8], label: &[u8]) -> Self {
        let root = hmac::Key::new(hmac::HMAC_SHA256, secret);
        let derived = hmac::sign(&root, label);
        LinkKey(hmac::Key::new(hmac::HMAC_SHA256, derived.as_ref()))
    }

    /// The signature of `message`, as 64 hex digits.
    pub fn sign(&self, message: &[u8]) -> String {
        hex(hmac::sign(&self.0, message).as_ref())
    }

    /// Whether `signature` (hex) is this key's for `message`, compared in constant time.
    pub fn verifies(&self, message: &[u8], signature: &str) -> bool {
        unhex(signature).is_some_and(|tag| hmac::verify(&self.0, message, &tag).is_ok())
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a hex text, or `None` when it is not one.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_holds_only_for_its_message_and_label() {
        let key = LinkKey::derive(b"0123456789abcdef0123456789abcdef", b"one-v1");
        let signature = key.sign(b"order-a");
        assert_eq!(signature.len(), 64);
        assert!(key.verifies(b"order-a", &signature));
        assert!(!key.verifies(b"order-b", &signature));
        assert!(!key.verifies(b"order-a", "zz"));
        let other = LinkKey::derive(b"0123456789abcdef0123456789abcdef", b"two-v1");
        assert!(!other.verifies(b"order-a", &signature));
        assert_eq!(unhex(&hex(b"hi")).as_deref(), Some(&b"hi"[..]));
    }
}
