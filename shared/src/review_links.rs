//! The "review what you bought" links of the delivered e-mail, one per drink of the order: the orders
//! function makes them, the reviews function trusts them. A token is
//! `{order id}.{drink id as hex}.{expires}.{signature}`, an HMAC-SHA256 with a key derived from
//! `MAIL_LINK_KEY` for these links alone: whoever holds it received the order's mail, so a review written
//! with it is the buyer's, and is shown verified without the buyer typing (or proving) an address.

use crate::signed::{hex, unhex, LinkKey};

/// How long a link in a delivered e-mail lets its reader review the drink.
pub const LINK_DAYS: i64 = 180;
/// The reviews page of the storefront, which opens the review form for a link's token.
pub const PAGE: &str = "/drinks/review";

pub struct ReviewLinks(LinkKey);

/// What a genuine token names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub order: String,
    pub product: String,
}

impl ReviewLinks {
    pub fn new(secret: &[u8]) -> Self {
        ReviewLinks(LinkKey::derive(secret, b"review-links-v1"))
    }

    fn message(order: &str, product: &str, expires: i64) -> Vec<u8> {
        format!("{order}\n{product}\n{expires}").into_bytes()
    }

    pub fn token(&self, order: &str, product: &str, expires: i64) -> String {
        format!(
            "{order}.{}.{expires}.{}",
            hex(product.as_bytes()),
            self.0.sign(&Self::message(order, product, expires))
        )
    }

    /// The order and drink a genuine, unexpired token names.
    pub fn verify(&self, token: &str, now: i64) -> Option<Invitation> {
        let mut parts = token.trim().split('.');
        let (order, product, expires, signature) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || order.is_empty() || order.len() > 64 {
            return None;
        }
        let product = String::from_utf8(unhex(product)?).ok()?;
        let expires: i64 = expires.parse().ok()?;
        (expires >= now
            && self
                .0
                .verifies(&Self::message(order, &product, expires), signature))
        .then(|| Invitation {
            order: order.to_owned(),
            product,
        })
    }

    /// The storefront's address that opens the review form for drink `product` of order `order`.
    pub fn url(&self, site_url: &str, order: &str, product: &str, now: i64) -> String {
        let token = self.token(order, product, now + LINK_DAYS * 24 * 3600);
        format!("{site_url}{PAGE}?write={token}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_order_and_drink_until_it_expires() {
        let links = ReviewLinks::new(b"0123456789abcdef0123456789abcdef");
        let token = links.token("order-1", "drink.with.dots", 1_000);
        let expected = Invitation {
            order: "order-1".to_owned(),
            product: "drink.with.dots".to_owned(),
        };
        assert_eq!(links.verify(&token, 999), Some(expected));
        assert_eq!(links.verify(&token, 1_001), None, "expired");
        let other_drink = token.replacen(&hex(b"drink.with.dots"), &hex(b"another"), 1);
        assert_eq!(links.verify(&other_drink, 999), None);
        assert_eq!(links.verify("a.b.c", 0), None);
        let other_key = ReviewLinks::new(b"another key of at least 32 characters");
        assert_eq!(other_key.verify(&token, 999), None);
        // The order links' key signs nothing here, though derived from the same secret.
        let order_links = LinkKey::derive(b"0123456789abcdef0123456789abcdef", b"order-links-v1");
        let forged = format!(
            "order-1.{}.1000.{}",
            hex(b"drink.with.dots"),
            order_links.sign(b"order-1\ndrink.with.dots\n1000")
        );
        assert_eq!(links.verify(&forged, 999), None);
        assert!(links
            .url("https://shop.example", "order-1", "p", 0)
            .starts_with("https://shop.example/drinks/review?write=order-1.70."));
    }
}
