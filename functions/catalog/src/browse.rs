//! The shop's choice of order and filters (`?sort=&category=&inStock=&minPrice=&maxPrice=`), parsed once
//! at the edge. Ordering and filtering happen here, over the whole catalogue, before the list is cut into
//! pages: page 2 of a sorted list continues page 1.

use crate::snapshot::Listed;
use serde::Deserialize;
use shared::money::Pence;
use shared::ApiError;
use std::cmp::Ordering;

/// The orders the shop offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SortOrder {
    /// The admin's order (each drink's `sort`, then its name).
    #[default]
    Featured,
    /// Cheapest first, by the price paid (`Discountprice`).
    PriceAsc,
    /// Dearest first, by the price paid.
    PriceDesc,
    /// The most recently added first.
    Newest,
    /// The highest average rating first; more reviews first between equals; unreviewed drinks last.
    Rating,
}

impl SortOrder {
    const NAMES: &'static str = "featured, price-asc, price-desc, newest or rating";

    fn parse(raw: &str) -> Result<Self, ApiError> {
        match raw {
            "featured" => Ok(SortOrder::Featured),
            "price-asc" => Ok(SortOrder::PriceAsc),
            "price-desc" => Ok(SortOrder::PriceDesc),
            "newest" => Ok(SortOrder::Newest),
            "rating" => Ok(SortOrder::Rating),
            _ => Err(ApiError::bad_request(format!(
                "sort must be {}",
                Self::NAMES
            ))),
        }
    }

    /// How two drinks compare; equals keep the admin's order (the sort that uses this is stable).
    fn compare(self, a: &Listed, b: &Listed) -> Ordering {
        let paid = |d: &Listed| d.product.discount_price();
        match self {
            SortOrder::Featured => Ordering::Equal,
            SortOrder::PriceAsc => paid(a).cmp(&paid(b)),
            SortOrder::PriceDesc => paid(b).cmp(&paid(a)),
            // ISO 8601 UTC timestamps of one format order as text.
            SortOrder::Newest => b.product.created_at.cmp(&a.product.created_at),
            SortOrder::Rating => {
                let key = |d: &Listed| {
                    let rating = d.rating.unwrap_or_default();
                    // Tenths as whole numbers: the averages are rounded to a tenth already.
                    ((rating.average * 10.0).round() as u64, rating.count)
                };
                key(b).cmp(&key(a))
            }
        }
    }
}

/// The query of `GET /api/home/drinks/hom/uk/uk/`, as text so that a bad value gets the shop's message.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct DrinksQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    pub page_number: Option<String>,
    /// Only the drinks of this category (`_id`).
    pub category: Option<String>,
    /// The order: `featured` (the admin's, when absent), `price-asc`, `price-desc`, `newest` or `rating`.
    #[serde(default)]
    #[schemars(with = "SortOrder")]
    pub sort: Option<String>,
    /// `true`: only drinks with units in stock; `false` (as when absent): every drink.
    #[serde(rename = "inStock", default)]
    #[schemars(with = "bool")]
    pub in_stock: Option<String>,
    /// Pounds: only drinks whose price paid is at least this.
    #[serde(rename = "minPrice", default)]
    #[schemars(with = "PriceParam")]
    pub min_price: Option<String>,
    /// Pounds: only drinks whose price paid is at most this.
    #[serde(rename = "maxPrice", default)]
    #[schemars(with = "PriceParam")]
    pub max_price: Option<String>,
}

/// A price in the query: pounds, up to 2 decimals (`4`, `4.5`, `4.99`); blank is no bound (a form's empty box).
#[derive(schemars::JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)] // only its schema is read
struct PriceParam(#[schemars(regex(pattern = r"^([0-9]{1,7}(\.[0-9]{1,2})?)?$"))] String);

/// A parsed choice of order and filters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Browse {
    pub sort: SortOrder,
    pub category: Option<String>,
    pub in_stock: bool,
    pub min_price: Option<Pence>,
    pub max_price: Option<Pence>,
}

