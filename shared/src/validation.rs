//! The spec's validation rules (section 5), exactly as docs/validation.md states them. The rules are
//! predicates; the domain types below parse with them, so a value that breaks a rule cannot exist past the
//! edge. `check` answers for a rule by name: the shared case file in testdata/ drives it, and the
//! TypeScript side runs the same cases.

use serde_json::Value;

fn len(text: &str) -> usize {
    text.chars().count()
}

fn trimmed_longer_than(text: &str, n: usize) -> bool {
    len(text.trim()) > n
}

pub fn is_email(text: &str) -> bool {
    if len(text) < 2 || text.trim().is_empty() {
        return false;
    }
    if !text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | '.' | '_' | '-'))
    {
        return false;
    }
    let mut parts = text.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
}

fn is_phone(text: &str, min_len: usize) -> bool {
    let text = text.trim();
    len(text) >= min_len
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '+' | '-' | '(' | ')'))
}

/// A number given as JSON or as text, as forms send them.
fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if !s.trim().is_empty() => {
            s.trim().parse::<f64>().ok().filter(|n| n.is_finite())
        }
        _ => None,
    }
}

pub fn is_price(text: &str) -> bool {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    digits(whole) && !whole.starts_with('0') && fraction.is_none_or(digits)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardBrand {
    Visa,
    Mastercard,
    Amex,
    Discover,
}

impl CardBrand {
    pub fn as_str(self) -> &'static str {
        match self {
            CardBrand::Visa => "visa",
            CardBrand::Mastercard => "mastercard",
            CardBrand::Amex => "amex",
            CardBrand::Discover => "discover",
        }
    }
}

/// The brand whose number pattern matches, ignoring spaces; `None` if no brand's does.
pub fn card_brand(number: &str) -> Option<CardBrand> {
    let digits: String = number.chars().filter(|c| *c != ' ').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let prefix = |n: usize| {
        digits
            .get(..n)
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0)
    };
    let length = digits.len();
    if digits.starts_with('4') && matches!(length, 13 | 16 | 19) {
        Some(CardBrand::Visa)
    } else if length == 16 && ((51..=55).contains(&prefix(2)) || (2221..=2720).contains(&prefix(4)))
    {
        Some(CardBrand::Mastercard)
    } else if length == 15 && matches!(prefix(2), 34 | 37) {
        Some(CardBrand::Amex)
    } else if length == 16
        && (prefix(4) == 6011 || prefix(2) == 65 || (644..=649).contains(&prefix(3)))
    {
        Some(CardBrand::Discover)
    } else {
        None
    }
}

