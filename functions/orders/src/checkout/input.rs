//! What the checkout accepts: the order request as JSON Schema documents it, and its parsing into the
//! buyer's details and the wanted lines before anything is read or reserved.

use super::age::DATE_OF_BIRTH_PATTERN;
use crate::payment::PaymentInput;
use serde::Deserialize;
use shared::json::NumberField;
use shared::text_schema::{text, text_or_blank, Lines};
use shared::validation::{
    bounded_lines, Address, Email, FullName, Phone, UkAddress, POSTCODE_PATTERN,
};
use shared::ApiError;

pub const MAX_LINES: usize = 50;
/// Units of one drink an order may hold. Every order holds its stock while it is unpaid: without a cap a
/// few unpaid orders could keep a drink sold out. Larger orders go through the contact form.
pub const MAX_PER_DRINK: u32 = 24;

// The checkout's rules as JSON Schema patterns (ECMA-262): each field is trimmed before its rule, so the
// patterns allow white space around the value and count the characters between its first and last visible
// ones (shared::validation's `FullName`, `Address`, `Phone`, `Email` and the order's note; `wanted_lines`).
// The length caps count the text as sent, as `maxLength` does. The name refuses control characters, the
// address and the note all but line breaks and tabs (`shared::validation::Lines`).

/// `FullName`: one line of more than 5 and at most 100 characters once trimmed.
fn fullname_pattern() -> String {
    text(Lines::One, 6, Some(100))
}
/// `Address`: more than 6 and at most 300 characters once trimmed, on as many lines as it needs.
fn address_pattern() -> String {
    text(Lines::Many, 7, Some(300))
}
/// `Phone`: 10 to 30 digits, spaces and + - ( ) once trimmed.
const PHONE_PATTERN: &str = r"^\s*[0-9+()-][0-9 +()-]{8,28}[0-9+()-]\s*$";
// `Email`: the one pattern every function's document gives e-mail addresses.
use shared::validation::EMAIL_PATTERN;
/// The note: at most 1000 characters once trimmed, on as many lines as it needs.
fn message_pattern() -> String {
    text_or_blank(Lines::Many, 1, Some(1_000))
}
/// A line's product id: 1 to 64 characters once trimmed.
pub(super) const PRODUCT_ID_PATTERN: &str = r"^\s*\S([\s\S]{0,62}\S)?\s*$";
/// The code as `load_code` reads it: none when blank, else what `discounts::normalise_code` accepts.
pub(super) const CODE_PATTERN: &str = r"^\s*([A-Za-z0-9_-]{3,32})?\s*$";

#[derive(Deserialize, schemars::JsonSchema)]
pub struct LineInput {
    /// The drink's `_id`.
    #[schemars(regex(pattern = PRODUCT_ID_PATTERN))]
    pub(super) product: String,
    #[schemars(schema_with = "units")]
    pub(super) qty: NumberField,
}

/// Units of a line: a whole number from 1 to 1000, as a number or as its text.
fn units(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Units: a whole number from 1 to 1000, as a number or as text.",
        "anyOf": [
            { "type": "integer", "minimum": 1, "maximum": 1000 },
            { "type": "string", "pattern": r"^\s*\+?0*([1-9][0-9]{0,2}|1000)(\.0*)?\s*$" }
        ]
    })
}

/// An order: who it goes to, what is in it, the code and the card (as Stripe.js tokenised it). Prices are
/// never sent: the server reads them from the catalogue.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct OrderInput {
    #[schemars(regex(pattern = fullname_pattern()), length(max = 100))]
    pub(super) fullname: String,
    /// The delivery address in one box; leave it out when sending the UK address's parts below (they make
    /// it, a part a line).
    #[serde(default)]
    #[schemars(regex(pattern = address_pattern()), length(max = 300))]
    pub(super) address: String,
    /// The first line of a UK address: 2 to 100 characters on one line. With `town` and `postcode`.
    #[serde(rename = "addressLine1")]
    #[schemars(length(max = 100))]
    pub(super) address_line1: Option<String>,
    /// An optional second line: 2 to 100 characters on one line, or blank.
    #[serde(rename = "addressLine2")]
    #[schemars(length(max = 100))]
    pub(super) address_line2: Option<String>,
    /// The town: 2 to 60 characters on one line.
    #[schemars(length(max = 60))]
    pub(super) town: Option<String>,
    /// A UK postcode, any case and spacing (stored upper-cased as `SW1A 1AA`).
    #[schemars(regex(pattern = POSTCODE_PATTERN), length(max = 12))]
    pub(super) postcode: Option<String>,
    #[schemars(regex(pattern = PHONE_PATTERN), length(max = 30))]
    pub(super) phone: String,
    #[schemars(regex(pattern = EMAIL_PATTERN))]
    pub(super) email: String,
    /// A note for the shop.
    #[serde(default)]
    #[schemars(regex(pattern = message_pattern()), length(max = 1_000))]
    pub(super) message: String,
    /// The basket: at most 50 different drinks (the same drink twice is one line).
    #[serde(deserialize_with = "shared::json::objects")]
    #[schemars(length(min = 1, max = MAX_LINES))]
    pub(super) product: Vec<LineInput>,
    /// A discount code; blank or absent for none.
    #[schemars(regex(pattern = CODE_PATTERN))]
    pub(super) code: Option<String>,
    #[serde(deserialize_with = "shared::json::object")]
    pub(super) payment: PaymentInput,
    /// The total the shopper was shown and agrees to pay, in pounds like `total` (from
    /// `POST /api/order/quote/`): when the server's total differs by a penny or more the answer is 409 with
    /// the new figures, and nothing is charged or held. Left out, the order is charged at today's prices.
    // Optional on purpose: the API contract's order request has no quote step, and clients built to it
    // must still be able to order (docs/decisions.md, "The checkout's agreed total is optional").
    #[serde(rename = "expectedTotal")]
    #[schemars(range(min = 0))]
    pub(super) expected_total: Option<f64>,
    /// The buyer's date of birth, `YYYY-MM-DD`: needed when the basket holds an age-restricted drink (the
    /// quote's `minimumAge` says so); checked, never stored.
    #[serde(rename = "dateOfBirth")]
    #[schemars(regex(pattern = DATE_OF_BIRTH_PATTERN))]
    pub(super) date_of_birth: Option<String>,
}

