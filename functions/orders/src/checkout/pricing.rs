//! Pricing a basket from the catalogue: each unit at the drink's own (discounted) price, the code off the
//! subtotal, then delivery. A client's price is never read.

use crate::order::Line;
use crate::AppState;
use catalog::Product;
use discounts::DiscountCode;
use shared::money::{Pence, Percent};
use shared::ApiError;
use std::collections::HashMap;

pub struct Priced {
    pub lines: Vec<Line>,
    pub subtotal: Pence,
    pub discount: Pence,
    pub shipping: Pence,
    pub total: Pence,
}

/// A basket as the catalogue and the code price it now.
pub struct Basket {
    pub priced: Priced,
    pub code: Option<DiscountCode>,
    pub rate: Percent,
    /// The names of its age-restricted drinks (over the high-caffeine threshold).
    pub restricted: Vec<String>,
}

/// Prices the wanted lines: each drink must exist and have the units in stock, the code must be usable.
pub async fn price_basket(
    state: &AppState,
    wanted: &[(String, u32)],
    code: Option<&str>,
    now: i64,
) -> Result<Basket, ApiError> {
    let ids: Vec<String> = wanted.iter().map(|(id, _)| id.clone()).collect();
    let products = catalog::store::products_by_id(&state.db, &state.tables.catalog, &ids).await?;
    let lines = lines_in_stock(wanted, &products)?;
    let restricted = lines
        .iter()
        .filter_map(|line| products.get(&line.product))
        .filter(|product| product.minimum_age().is_some())
        .map(|product| product.name.clone())
        .collect();
    let code = load_code(state, code, now).await?;
    let rate = code.as_ref().map(|c| c.discount).unwrap_or(Percent::ZERO);
    Ok(Basket {
        priced: price(lines, rate, state.delivery),
        code,
        rate,
        restricted,
    })
}

/// Each wanted line as a copy of its drink, refused when the drink is missing or has too few in stock.
fn lines_in_stock(
    wanted: &[(String, u32)],
    products: &HashMap<String, Product>,
) -> Result<Vec<Line>, ApiError> {
    let mut lines = Vec::with_capacity(wanted.len());
    for (id, qty) in wanted {
        let product = products
            .get(id)
            .ok_or_else(|| ApiError::invalid(format!("product {id} does not exist")))?;
        if product.stock < *qty {
            return Err(ApiError::conflict(if product.stock == 0 {
                format!("{} is sold out", product.name)
            } else {
                format!("Only {} of {} left", product.stock, product.name)
            }));
        }
        lines.push(Line {
            product: id.clone(),
            name: product.name.clone(),
            image: product.image.first().cloned().unwrap_or_default(),
            qty: *qty,
            quantity: product.qty.clone(),
            price_pence: product.discount_price().pence(),
        });
    }
    Ok(lines)
}

/// The code's rate, or why it cannot be used.
async fn load_code(
    state: &AppState,
    raw: Option<&str>,
    now: i64,
) -> Result<Option<DiscountCode>, ApiError> {
    let Some(raw) = raw.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let text = discounts::normalise_code(raw)
        .map_err(|_| ApiError::invalid("code: this code does not exist"))?;
    let code = discounts::store::code(&state.db, &state.tables.codes, &text)
        .await?
        .ok_or_else(|| ApiError::invalid("code: this code does not exist"))?;
    if let Some(why) = code.refusal(now) {
        return Err(ApiError::invalid(format!("code: {why}")));
    }
    Ok(Some(code))
}

/// Prices lines from the catalogue: each unit at the product's discounted price, the code off the
/// subtotal (half-up to the penny), then delivery unless the discounted subtotal reaches the threshold.
pub fn price(lines: Vec<Line>, rate: Percent, delivery: crate::Delivery) -> Priced {
    let subtotal = lines.iter().fold(Pence::ZERO, |sum, l| {
        sum.plus(Pence::new(l.price_pence).unwrap_or_default().times(l.qty))
    });
    let after_code = subtotal.less_percent(rate);
    let discount = subtotal.minus(after_code);
    let shipping = if after_code >= delivery.free_from {
        Pence::ZERO
    } else {
        delivery.fee
    };
    Priced {
        lines,
        subtotal,
        discount,
        shipping,
        total: after_code.plus(shipping),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(price_pence: i64, qty: u32) -> Line {
        Line {
            product: "p".into(),
            name: "n".into(),
            image: String::new(),
            qty,
            quantity: "6".into(),
            price_pence,
        }
    }

    fn delivery() -> crate::Delivery {
        crate::Delivery {
            fee: Pence::new(499).unwrap(),
            free_from: Pence::new(4000).unwrap(),
        }
    }

    #[test]
    fn three_at_one_ninety_nine_with_fifteen_percent_is_five_oh_seven() {
        let priced = price(vec![line(199, 3)], Percent::new(15.0).unwrap(), delivery());
        assert_eq!(priced.subtotal.pence(), 597);
        assert_eq!(priced.discount.pence(), 90);
        assert_eq!(priced.shipping.pence(), 499);
        assert_eq!(priced.total.pence(), 507 + 499);
    }

    #[test]
    fn delivery_is_free_from_the_threshold_after_the_code() {
        let at = price(vec![line(2000, 2)], Percent::ZERO, delivery());
        assert_eq!((at.shipping.pence(), at.total.pence()), (0, 4000));
        let below = price(vec![line(2000, 2)], Percent::new(10.0).unwrap(), delivery());
        assert_eq!(
            (below.shipping.pence(), below.total.pence()),
            (499, 3600 + 499)
        );
    }
}
