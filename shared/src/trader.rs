//! The trader a shopper contracts with, as the site info record holds it: name, geographic address, contact
//! details, the VAT rate prices include and the VAT number, and the delivery estimate. The content function
//! owns the record and reads it (`content::store::trader`); the orders function reads these facts through it
//! at checkout for the order's VAT and for the confirmation e-mail (Consumer Contracts Regulations 2013,
//! schedule 2). Attribute names are the record's: this is the parsed type both share.

use crate::dynamo::{get_n, get_s_or_default, Item};
use crate::money::Pence;

/// UK standard rate, the rate prices include until an admin sets another.
pub const DEFAULT_VAT_RATE: u32 = 20;
/// Said when the site info has no estimate of its own.
pub const DEFAULT_DELIVERY_ESTIMATE: &str = "2 to 4 working days";
/// The age from which age-restricted (high-caffeine) drinks are sold until an admin sets another or
/// turns the check off.
pub const DEFAULT_MINIMUM_AGE: u32 = 16;
/// The ages an admin may set for age-restricted drinks.
pub const MINIMUM_AGES: std::ops::RangeInclusive<u32> = 16..=18;

#[derive(Debug, Clone, PartialEq)]
pub struct Trader {
    pub name: String,
    pub address: String,
    pub email: String,
    pub phone: String,
    /// A whole percentage, e.g. 20.
    pub vat_rate: u32,
    /// Blank when the shop has not set one.
    pub vat_number: String,
    pub delivery_estimate: String,
    /// The company's registered name, number and registered office (Companies (Trading Disclosures)
    /// Regulations 2015; E-Commerce Regulations 2002 reg. 6), each blank until the admin sets it.
    pub company_name: String,
    pub company_number: String,
    pub registered_office: String,
    /// The age a buyer of an age-restricted drink must have; `None` when the shop has turned the check off
    /// (stored as 0).
    pub minimum_age: Option<u32>,
}

impl Trader {
    /// The facts from a stored site info record, with the defaults for what it leaves out.
    pub fn from_item(item: &Item, fallback_name: &str) -> Trader {
        let name = get_s_or_default(item, "name");
        let estimate = get_s_or_default(item, "deliveryEstimate");
        Trader {
            name: if name.is_empty() {
                fallback_name.to_owned()
            } else {
                name
            },
            address: get_s_or_default(item, "address"),
            email: get_s_or_default(item, "email"),
            phone: get_s_or_default(item, "phone"),
            vat_rate: get_n(item, "vatRate").unwrap_or(DEFAULT_VAT_RATE),
            vat_number: get_s_or_default(item, "vatNumber"),
            delivery_estimate: if estimate.is_empty() {
                DEFAULT_DELIVERY_ESTIMATE.to_owned()
            } else {
                estimate
            },
            company_name: get_s_or_default(item, "companyName"),
            company_number: get_s_or_default(item, "companyNumber"),
            registered_office: get_s_or_default(item, "registeredOffice"),
            minimum_age: match get_n::<u32>(item, "minimumAge") {
                Ok(0) => None,
                Ok(age) => Some(age),
                Err(_) => Some(DEFAULT_MINIMUM_AGE),
            },
        }
    }

    /// The company as the law asks it be named, "Fizz Ltd, registered in England and Wales, company number
    /// 01234567, registered office 1 Mill Yard, Leeds"; `None` until the admin has set the company's name.
    pub fn company_line(&self) -> Option<String> {
        if self.company_name.trim().is_empty() {
            return None;
        }
        let mut line = self.company_name.trim().to_owned();
        if !self.company_number.is_empty() {
            line.push_str(&format!(", company number {}", self.company_number));
        }
        if !self.registered_office.trim().is_empty() {
            line.push_str(&format!(
                ", registered office {}",
                one_line(&self.registered_office)
            ));
        }
        Some(line)
    }

    /// The VAT a VAT-inclusive amount holds at this trader's rate.
    pub fn vat_in(&self, gross: Pence) -> Pence {
        vat_in(gross, self.vat_rate)
    }
}

/// An address kept on several lines, written on one ("1 Mill Yard, Leeds LS1 1AA").
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The VAT inside a VAT-inclusive `gross` at `rate` percent: gross × rate / (100 + rate), rounded half-up to
/// the penny once (HMRC lets a retailer round the VAT of a whole invoice once).
pub fn vat_in(gross: Pence, rate: u32) -> Pence {
    let gross = i128::from(gross.pence());
    let rate = i128::from(rate);
    let vat = (2 * gross * rate + 100 + rate) / (2 * (100 + rate));
    Pence::new(vat as i64).unwrap_or(Pence::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamo::{n, s};

    fn p(pence: i64) -> Pence {
        Pence::new(pence).unwrap()
    }

    #[test]
    fn vat_inside_a_gross_amount_rounds_half_up_once() {
        assert_eq!(vat_in(p(1200), 20), p(200));
        // 1234 / 6 = 205.67
        assert_eq!(vat_in(p(1234), 20), p(206));
        // 3 / 6 = 0.5 rounds up.
        assert_eq!(vat_in(p(3), 20), p(1));
        assert_eq!(vat_in(p(1050), 5), p(50));
        assert_eq!(vat_in(p(999), 0), Pence::ZERO);
        // Once for the whole: three lines of 0.50 hold 0.25, not 3 x 0.08.
        assert_eq!(vat_in(p(150), 20), p(25));
    }

    #[test]
    fn a_missing_record_gives_the_defaults() {
        let trader = Trader::from_item(&Item::new(), "Palestine Drinks");
        assert_eq!(trader.name, "Palestine Drinks");
        assert_eq!(trader.vat_rate, DEFAULT_VAT_RATE);
        assert_eq!(trader.delivery_estimate, DEFAULT_DELIVERY_ESTIMATE);
        assert_eq!(trader.minimum_age, Some(DEFAULT_MINIMUM_AGE));
        let off = Item::from([("minimumAge".to_owned(), n(0))]);
        assert_eq!(Trader::from_item(&off, "x").minimum_age, None);
        let item = Item::from([
            ("name".to_owned(), s("Fizz Ltd")),
            ("vatRate".to_owned(), n(5)),
            ("vatNumber".to_owned(), s("GB123456789")),
        ]);
        let trader = Trader::from_item(&item, "x");
        assert_eq!(
            (
                trader.name.as_str(),
                trader.vat_rate,
                trader.vat_number.as_str()
            ),
            ("Fizz Ltd", 5, "GB123456789")
        );
        assert_eq!(trader.company_line(), None);
        let item = Item::from([
            ("companyName".to_owned(), s("Fizz Drinks Ltd")),
            ("companyNumber".to_owned(), s("01234567")),
            (
                "registeredOffice".to_owned(),
                s("1 Mill Yard\nLeeds LS1 1AA"),
            ),
        ]);
        assert_eq!(
            Trader::from_item(&item, "x").company_line().as_deref(),
            Some("Fizz Drinks Ltd, company number 01234567, registered office 1 Mill Yard, Leeds LS1 1AA")
        );
    }
}