/// Who the order goes to, each field parsed.
pub struct Buyer {
    pub fullname: FullName,
    pub email: Email,
    pub phone: Phone,
    /// The address in one box: as sent, or made of `delivery`'s parts.
    pub address: Address,
    /// The UK address's parts, when they were sent.
    pub delivery: Option<UkAddress>,
    pub message: String,
}

impl OrderInput {
    /// The buyer's details, each checked in the order the form shows them.
    pub fn buyer(&self) -> Result<Buyer, ApiError> {
        let fullname = FullName::parse(&self.fullname)?;
        let email = Email::parse_normalised(&self.email)?;
        let phone = Phone::parse(&self.phone)?;
        let delivery = self.delivery()?;
        let address = match &delivery {
            Some(parts) => Address::parse(&parts.one_box())?,
            None => Address::parse(&self.address)?,
        };
        Ok(Buyer {
            fullname,
            email,
            phone,
            address,
            delivery,
            message: bounded_lines("message", &self.message, 1_000)?,
        })
    }

    /// The UK address's parts, when any was sent (then all but the second line must be there).
    pub fn delivery(&self) -> Result<Option<UkAddress>, ApiError> {
        let parts = [&self.address_line1, &self.town, &self.postcode];
        if parts.iter().all(|part| part.is_none()) {
            return Ok(None);
        }
        let text = |part: &Option<String>| part.as_deref().unwrap_or_default().to_owned();
        UkAddress::parse(
            &text(&self.address_line1),
            &text(&self.address_line2),
            &text(&self.town),
            &text(&self.postcode),
        )
        .map(Some)
    }
}

/// Whole units from 1, per line; the same drink twice is one line.
pub fn wanted_lines(lines: &[LineInput]) -> Result<Vec<(String, u32)>, ApiError> {
    if lines.is_empty() {
        return Err(ApiError::invalid("product: the basket is empty"));
    }
    let mut wanted: Vec<(String, u32)> = Vec::new();
    for line in lines {
        let id = line.product.trim();
        if id.is_empty() || id.chars().count() > 64 {
            return Err(ApiError::invalid("product: every line needs a product id"));
        }
        let qty = line.qty.value("qty")?;
        if qty.fract() != 0.0 || !(1.0..=1000.0).contains(&qty) {
            return Err(ApiError::invalid(format!(
                "qty of {id} must be a whole number from 1 to 1000"
            )));
        }
        match wanted.iter_mut().find(|(existing, _)| existing == id) {
            Some((_, total)) => *total += qty as u32,
            None => wanted.push((id.to_owned(), qty as u32)),
        }
    }
    if let Some((id, _)) = wanted.iter().find(|(_, qty)| *qty > MAX_PER_DRINK) {
        return Err(ApiError::invalid(format!(
            "qty of {id}: at most {MAX_PER_DRINK} of one drink in an order (for more, write to us through the contact page)"
        )));
    }
    if wanted.len() > MAX_LINES {
        return Err(ApiError::invalid(format!(
            "product: at most {MAX_LINES} different drinks an order"
        )));
    }
    Ok(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_drink_twice_is_one_line_and_bad_quantities_are_named() {
        let lines: Vec<LineInput> = serde_json::from_value(serde_json::json!([
            {"product": "a", "qty": 1}, {"product": "a", "qty": "2"}, {"product": "b", "qty": 1}
        ]))
        .unwrap();
        assert_eq!(
            wanted_lines(&lines).unwrap(),
            vec![("a".to_owned(), 3), ("b".to_owned(), 1)]
        );
        for qty in [
            serde_json::json!(0),
            serde_json::json!(1.5),
            serde_json::json!(-1),
            serde_json::json!(1001),
        ] {
            let lines: Vec<LineInput> =
                serde_json::from_value(serde_json::json!([{"product": "a", "qty": qty}])).unwrap();
            assert_eq!(
                wanted_lines(&lines).unwrap_err().message(),
                "qty of a must be a whole number from 1 to 1000"
            );
        }
    }
}
