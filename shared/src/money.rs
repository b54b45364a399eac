//! Money as whole pence inside the system and pounds with 2 decimals in JSON. Percentages are whole
//! numbers from 0 to 100; a discounted price rounds half-up to the penny.

use serde::{Serialize, Serializer};
use std::fmt;

/// An amount of money in pence. Never negative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pence(i64);

#[derive(Debug, PartialEq, Eq)]
pub enum MoneyError {
    NotANumber,
    Negative,
    TooManyDecimals,
    TooLarge,
}

impl fmt::Display for MoneyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoneyError::NotANumber => "must be a number of pounds",
            MoneyError::Negative => "must not be negative",
            MoneyError::TooManyDecimals => "must have at most 2 decimals",
            MoneyError::TooLarge => "is too large",
        })
    }
}

/// Ten million pounds: far above any basket, far below where f64 loses pennies.
const MAX_PENCE: i64 = 1_000_000_000;

impl Pence {
    pub const ZERO: Pence = Pence(0);

    pub fn new(pence: i64) -> Result<Self, MoneyError> {
        if pence < 0 {
            Err(MoneyError::Negative)
        } else if pence > MAX_PENCE {
            Err(MoneyError::TooLarge)
        } else {
            Ok(Pence(pence))
        }
    }

    /// Reads pounds as JSON carries them (`4.99`), refusing fractions of a penny.
    pub fn from_pounds(pounds: f64) -> Result<Self, MoneyError> {
        if !pounds.is_finite() {
            return Err(MoneyError::NotANumber);
        }
        let scaled = pounds * 100.0;
        let rounded = scaled.round();
        if (scaled - rounded).abs() > 1e-6 {
            return Err(MoneyError::TooManyDecimals);
        }
        if rounded.abs() > MAX_PENCE as f64 {
            return Err(MoneyError::TooLarge);
        }
        Pence::new(rounded as i64)
    }

    pub fn pence(self) -> i64 {
        self.0
    }

    /// Pounds for JSON: exact to the penny when printed.
    pub fn pounds(self) -> f64 {
        self.0 as f64 / 100.0
    }

    pub fn times(self, quantity: u32) -> Pence {
        Pence(self.0.saturating_mul(i64::from(quantity)))
    }

    pub fn plus(self, other: Pence) -> Pence {
        Pence(self.0.saturating_add(other.0))
    }

    /// Never below zero.
    pub fn minus(self, other: Pence) -> Pence {
        Pence((self.0 - other.0).max(0))
    }

    /// This amount less `percent` of it, rounded half-up to the penny.
    pub fn less_percent(self, percent: Percent) -> Pence {
        let kept = self.0 * i64::from(100 - percent.0);
        Pence((kept + 50) / 100)
    }
}

impl fmt::Display for Pence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "£{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

/// Pounds as a JSON number with at most two decimals, e.g. `4.99`.
impl schemars::JsonSchema for Pence {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Pounds".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "minimum": 0,
            "description": "An amount in pounds sterling, at most two decimals (4.99)."
        })
    }
}

impl Serialize for Pence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.pounds())
    }
}

/// A whole percentage from 0 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
pub struct Percent(u8);

impl schemars::JsonSchema for Percent {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Percent".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "minimum": 0, "maximum": 100 })
    }
}

impl Percent {
    pub const ZERO: Percent = Percent(0);

    pub fn new(value: f64) -> Result<Self, &'static str> {
        if !value.is_finite() || value.fract() != 0.0 {
            Err("must be a whole percentage")
        } else if !(0.0..=100.0).contains(&value) {
            Err("must be from 0 to 100")
        } else {
            Ok(Percent(value as u8))
        }
    }

    pub fn value(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pounds_round_trip_to_pence() {
        assert_eq!(Pence::from_pounds(4.99).unwrap().pence(), 499);
        assert_eq!(Pence::from_pounds(0.1 + 0.2).unwrap().pence(), 30);
        assert_eq!(Pence::from_pounds(1.0).unwrap().pence(), 100);
        assert_eq!(
            serde_json::to_string(&Pence::new(499).unwrap()).unwrap(),
            "4.99"
        );
        assert_eq!(
            serde_json::to_string(&Pence::new(500).unwrap()).unwrap(),
            "5.0"
        );
    }

    #[test]
    fn fractions_of_a_penny_and_negatives_are_refused() {
        assert_eq!(Pence::from_pounds(4.999), Err(MoneyError::TooManyDecimals));
        assert_eq!(Pence::from_pounds(-1.0), Err(MoneyError::Negative));
        assert_eq!(Pence::from_pounds(f64::NAN), Err(MoneyError::NotANumber));
        assert_eq!(Pence::from_pounds(1e12), Err(MoneyError::TooLarge));
    }

    #[test]
    fn discounts_round_half_up() {
        let price = Pence::new(199).unwrap();
        let fifteen = Percent::new(15.0).unwrap();
        // 3 x £1.99 at 15% = £5.07 (507.45p rounds down; the spec's example).
        assert_eq!(price.times(3).less_percent(fifteen).pence(), 507);
        // 250p at 10% = 225p exactly; 5p at 10% = 4.5p rounds up to 5p.
        assert_eq!(
            Pence::new(250)
                .unwrap()
                .less_percent(Percent::new(10.0).unwrap())
                .pence(),
            225
        );
        assert_eq!(
            Pence::new(5)
                .unwrap()
                .less_percent(Percent::new(10.0).unwrap())
                .pence(),
            5
        );
        assert_eq!(
            price.less_percent(Percent::new(100.0).unwrap()),
            Pence::ZERO
        );
        assert_eq!(price.less_percent(Percent::ZERO), price);
    }

    #[test]
    fn percentages_are_whole_and_in_range() {
        assert!(Percent::new(12.5).is_err());
        assert!(Percent::new(101.0).is_err());
        assert!(Percent::new(-1.0).is_err());
        assert_eq!(Percent::new(100.0).unwrap().value(), 100);
    }

    #[test]
    fn display_uses_pounds_sign() {
        assert_eq!(Pence::new(1205).unwrap().to_string(), "£12.05");
    }
}
