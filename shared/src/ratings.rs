//! Where the reviews function keeps a drink's rating counters, so the catalogue can read them for its cards
//! and its "best rated" order without knowing more of the reviews table: the key of a summary item, the
//! names of its count and star-sum attributes, and the average as both show it. The reviews crate owns the
//! table; this is its one read path for others, kept here because the catalog sits below the reviews crate
//! (which reads drinks) and cannot depend on it.

use crate::dynamo::{get_n, s, Item};

/// The summary item of every review (`None`) or of one drink's (`Some(id)`).
pub fn summary_key(product: Option<&str>) -> Item {
    let pk = match product {
        None => "SUMMARY#ALL".to_owned(),
        Some(id) => format!("{PRODUCT_SUMMARY}{id}"),
    };
    Item::from([("pk".to_owned(), s(pk)), ("sk".to_owned(), s("SUMMARY"))])
}

const PRODUCT_SUMMARY: &str = "SUMMARY#PRODUCT#";

/// The drink a summary item's `pk` counts, `None` for the whole shop's (or any other item's).
pub fn product_of(pk: &str) -> Option<&str> {
    pk.strip_prefix(PRODUCT_SUMMARY)
}

/// The number of reviews counted.
pub const TOTAL: &str = "total";
/// The sum of their stars.
pub const STAR_SUM: &str = "ratingSum";

/// A summary item's count and star sum (0 for a missing or negative attribute).
pub fn counts(item: &Item) -> (u64, u64) {
    let count = |name: &str| get_n::<i64>(item, name).unwrap_or(0).max(0) as u64;
    (count(TOTAL), count(STAR_SUM))
}

/// The average to one decimal, half-up; 0 without reviews.
pub fn average(sum: u64, total: u64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    // Whole tenths first, so 4.25 is 4.3 and the float never shows 4.300000001.
    let tenths = (sum * 100 / total + 5) / 10;
    tenths as f64 / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_rounds_half_up_to_a_tenth() {
        assert_eq!(average(0, 0), 0.0);
        assert_eq!(average(17, 4), 4.3);
        assert_eq!(average(14, 3), 4.7);
        assert_eq!(average(10, 2), 5.0);
    }

    #[test]
    fn a_drinks_summary_is_keyed_apart_from_the_whole_shops() {
        assert_eq!(summary_key(Some("d1"))["pk"], s("SUMMARY#PRODUCT#d1"));
        assert_eq!(summary_key(None)["pk"], s("SUMMARY#ALL"));
        assert_eq!(product_of("SUMMARY#PRODUCT#d1"), Some("d1"));
        assert_eq!(product_of("SUMMARY#ALL"), None);
    }
}