impl Browse {
    pub fn parse(query: &DrinksQuery) -> Result<Self, ApiError> {
        let sort = match query.sort.as_deref() {
            None => SortOrder::default(),
            Some(raw) => SortOrder::parse(raw)?,
        };
        let in_stock = match query.in_stock.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(_) => return Err(ApiError::bad_request("inStock must be true or false")),
        };
        let min_price = price("minPrice", query.min_price.as_deref())?;
        let max_price = price("maxPrice", query.max_price.as_deref())?;
        if let (Some(min), Some(max)) = (min_price, max_price) {
            if min > max {
                return Err(ApiError::bad_request("minPrice must not be above maxPrice"));
            }
        }
        let category = query
            .category
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned);
        Ok(Browse {
            sort,
            category,
            in_stock,
            min_price,
            max_price,
        })
    }

    fn keeps(&self, drink: &Listed) -> bool {
        let product = &drink.product;
        let paid = product.discount_price();
        (self.category.is_none() || product.category == self.category)
            && (!self.in_stock || product.stock > 0)
            && self.min_price.is_none_or(|min| paid >= min)
            && self.max_price.is_none_or(|max| paid <= max)
    }

    /// The drinks this choice keeps, in its order (the catalogue comes in the admin's order).
    pub fn apply<'a>(&self, drinks: &'a [Listed]) -> Vec<&'a Listed> {
        let mut kept: Vec<&Listed> = drinks.iter().filter(|d| self.keeps(d)).collect();
        kept.sort_by(|a, b| self.sort.compare(a, b));
        kept
    }
}

/// A price bound: pounds as digits with at most 2 decimals; blank is no bound.
fn price(name: &str, raw: Option<&str>) -> Result<Option<Pence>, ApiError> {
    let Some(raw) = raw.filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let refuse = || {
        ApiError::bad_request(format!(
            "{name} must be an amount in pounds, like 4 or 4.99"
        ))
    };
    let (whole, fraction) = raw.split_once('.').unwrap_or((raw, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 7
        || !digits(whole)
        || fraction.len() > 2
        || !digits(fraction)
        || (raw.contains('.') && fraction.is_empty())
    {
        return Err(refuse());
    }
    let pence = whole.parse::<i64>().map_err(|_| refuse())? * 100
        + format!("{fraction:0<2}")
            .parse::<i64>()
            .map_err(|_| refuse())?;
    Pence::new(pence).map(Some).map_err(|_| refuse())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Result<Browse, ApiError> {
        let text = pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        let uri: http::Uri = format!("/?{text}").parse().unwrap();
        let query = axum::extract::Query::<DrinksQuery>::try_from_uri(&uri).unwrap();
        Browse::parse(&query.0)
    }

    #[test]
    fn absent_values_mean_the_admins_order_and_no_filter() {
        assert_eq!(query(&[]).unwrap(), Browse::default());
        assert_eq!(
            query(&[("minPrice", ""), ("maxPrice", ""), ("category", "")]).unwrap(),
            Browse::default()
        );
    }

    #[test]
    fn values_are_read() {
        let browse = query(&[
            ("sort", "price-desc"),
            ("inStock", "true"),
            ("minPrice", "1.5"),
            ("maxPrice", "20"),
            ("category", "c1"),
        ])
        .unwrap();
        assert_eq!(browse.sort, SortOrder::PriceDesc);
        assert!(browse.in_stock);
        assert_eq!(browse.min_price, Some(Pence::new(150).unwrap()));
        assert_eq!(browse.max_price, Some(Pence::new(2000).unwrap()));
        assert_eq!(browse.category.as_deref(), Some("c1"));
    }

    #[test]
    fn bad_values_are_named() {
        for (pairs, message) in [
            (
                vec![("sort", "cheapest")],
                "sort must be featured, price-asc, price-desc, newest or rating",
            ),
            (vec![("inStock", "yes")], "inStock must be true or false"),
            (vec![("inStock", "")], "inStock must be true or false"),
            (
                vec![("sort", "")],
                "sort must be featured, price-asc, price-desc, newest or rating",
            ),
            (
                vec![("minPrice", "-1")],
                "minPrice must be an amount in pounds, like 4 or 4.99",
            ),
            (
                vec![("maxPrice", "1.999")],
                "maxPrice must be an amount in pounds, like 4 or 4.99",
            ),
            (
                vec![("maxPrice", "1e3")],
                "maxPrice must be an amount in pounds, like 4 or 4.99",
            ),
            (
                vec![("minPrice", "3."), ("maxPrice", "4")],
                "minPrice must be an amount in pounds, like 4 or 4.99",
            ),
            (
                vec![("minPrice", "10"), ("maxPrice", "5")],
                "minPrice must not be above maxPrice",
            ),
        ] {
            let error = query(&pairs).unwrap_err();
            assert_eq!((error.status().as_u16(), error.message()), (400, message));
        }
    }
}
