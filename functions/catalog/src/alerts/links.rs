//! The signed links of alert mails: the confirmation link a sign-up mails (naming the address, the drink and
//! when it expires) and the stop link in every back-in-stock mail (naming the address), each with a key of
//! its own derived from `MAIL_LINK_KEY`, so only the address itself can use them.

use shared::signed::{hex, unhex, LinkKey};

/// The stop links in alert mails: an HMAC over the address with a key derived from `MAIL_LINK_KEY`; and
/// the confirmation links, with a key of their own.
pub struct AlertLinks(LinkKey, LinkKey);

impl AlertLinks {
    pub fn new(secret: &[u8]) -> Self {
        AlertLinks(
            LinkKey::derive(secret, b"alert-links-v1"),
            LinkKey::derive(secret, b"alert-confirm-v1"),
        )
    }

    fn confirm_message(email: &str, product: &str, expires: i64) -> Vec<u8> {
        format!("{email}\n{product}\n{expires}").into_bytes()
    }

    /// `{address as hex}.{drink as hex}.{expires}.{signature}`.
    pub fn confirm_token(&self, email: &str, product: &str, expires: i64) -> String {
        format!(
            "{}.{}.{expires}.{}",
            hex(email.as_bytes()),
            hex(product.as_bytes()),
            self.1.sign(&Self::confirm_message(email, product, expires))
        )
    }

    /// The address and drink a genuine, unexpired confirmation token names.
    pub fn confirmed(&self, token: &str, now: i64) -> Option<(String, String)> {
        let mut parts = token.trim().split('.');
        let (email, product, expires, signature) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let email = String::from_utf8(unhex(email)?).ok()?;
        let product = String::from_utf8(unhex(product)?).ok()?;
        let expires: i64 = expires.parse().ok()?;
        (expires >= now
            && self
                .1
                .verifies(&Self::confirm_message(&email, &product, expires), signature))
        .then_some((email, product))
    }

    /// `{address as hex}.{signature}`.
    pub fn token(&self, email: &str) -> String {
        format!(
            "{}.{}",
            hex(email.as_bytes()),
            self.0.sign(email.as_bytes())
        )
    }

    /// The address a genuine token names.
    pub fn verify(&self, token: &str) -> Option<String> {
        let (address, signature) = token.trim().split_once('.')?;
        let email = String::from_utf8(unhex(address)?).ok()?;
        self.0
            .verifies(email.as_bytes(), signature)
            .then_some(email)
    }
}

#[cfg(test)]
mod tests {
    use super::AlertLinks;

    #[test]
    fn a_stop_token_names_its_address_and_cannot_be_made_for_another() {
        let links = AlertLinks::new(b"0123456789abcdef0123456789abcdef");
        let token = links.token("layla@example.com");
        assert_eq!(links.verify(&token).as_deref(), Some("layla@example.com"));
        let (_, signature) = token.split_once('.').unwrap();
        let forged = format!("{}.{signature}", shared::signed::hex(b"omar@example.com"));
        assert_eq!(links.verify(&forged), None);
        assert_eq!(links.verify("zz.zz"), None);
    }

    #[test]
    fn a_confirmation_token_names_its_address_and_drink_until_it_expires() {
        let links = AlertLinks::new(b"0123456789abcdef0123456789abcdef");
        let token = links.confirm_token("layla@example.com", "p.1", 1_000);
        assert_eq!(
            links.confirmed(&token, 999),
            Some(("layla@example.com".to_owned(), "p.1".to_owned()))
        );
        assert_eq!(links.confirmed(&token, 1_001), None, "expired");
        // A stop link's signature confirms nothing.
        let stop = links.token("layla@example.com");
        assert_eq!(links.confirmed(&stop, 0), None);
        let moved = token.replacen(
            &shared::signed::hex(b"p.1"),
            &shared::signed::hex(b"p.2"),
            1,
        );
        assert_eq!(links.confirmed(&moved, 999), None);
    }
}
