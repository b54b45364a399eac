//! The order links e-mails carry: `/myorder/{id}?key={expires}.{signature}`, an HMAC-SHA256 over the order
//! id and the expiry with a key derived from `MAIL_LINK_KEY`. A key opens its own order only, for 90 days,
//! without logging in; what it shows follows the public order view's rules.

use ring::hmac;

/// How long an e-mailed order link works.
pub const LINK_DAYS: i64 = 90;

pub struct OrderLinks(hmac::Key);

impl OrderLinks {
    /// A key of its own, derived from `secret`, so a link's signature is never valid anywhere else.
    pub fn new(secret: &[u8]) -> Self {
        let root = hmac::Key::new(hmac::HMAC_SHA256, secret);
        let derived = hmac::sign(&root, b"order-links-v1");
        OrderLinks(hmac::Key::new(hmac::HMAC_SHA256, derived.as_ref()))
    }

    fn message(id: &str, expires: i64) -> Vec<u8> {
        format!("{id}\n{expires}").into_bytes()
    }

    /// The key for order `id`, working until `expires` (unix seconds).
    pub fn key(&self, id: &str, expires: i64) -> String {
        let tag = hmac::sign(&self.0, &Self::message(id, expires));
        let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("{expires}.{hex}")
    }

    /// Whether `key` was made for order `id` and still works at `now`.
    pub fn opens(&self, id: &str, key: &str, now: i64) -> bool {
        let Some((expires, signature)) = key.trim().split_once('.') else {
            return false;
        };
        let Ok(expires) = expires.parse::<i64>() else {
            return false;
        };
        if expires < now || signature.len() != 64 || !signature.is_ascii() {
            return false;
        }
        let tag: Option<Vec<u8>> = (0..64)
            .step_by(2)
            .map(|i| u8::from_str_radix(&signature[i..i + 2], 16).ok())
            .collect();
        tag.is_some_and(|tag| hmac::verify(&self.0, &Self::message(id, expires), &tag).is_ok())
    }

    /// The order page's address with a key working for `LINK_DAYS` from `now`.
    pub fn url(&self, site_url: &str, id: &str, now: i64) -> String {
        let key = self.key(id, now + LINK_DAYS * 24 * 3600);
        format!("{site_url}/myorder/{id}?key={key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_opens_its_own_order_until_it_expires() {
        let links = OrderLinks::new(b"0123456789abcdef0123456789abcdef");
        let key = links.key("order-a", 1_000);
        assert!(links.opens("order-a", &key, 999));
        assert!(links.opens("order-a", &key, 1_000));
        assert!(!links.opens("order-a", &key, 1_001), "expired");
        assert!(!links.opens("order-b", &key, 999), "another order");
        assert!(
            !links.opens("order-a", &key.replace("1000.", "9999."), 999),
            "a moved expiry"
        );
        assert!(!links.opens("order-a", "nonsense", 0));
        let other = OrderLinks::new(b"another key of at least 32 characters");
        assert!(!other.opens("order-a", &key, 999));
        assert!(links
            .url("https://shop.example", "order-a", 0)
            .starts_with("https://shop.example/myorder/order-a?key=7776000."));
    }
}
