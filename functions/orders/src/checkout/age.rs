//! Age-restricted drinks: a basket holding a drink over 150 mg of caffeine a litre is sold only to a buyer
//! who gives a date of birth at or over the shop's minimum age (a site-info setting, 16 unless changed, that
//! can be turned off); the order then carries an age check for the carrier. Refused before anything is read
//! from the bank or held.

use super::pricing::Basket;
use shared::trader::Trader;
use shared::ApiError;
use time::{Date, Month};

/// What `dateOfBirth` accepts (a real date is checked after).
pub const DATE_OF_BIRTH_PATTERN: &str = r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$";

/// The age this basket's buyer must have, when it holds an age-restricted drink and the shop checks ages.
pub fn minimum_age(basket: &Basket, trader: &Trader) -> Option<u32> {
    trader.minimum_age.filter(|_| !basket.restricted.is_empty())
}

/// Whether the order needs an age check on delivery, once a date of birth `raw` (`YYYY-MM-DD`) is checked:
/// any date sent must be real and past; a basket that needs one refuses a missing or under-age date.
pub fn check_age(
    basket: &Basket,
    trader: &Trader,
    raw: Option<&str>,
    today: Date,
) -> Result<bool, ApiError> {
    let born = raw.map(|raw| date_of_birth(raw, today)).transpose()?;
    let Some(minimum) = minimum_age(basket, trader) else {
        return Ok(false);
    };
    let drinks = basket.restricted.join(", ");
    let Some(born) = born else {
        return Err(ApiError::invalid(format!(
            "dateOfBirth: {drinks} is sold only to buyers aged {minimum} or over: enter your date of birth"
        )));
    };
    if years_between(born, today) < minimum {
        return Err(ApiError::invalid(format!(
            "You must be {minimum} or over to buy {drinks}: remove it from your basket to order the rest"
        )));
    }
    Ok(true)
}

/// A date of birth as `YYYY-MM-DD`: a real calendar date, not in the future, within a lifetime.
fn date_of_birth(raw: &str, today: Date) -> Result<Date, ApiError> {
    let malformed =
        || ApiError::invalid("dateOfBirth must be a date as YYYY-MM-DD, e.g. 2001-04-30");
    let text = raw.trim();
    let mut parts = text.split('-');
    let (Some(year), Some(month), Some(day), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed());
    };
    let digits = |part: &str, width: usize| {
        (part.len() == width && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u16>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (digits(year, 4), digits(month, 2), digits(day, 2))
    else {
        return Err(malformed());
    };
    let month = Month::try_from(month as u8).map_err(|_| malformed())?;
    let born =
        Date::from_calendar_date(i32::from(year), month, day as u8).map_err(|_| malformed())?;
    if born > today {
        return Err(ApiError::invalid("dateOfBirth cannot be in the future"));
    }
    if years_between(born, today) > 130 {
        return Err(malformed());
    }
    Ok(born)
}

/// Whole years from `born` to `today`: a birthday of 29 February falls on 1 March in other years.
fn years_between(born: Date, today: Date) -> u32 {
    let before_birthday = (today.month() as u8, today.day()) < (born.month() as u8, born.day());
    let years = today.year() - born.year() - i32::from(before_birthday);
    u32::try_from(years).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(year: i32, month: Month, day: u8) -> Date {
        Date::from_calendar_date(year, month, day).unwrap()
    }

    #[test]
    fn a_buyer_is_sixteen_on_their_sixteenth_birthday_and_not_the_day_before() {
        let today = day(2026, Month::June, 15);
        assert_eq!(years_between(day(2010, Month::June, 15), today), 16);
        assert_eq!(years_between(day(2010, Month::June, 16), today), 15);
        // Born on 29 February: 18 on 1 March of a year without one.
        let leap = day(2008, Month::February, 29);
        assert_eq!(years_between(leap, day(2024, Month::February, 29)), 16);
        assert_eq!(years_between(leap, day(2026, Month::February, 28)), 17);
        assert_eq!(years_between(leap, day(2026, Month::March, 1)), 18);
    }

    #[test]
    fn only_a_real_past_date_is_a_date_of_birth() {
        let today = day(2026, Month::June, 15);
        assert_eq!(
            date_of_birth(" 2001-04-30 ", today).unwrap(),
            day(2001, Month::April, 30)
        );
        for bad in [
            "2001-4-30",
            "2001-02-30",
            "30/04/2001",
            "2001-13-01",
            "20010430",
            "1850-01-01",
            "",
        ] {
            assert_eq!(
                date_of_birth(bad, today).unwrap_err().message(),
                "dateOfBirth must be a date as YYYY-MM-DD, e.g. 2001-04-30",
                "{bad}"
            );
        }
        assert_eq!(
            date_of_birth("2026-06-16", today).unwrap_err().message(),
            "dateOfBirth cannot be in the future"
        );
    }
}
