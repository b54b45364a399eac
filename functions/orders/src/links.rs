//! The order links e-mails carry: `/myorder/{id}?key={expires}.{signature}`, an HMAC-SHA256 over the order
//! id and the expiry with a key derived from `MAIL_LINK_KEY`. A key opens its own order only, for 90 days,
//! without logging in; what it shows follows the public order view's rules.

use shared::signed::LinkKey;

/// How long an e-mailed order link works.
pub const LINK_DAYS: i64 = 90;

pub struct OrderLinks(LinkKey);

impl OrderLinks {
    /// A key of its own, derived from `secret`, so a link's signature is never valid anywhere else.
    pub fn new(secret: &[u8]) -> Self {
        OrderLinks(LinkKey::derive(secret, b"order-links-v1"))
    }

    fn message(id: &str, expires: i64) -> Vec<u8> {
        format!("{id}\n{expires}").into_bytes()
    }

    /// The key for order `id`, working until `expires` (unix seconds).
    pub fn key(&self, id: &str, expires: i64) -> String {
        format!("{expires}.{}", self.0.sign(&Self::message(id, expires)))
    }

    /// Whether `key` was made for order `id` and still works at `now`.
    pub fn opens(&self, id: &str, key: &str, now: i64) -> bool {
        let Some((expires, signature)) = key.trim().split_once('.') else {
            return false;
        };
        let Ok(expires) = expires.parse::<i64>() else {
            return false;
        };
        expires >= now && self.0.verifies(&Self::message(id, expires), signature)
    }

    /// A key for order `id` working for `LINK_DAYS` from `now`.
    pub fn fresh_key(&self, id: &str, now: i64) -> String {
        self.key(id, now + LINK_DAYS * 24 * 3600)
    }

    /// The order page's address with a key working for `LINK_DAYS` from `now`.
    pub fn url(&self, site_url: &str, id: &str, now: i64) -> String {
        page_url(site_url, id, &self.fresh_key(id, now))
    }
}

/// The order page's address opened with `key`.
pub fn page_url(site_url: &str, id: &str, key: &str) -> String {
    format!("{site_url}/myorder/{id}?key={key}")
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
