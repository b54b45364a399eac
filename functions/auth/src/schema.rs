//! The rules of this function's inputs as JSON Schema patterns. The code trims a value before it checks it
//! (Rust's `str::trim`), so a pattern allows the same white space around the value and counts the
//! characters of what is left, as the code does.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

/// What `str::trim` removes (`char::is_whitespace`), spelt out: a regex's `\s` is another set.
const SPACE: &str = r"[\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";
const NOT_SPACE: &str =
    r"[^\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// `inner` with any white space around it.
fn padded(inner: &str) -> String {
    format!("^{SPACE}*{inner}{SPACE}*$")
}

/// What trims to `min..=max` characters (`min` from 1), unpadded.
fn trimmed(min: usize, max: usize) -> String {
    match (min.max(1), max.max(1)) {
        (_, 1) => NOT_SPACE.to_owned(),
        (1, max) => format!("{NOT_SPACE}(?:[\\s\\S]{{0,{}}}{NOT_SPACE})?", max - 2),
        (min, max) => format!("{NOT_SPACE}[\\s\\S]{{{},{}}}{NOT_SPACE}", min - 2, max - 2),
    }
}

/// An e-mail address as `Email::parse_normalised` takes it (trimmed, lower-cased, then letters, digits and
/// `. _ -` around one `@`, a dot in the domain but not at its ends), at least `min` characters long.
fn email(min: usize) -> String {
    let address = r"[A-Za-z0-9._-]+@[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9._-]*[A-Za-z0-9_-]";
    // The shortest address the rest allows has 5 characters.
    if min <= 5 {
        return padded(address);
    }
    padded(&format!("(?=[A-Za-z0-9._@-]{{{min}}}){address}"))
}

fn string(pattern: String) -> Schema {
    json_schema!({ "type": "string", "pattern": pattern })
}

/// A pattern, with the cap on the text as sent that the code checks before trimming.
fn capped(pattern: String, max: usize) -> Schema {
    json_schema!({ "type": "string", "pattern": pattern, "maxLength": max })
}

/// Blank (which clears a field), or text of `MIN..=MAX` characters once trimmed, at most MAX as sent.
pub struct BlankOr<const MIN: usize, const MAX: usize>;

impl<const MIN: usize, const MAX: usize> JsonSchema for BlankOr<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("BlankOr_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        capped(padded(&format!("(?:{})?", trimmed(MIN, MAX))), MAX)
    }
}

/// The login rule: an e-mail address longer than 7 characters.
pub struct LoginEmail;

impl JsonSchema for LoginEmail {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "LoginEmail".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string(email(8))
    }
}

/// The six digits of a login code.
pub struct LoginCode;

impl JsonSchema for LoginCode {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "LoginCode".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string(padded("[0-9]{6}"))
    }
}

/// A phone number, or blank to clear it: 10 to 30 characters once trimmed, digits, spaces and `+ - ( )`.
pub struct PhoneOrBlank;

impl JsonSchema for PhoneOrBlank {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "PhoneOrBlank".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        capped(padded(r"(?:[0-9+()-][0-9 +()-]{8,28}[0-9+()-])?"), 30)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::validation::{Address, Email, FullName, Phone};

    fn pattern<T: JsonSchema>() -> String {
        let schema = T::json_schema(&mut SchemaGenerator::default());
        schema.get("pattern").unwrap().as_str().unwrap().to_owned()
    }

    /// A regex engine's verdict on a pattern above (`regex_lite` reads these escapes as ECMA and Python do).
    fn matches(pattern: &str, text: &str) -> bool {
        regex_lite::Regex::new(pattern).unwrap().is_match(text)
    }

    /// The profile's rule: at most `max` characters as sent; then blank clears the field, anything else
    /// must parse.
    fn profile_field<T>(
        parse: fn(&str) -> Result<T, shared::ApiError>,
        max: usize,
        text: &str,
    ) -> bool {
        text.chars().count() <= max && (text.trim().is_empty() || parse(text).is_ok())
    }

    /// The schema's verdict: its pattern and its `maxLength`.
    fn fits<T: JsonSchema>(text: &str) -> bool {
        let schema = T::json_schema(&mut SchemaGenerator::default());
        let max = schema.get("maxLength").and_then(|m| m.as_u64()).unwrap() as usize;
        matches(&pattern::<T>(), text) && text.chars().count() <= max
    }

    #[test]
    fn trimmed_text_counts_what_trim_leaves() {
        for text in [
            "",
            "  \n",
            "abcdef",
            "  abcdef \n",
            "abcde",
            "\u{3000}ab cde\u{85}",
            " \u{1c}abcd ",
            " \u{1c}abcde ",
            &"x".repeat(100),
            &format!(" {} ", "x".repeat(100)),
            &"x".repeat(101),
            &" ".repeat(101),
        ] {
            assert_eq!(
                fits::<BlankOr<6, 100>>(text),
                profile_field(FullName::parse, 100, text),
                "{text:?}"
            );
        }
        for text in [
            " a b c d ",
            "abcdef",
            "abcdefg",
            &"y".repeat(301),
            &format!(" {} ", "y".repeat(299)),
        ] {
            assert_eq!(
                fits::<BlankOr<7, 300>>(text),
                profile_field(Address::parse, 300, text),
                "{text:?}"
            );
        }
        assert_eq!(trimmed(1, 1), NOT_SPACE);
        assert!(matches(&padded(&trimmed(1, 3)), " abc "));
        assert!(!matches(&padded(&trimmed(1, 3)), " abcd "));
    }

    #[test]
    fn emails_codes_and_phones_match_their_parsers() {
        let address = email(0);
        for text in [
            "a@b.co",
            " Shopper@Example.COM ",
            "a@b..c",
            "a@.b.c",
            "a@b.c.",
            "a@bc",
            "a b@c.d",
            "a@b@c.d",
            "@b.cd",
            "a+b@c.de",
        ] {
            assert_eq!(
                matches(&address, text),
                Email::parse_normalised(text).is_ok(),
                "{text:?}"
            );
        }
        // The login rule's look-ahead (which `regex_lite` lacks) only adds the length.
        let login = pattern::<LoginEmail>();
        let (before, after) = login.split_once("(?=[A-Za-z0-9._@-]{8})").unwrap();
        assert_eq!(format!("{before}{after}"), address);

        let code = pattern::<LoginCode>();
        for (text, ok) in [
            ("123456", true),
            (" 012345\n", true),
            ("12345", false),
            ("1234567", false),
        ] {
            assert_eq!(matches(&code, text), ok, "{text:?}");
        }

        for text in [
            "07700 900123",
            " +44 (0)7700-900 ",
            "0770090012",
            "077009001",
            "0770 abc 123",
            "   ",
            &"1".repeat(30),
            &"1".repeat(31),
            &format!(" {} ", "1".repeat(29)),
        ] {
            assert_eq!(
                fits::<PhoneOrBlank>(text),
                profile_field(Phone::parse, 30, text),
                "{text:?}"
            );
        }
    }
}
