//! The UK delivery terms every order is priced by: a flat charge, free from a basket value (after the
//! discount code). One reading of the stack's `DELIVERY_FEE` and `FREE_DELIVERY_FROM` for every function that
//! names them: the orders function charges by them and tells the storefront (`GET
//! /api/order/payment-settings/`), and the content function states them in the delivery policy, so the price a
//! shopper reads and the price they pay cannot disagree (DMCC Act 2024: no drip pricing).

use crate::config::{optional, ConfigError, Lookup};
use crate::money::Pence;

/// The flat UK delivery fee, free from a threshold (after the code's discount).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    pub fee: Pence,
    pub free_from: Pence,
}

impl Delivery {
    /// `DELIVERY_FEE` (4.99 when unset) and `FREE_DELIVERY_FROM` (40.00), in pounds.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Delivery {
            fee: pounds(env, "DELIVERY_FEE", "4.99")?,
            free_from: pounds(env, "FREE_DELIVERY_FROM", "40.00")?,
        })
    }

    /// The charge for a basket worth `after_code` (the subtotal once the code is off).
    pub fn charge(&self, after_code: Pence) -> Pence {
        if after_code >= self.free_from {
            Pence::ZERO
        } else {
            self.fee
        }
    }

    /// The terms in words, as every page that invites a purchase names them: "£4.99, free from £40".
    pub fn in_words(&self) -> String {
        format!("{}, free from {}", self.fee, whole_pounds(self.free_from))
    }
}

/// `£40` for a whole number of pounds, `£39.50` otherwise.
pub fn whole_pounds(amount: Pence) -> String {
    if amount.pence() % 100 == 0 {
        format!("£{}", amount.pence() / 100)
    } else {
        amount.to_string()
    }
}

fn pounds(env: &impl Lookup, name: &'static str, default: &str) -> Result<Pence, ConfigError> {
    let raw = optional(env, name, default);
    raw.parse::<f64>()
        .ok()
        .and_then(|p| Pence::from_pounds(p).ok())
        .ok_or(ConfigError::Invalid {
            name,
            reason: format!("{raw:?} is not an amount of pounds"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    #[test]
    fn the_terms_default_read_and_refuse_what_is_not_money() {
        let default = Delivery::from_env(&env(&[])).unwrap();
        assert_eq!(
            (default.fee.pence(), default.free_from.pence()),
            (499, 4000)
        );
        assert_eq!(default.in_words(), "£4.99, free from £40");
        let set = Delivery::from_env(&env(&[
            ("DELIVERY_FEE", "3.5"),
            ("FREE_DELIVERY_FROM", "39.5"),
        ]))
        .unwrap();
        assert_eq!(set.in_words(), "£3.50, free from £39.50");
        assert_eq!(set.charge(Pence::new(3949).unwrap()).pence(), 350);
        assert_eq!(set.charge(Pence::new(3950).unwrap()), Pence::ZERO);
        assert!(Delivery::from_env(&env(&[("DELIVERY_FEE", "four")])).is_err());
    }
}