pub fn luhn(number: &str) -> bool {
    let digits: Vec<u32> = number.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.is_empty() {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                if d * 2 > 9 {
                    d * 2 - 9
                } else {
                    d * 2
                }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

pub fn is_expiry(text: &str) -> bool {
    let Some((month, year)) = text.split_once('/') else {
        return false;
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    month.len() == 2
        && digits(month)
        && matches!(month.parse::<u8>(), Ok(1..=12))
        && matches!(year.len(), 2 | 4)
        && digits(year)
}

/// A UK postcode without its spaces, upper-cased: the outward code (an area of one or two letters, a
/// district digit, at most one more letter or digit) then the inward code (a digit and two letters).
fn compact_postcode(text: &str) -> Option<String> {
    let compact: String = text
        .chars()
        .filter(|c| *c != ' ')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let bytes = compact.as_bytes();
    if !(5..=7).contains(&bytes.len()) || !compact.is_ascii() {
        return None;
    }
    let (outward, inward) = bytes.split_at(bytes.len() - 3);
    let inward_ok = inward[0].is_ascii_digit() && inward[1..].iter().all(u8::is_ascii_uppercase);
    let area = outward
        .iter()
        .take_while(|b| b.is_ascii_uppercase())
        .count();
    let district = &outward[area..];
    let outward_ok = matches!(area, 1 | 2)
        && !district.is_empty()
        && district.len() <= 2
        && district[0].is_ascii_digit()
        && district[1..].iter().all(u8::is_ascii_alphanumeric);
    (inward_ok && outward_ok).then_some(compact)
}

/// The longest a free-text field of `kind` may be, in characters after trimming: every free-text field is
/// capped, so an over-long value is a 4xx before it reaches a table or a mail (docs/validation.md).
pub fn max_len(kind: &str) -> Option<usize> {
    Some(match kind {
        // RFC 5321's longest forward path less its angle brackets; a longer key would not fit DynamoDB's.
        "email" | "login_email" => 254,
        "checkout_fullname" | "review_fullname" => 100,
        "checkout_phone" => 30,
        "checkout_address" => 300,
        "message" => 1_000,
        "review_comment" => 2_000,
        "mailer_subject" | "mailer_title" => 200,
        "mailer_description" => 5_000,
        "address_line" => 100,
        "town" => 60,
        "postcode" => 12,
        _ => return None,
    })
}

/// Whether `input` passes rule `kind`. Unknown kinds fail.
pub fn check(kind: &str, input: &Value) -> bool {
    if let Some(verdict) = check_number_kind(kind, input) {
        return verdict;
    }
    let Some(text) = input.as_str() else {
        return false;
    };
    if max_len(kind).is_some_and(|max| len(text.trim()) > max) {
        return false;
    }
    match kind {
        "email" => is_email(text),
        "login_email" => len(text) > 7 && is_email(text),
        "login_code" => trimmed_longer_than(text, 5),
        "checkout_fullname" | "review_fullname" => trimmed_longer_than(text, 5),
        "checkout_phone" => is_phone(text, 10),
        "checkout_address" => trimmed_longer_than(text, 6),
        "address_line" | "town" => len(text.trim()) >= 2,
        "postcode" => compact_postcode(text.trim()).is_some(),
        "review_comment" => trimmed_longer_than(text, 7),
        "mailer_subject" | "mailer_title" | "mailer_description" | "name" => len(text.trim()) >= 3,
        "username" => len(text) >= 6,
        "phone" => is_phone(text, 10),
        "personal_number" => len(text) >= 12,
        "password" => len(text) >= 3,
        "card_number" => card_brand(text).is_some() && luhn(text),
        "expiry" => is_expiry(text),
        "security_code" => matches!(text.len(), 3 | 4) && text.chars().all(|c| c.is_ascii_digit()),
        "description" => len(text.trim()) >= 20,
        "price" => is_price(text),
        "time" => !text.trim().is_empty(),
        // Optional free text (an order's note): anything up to its cap.
        "message" => true,
        _ => false,
    }
}

fn check_number_kind(kind: &str, input: &Value) -> Option<bool> {
    Some(match kind {
        "review_rating" => input
            .as_f64()
            .is_some_and(|n| n.fract() == 0.0 && (1.0..=5.0).contains(&n)),
        "discount_rate" => as_number(input).is_some_and(|n| n > 0.0 && n <= 100.0),
        "number" => as_number(input).is_some_and(|n| n > 0.0),
        _ => return None,
    })
}

macro_rules! text_type {
    ($(#[$doc:meta])* $name:ident, $kind:literal, $field:literal, $rule:literal) => {
        text_type!($(#[$doc])* $name, $kind, $field, $rule, None);
    };
    ($(#[$doc:meta])* $name:ident, $kind:literal, $field:literal, $rule:literal, $lines:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Checks the length cap on the text as sent (as the API document states it) and, for free
            /// text, the control characters it refuses, then trims and checks the rule; the error names
            /// the field and the rule.
            pub fn parse(raw: &str) -> Result<Self, crate::ApiError> {
                if let Some(max) = max_len($kind).filter(|max| len(raw) > *max) {
                    return Err(crate::ApiError::invalid(format!(
                        concat!($field, " must be at most {} characters"),
                        max
                    )));
                }
                let lines: Option<Lines> = $lines;
                if let Some(lines) = lines {
                    without_controls($field, raw, lines)?;
                }
                let value = raw.trim();
                if check($kind, &Value::String(value.to_owned())) {
                    Ok($name(value.to_owned()))
                } else {
                    Err(crate::ApiError::invalid(concat!($field, " ", $rule)))
                }
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_inner(self) -> String {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

text_type!(
    /// An e-mail address, trimmed and lower-cased before the check.
    Email, "email", "email", "must be a valid e-mail address"
);
text_type!(
    /// A name of a thing (product, category): 3 characters or more.
    Name, "name", "name", "must be at least 3 characters", Some(Lines::One)
);
text_type!(
    /// A person's full name at checkout or on a review: more than 5 characters.
    FullName, "checkout_fullname", "fullname", "must be longer than 5 characters", Some(Lines::One)
);
text_type!(
    /// A UK phone number: 10 characters or more of digits, spaces and + - ( ).
    Phone, "checkout_phone", "phone", "must be at least 10 digits"
);
text_type!(
    /// A delivery address: more than 6 characters, on as many lines as it needs.
    Address, "checkout_address", "address", "must be longer than 6 characters", Some(Lines::Many)
);

text_type!(
    /// The town of a UK address: 2 to 60 characters on one line.
    Town, "town", "town", "must be 2 to 60 characters", Some(Lines::One)
);

/// A UK postcode, upper-cased with one space before the inward code (`SW1A 1AA`), as the courier and the
/// card's postcode check read it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Postcode(String);

/// What `Postcode::parse` accepts, as a JSON Schema pattern (letters of either case, spaces anywhere).
pub const POSTCODE_PATTERN: &str =
    r"^ *([A-Za-z] *){1,2}[0-9] *([A-Za-z0-9] *)?[0-9] *[A-Za-z] *[A-Za-z] *$";

impl Postcode {
    pub fn parse(raw: &str) -> Result<Self, crate::ApiError> {
        match compact_postcode(raw.trim()).filter(|_| len(raw) <= 12) {
            Some(compact) => {
                let (outward, inward) = compact.split_at(compact.len() - 3);
                Ok(Postcode(format!("{outward} {inward}")))
            }
            None => Err(crate::ApiError::invalid(
                "postcode must be a UK postcode, e.g. SW1A 1AA",
            )),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A line of a UK address (`field` names it): 2 to 100 characters on one line, trimmed; blank is `None`
/// when the line may be left out.
pub fn address_line(
    field: &str,
    raw: &str,
    required: bool,
) -> Result<Option<String>, crate::ApiError> {
    if len(raw) > 100 {
        return Err(crate::ApiError::invalid(format!(
            "{field} must be at most 100 characters"
        )));
    }
    let value = without_controls(field, raw, Lines::One)?.trim();
    if value.is_empty() && !required {
        return Ok(None);
    }
    if check("address_line", &Value::String(value.to_owned())) {
        Ok(Some(value.to_owned()))
    } else {
        Err(crate::ApiError::invalid(format!(
            "{field} must be 2 to 100 characters"
        )))
    }
}

/// A UK delivery address in its parts: what a courier's label and the card's postcode check need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UkAddress {
    pub line1: String,
    /// Empty when the address has one street line.
    pub line2: String,
    pub town: String,
    pub postcode: Postcode,
}

impl UkAddress {
    /// The parts as sent (`addressLine1`, `addressLine2`, `town`, `postcode`), each checked and named.
    pub fn parse(
        line1: &str,
        line2: &str,
        town: &str,
        postcode: &str,
    ) -> Result<Self, crate::ApiError> {
        Ok(UkAddress {
            line1: address_line("addressLine1", line1, true)?.unwrap_or_default(),
            line2: address_line("addressLine2", line2, false)?.unwrap_or_default(),
            town: Town::parse(town)?.into_inner(),
            postcode: Postcode::parse(postcode)?,
        })
    }

    /// Writes the parts as an item's attributes (`addressLine1`, `addressLine2`, `town`, `postcode`), as the
    /// orders and the profiles keep them.
    pub fn write_attributes(&self, item: &mut crate::dynamo::Item) {
        use crate::dynamo::s;
        item.extend([
            ("addressLine1".to_owned(), s(&self.line1)),
            ("addressLine2".to_owned(), s(&self.line2)),
            ("town".to_owned(), s(&self.town)),
            ("postcode".to_owned(), s(self.postcode.as_str())),
        ]);
    }

    /// The parts an item holds; `None` for an address kept in one box only (or erased).
    pub fn from_attributes(item: &crate::dynamo::Item) -> Option<Self> {
        let part = |name: &str| crate::dynamo::get_s_or_default(item, name);
        let postcode = crate::dynamo::get_s(item, "postcode").ok()?;
        UkAddress::parse(
            &part("addressLine1"),
            &part("addressLine2"),
            &part("town"),
            &postcode,
        )
        .ok()
    }

    /// The address in one box, a part a line, as every order and profile has held it.
    pub fn one_box(&self) -> String {
        [
            self.line1.as_str(),
            self.line2.as_str(),
            self.town.as_str(),
            self.postcode.as_str(),
        ]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
    }
}

impl Email {
    /// E-mail addresses are compared lower-cased, as the spec submits them.
    pub fn parse_normalised(raw: &str) -> Result<Self, crate::ApiError> {
        Email::parse(&raw.trim().to_ascii_lowercase())
    }
}

/// A star rating from 1 to 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Rating(#[schemars(range(min = 1, max = 5))] u8);

impl Rating {
    pub fn parse(value: &Value) -> Result<Self, crate::ApiError> {
        if check("review_rating", value) {
            Ok(Rating(value.as_f64().unwrap_or_default() as u8))
        } else {
            Err(crate::ApiError::invalid("rating: This field is required."))
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

/// A name an upload was stored under: letters, digits, dot, dash and underscore only, so it can never
/// climb out of the uploads folder or break a URL.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct UploadName(#[schemars(regex(pattern = UPLOAD_NAME_PATTERN))] String);

/// What `UploadName::parse` accepts, as a JSON Schema pattern.
pub const UPLOAD_NAME_PATTERN: &str = r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}$";

impl UploadName {
    pub fn parse(raw: &str) -> Result<Self, crate::ApiError> {
        let ok = (1..=120).contains(&raw.len())
            && !raw.starts_with('.')
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if ok {
            Ok(UploadName(raw.to_owned()))
        } else {
            Err(crate::ApiError::invalid(format!(
                "image: {raw:?} is not an uploaded image name"
            )))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Every name of an `image` list, or the error for the first bad one.
    pub fn parse_all(names: &[String]) -> Result<Vec<String>, crate::ApiError> {
        names
            .iter()
            .map(|name| UploadName::parse(name).map(|n| n.0))
            .collect()
    }
}

/// The document's pattern for an e-mail address `Email::parse_normalised` accepts (at most 254 characters).
pub const EMAIL_PATTERN: &str = r"^\s*(?=[A-Za-z0-9._@-]{5,254}\s*$)[A-Za-z0-9._-]+@[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9._-]*[A-Za-z0-9_-]\s*$";

/// Whether a free text field is one line (a name, a title, a subject, a label: it may end up in a mail's
/// header or a one-line display) or may span several (a description, a message, an address, a mail's body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    One,
    Many,
}

impl Lines {
    /// Whether such a field refuses `c`: one line refuses every control character (Unicode category Cc,
    /// U+0000 to U+001F and U+007F to U+009F), several lines all of them but tab, line feed and carriage
    /// return.
    pub fn refuses(self, c: char) -> bool {
        c.is_control() && !(self == Lines::Many && matches!(c, '\t' | '\n' | '\r'))
    }
}

/// `text` as sent (the white space around it too, though trimming would drop it) unless it holds a
/// character the field refuses; the error names the field.
pub fn without_controls<'a>(
    field: &str,
    text: &'a str,
    lines: Lines,
) -> Result<&'a str, crate::ApiError> {
    if !text.chars().any(|c| lines.refuses(c)) {
        return Ok(text);
    }
    Err(crate::ApiError::invalid(match lines {
        Lines::One => format!("{field} cannot contain control characters"),
        Lines::Many => {
            format!("{field} cannot contain control characters other than line breaks and tabs")
        }
    }))
}

/// A one-line free text field of at most `max` characters as sent (the API document's `maxLength`) and
/// no control characters, kept trimmed; the error names the field.
pub fn bounded_text(field: &str, value: &str, max: usize) -> Result<String, crate::ApiError> {
    bounded(field, value, max, Lines::One)
}

/// `bounded_text` for a field that may span lines: line feeds, carriage returns and tabs are kept.
pub fn bounded_lines(field: &str, value: &str, max: usize) -> Result<String, crate::ApiError> {
    bounded(field, value, max, Lines::Many)
}

fn bounded(field: &str, value: &str, max: usize, lines: Lines) -> Result<String, crate::ApiError> {
    if value.chars().count() > max {
        return Err(crate::ApiError::invalid(format!(
            "{field} must be at most {max} characters"
        )));
    }
    Ok(without_controls(field, value, lines)?.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shared_case_gets_its_verdict() {
        let file: Value =
            serde_json::from_str(include_str!("../testdata/validation.json")).unwrap();
        let cases = file["cases"].as_array().unwrap();
        assert!(cases.len() > 100);
        let wrong: Vec<String> = cases
            .iter()
            .filter(|case| {
                check(case["kind"].as_str().unwrap(), &case["input"])
                    != case["valid"].as_bool().unwrap()
            })
            .map(|case| case.to_string())
            .collect();
        assert!(
            wrong.is_empty(),
            "cases with the wrong verdict:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_postcode_is_upper_cased_with_one_space_before_its_inward_code() {
        for (raw, shown) in [
            ("sw1a1aa", "SW1A 1AA"),
            (" LS1  1AA ", "LS1 1AA"),
            ("m11ae", "M1 1AE"),
            ("ec1v 9hq", "EC1V 9HQ"),
            ("B33 8TH", "B33 8TH"),
        ] {
            assert_eq!(Postcode::parse(raw).unwrap().as_str(), shown);
        }
        for bad in [
            "",
            "LS1",
            "12345",
            "LS1 1A",
            "SW1A 1AAA",
            "LSS1 1AA",
            "L$1 1AA",
        ] {
            assert_eq!(
                Postcode::parse(bad).unwrap_err().message(),
                "postcode must be a UK postcode, e.g. SW1A 1AA",
                "{bad}"
            );
        }
        let pattern = regex_lite::Regex::new(POSTCODE_PATTERN).unwrap();
        for raw in ["sw1a1aa", " LS1  1AA ", "m11ae", "B33 8TH"] {
            assert!(pattern.is_match(raw), "{raw}");
        }
    }

    #[test]
    fn a_uk_address_names_the_part_to_fix_and_reads_as_one_box() {
        let address = UkAddress::parse(" 1 High St ", "", "Leeds", "ls1 1aa").unwrap();
        assert_eq!(address.one_box(), "1 High St\nLeeds\nLS1 1AA");
        let flat = UkAddress::parse("Flat 2", "3 Mill Lane", "York", "YO1 7HH").unwrap();
        assert_eq!(flat.one_box(), "Flat 2\n3 Mill Lane\nYork\nYO1 7HH");
        for (parts, message) in [
            (
                ["", "", "Leeds", "LS1 1AA"],
                "addressLine1 must be 2 to 100 characters",
            ),
            (
                ["1 High St", "x", "Leeds", "LS1 1AA"],
                "addressLine2 must be 2 to 100 characters",
            ),
            (
                ["1 High St", "", "L", "LS1 1AA"],
                "town must be 2 to 60 characters",
            ),
            (
                ["1 High\nSt", "", "Leeds", "LS1 1AA"],
                "addressLine1 cannot contain control characters",
            ),
            (
                ["1 High St", "", "Leeds", "LS1"],
                "postcode must be a UK postcode, e.g. SW1A 1AA",
            ),
        ] {
            let [line1, line2, town, postcode] = parts;
            assert_eq!(
                UkAddress::parse(line1, line2, town, postcode)
                    .unwrap_err()
                    .message(),
                message
            );
        }
    }

    #[test]
    fn domain_types_trim_and_name_the_field() {
        assert_eq!(Name::parse("  Mango Fizz ").unwrap().as_str(), "Mango Fizz");
        let err = Name::parse(" ab ").unwrap_err();
        assert_eq!(err.status(), 422);
        assert_eq!(err.message(), "name must be at least 3 characters");
        assert_eq!(
            Email::parse_normalised(" Shopper@Example.COM ")
                .unwrap()
                .as_str(),
            "shopper@example.com"
        );
    }

    #[test]
    fn one_line_refuses_every_control_character_and_several_keep_their_breaks() {
        for bad in [
            "Mango\r\nBcc: x@example.com",
            "Mango\u{0}",
            "Mango\t",
            " Mango\n",
            "Ma\u{85}ngo",
        ] {
            let err = Name::parse(bad).unwrap_err();
            assert_eq!(err.status(), 422, "{bad:?}");
            assert_eq!(err.message(), "name cannot contain control characters");
            assert!(bounded_text("name", bad, 100).is_err(), "{bad:?}");
        }
        assert_eq!(
            bounded_lines("des", " Line one\r\n\tLine two\n", 100).unwrap(),
            "Line one\r\n\tLine two"
        );
        for bad in [
            "a\u{0}b", "a\u{b}b", "a\u{c}b", "a\u{7f}b", "a\u{85}b", "a\u{9f}b",
        ] {
            assert_eq!(
                bounded_lines("des", bad, 100).unwrap_err().message(),
                "des cannot contain control characters other than line breaks and tabs",
                "{bad:?}"
            );
        }
        assert!(Address::parse("1 High Street\nLeeds").is_ok());
        assert!(Address::parse("1 High Street\u{1b}Leeds").is_err());
        // Not control characters: the other line and paragraph separators, soft hyphens, no-break spaces.
        assert!(bounded_text("name", "a\u{2028}b\u{ad}c\u{a0}d", 100).is_ok());
    }

    #[test]
    fn card_brands_are_told_apart() {
        assert_eq!(card_brand("4111 1111 1111 1111"), Some(CardBrand::Visa));
        assert_eq!(card_brand("5555555555554444"), Some(CardBrand::Mastercard));
        assert_eq!(card_brand("378282246310005"), Some(CardBrand::Amex));
        assert_eq!(card_brand("6011111111111117"), Some(CardBrand::Discover));
        assert_eq!(card_brand("9111111111111111"), None);
    }

    #[test]
    fn upload_names_cannot_escape() {
        assert!(UploadName::parse("mango-fizz.png").is_ok());
        for bad in [
            "../etc/passwd",
            "a/b.png",
            ".hidden",
            "",
            "name with space.png",
        ] {
            assert!(UploadName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ratings_are_whole_stars() {
        assert_eq!(Rating::parse(&Value::from(4)).unwrap().get(), 4);
        assert_eq!(
            Rating::parse(&Value::from(0)).unwrap_err().message(),
            "rating: This field is required."
        );
    }
}
