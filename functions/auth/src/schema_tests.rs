//! The profile's schemas (`schema`) against the rule the code applies (`users`): a test of both, kept
//! apart from each so neither module has to import the other.

use crate::schema::*;
use schemars::{JsonSchema, SchemaGenerator};
use shared::text_schema::email;
use shared::validation::{Address, FullName, Lines, Phone};

fn pattern<T: JsonSchema>() -> String {
    let schema = T::json_schema(&mut SchemaGenerator::default());
    schema.get("pattern").unwrap().as_str().unwrap().to_owned()
}

/// A regex engine's verdict on a pattern above (`regex_lite` reads these escapes as ECMA and Python do).
fn matches(pattern: &str, text: &str) -> bool {
    regex_lite::Regex::new(pattern).unwrap().is_match(text)
}

/// The profile's rule, as `users::optional_field` checks it.
fn profile_field<T: ToString>(
    parse: fn(&str) -> Result<T, shared::ApiError>,
    max: usize,
    lines: Option<Lines>,
    text: &str,
) -> bool {
    crate::users::optional_field(text, parse, max, "field", lines).is_ok()
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
        "\u{3000}ab cde\u{2029}",
        " \u{1c}abcd ",
        " \u{1c}abcde ",
        "ab\r\ncdef",
        &"x".repeat(100),
        &format!(" {} ", "x".repeat(100)),
        &"x".repeat(101),
        &" ".repeat(101),
    ] {
        assert_eq!(
            fits::<BlankOr<6, 100>>(text),
            profile_field(FullName::parse, 100, Some(Lines::One), text),
            "{text:?}"
        );
    }
    for text in [
        " a b c d ",
        "  \n",
        "1 High St\r\nLeeds\n",
        "1 High St\u{b}Leeds",
        "abcdef",
        "abcdefg",
        &"y".repeat(301),
        &format!(" {} ", "y".repeat(299)),
    ] {
        assert_eq!(
            fits::<BlankOrLines<7, 300>>(text),
            profile_field(Address::parse, 300, Some(Lines::Many), text),
            "{text:?}"
        );
    }
}

#[test]
fn emails_codes_and_phones_match_their_parsers() {
    // The login rule is the shared address pattern with its look-ahead's minimum at 8 (and the 254 cap):
    // shared::text_schema's tests match it against the parser.
    let login = pattern::<LoginEmail>();
    assert_eq!(login, email(8));
    assert!(login.contains("{8,254}"), "{login}");

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
            profile_field(Phone::parse, 30, None, text),
            "{text:?}"
        );
    }
}
