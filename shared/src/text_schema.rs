//! JSON Schema patterns for text the code trims before it checks it (Rust's `str::trim`): a pattern allows
//! the same white space around the value and counts the characters of what is left, as the code does; a
//! `maxLength` caps the text as sent, as `bounded_text` and the validation types do.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

/// What the `text_type!` macro expands to names, so a crate using it needs no imports of its own.
#[doc(hidden)]
pub use schemars as __schemars;

/// A text field's schema as a type, for `#[schemars(with = "...")]`: `text_type!(Name, schema)` declares
/// `pub struct Name` whose (inline) schema is the expression, e.g. `string(padded("[0-9]{6}"))`.
#[macro_export]
macro_rules! text_type {
    ($(#[$doc:meta])* $name:ident, $schema:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::text_schema::__schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(
                _: &mut $crate::text_schema::__schemars::SchemaGenerator,
            ) -> $crate::text_schema::__schemars::Schema {
                $schema
            }
        }
    };
}

/// What `str::trim` removes (`char::is_whitespace`), spelt out: a regex's `\s` is another set.
pub const SPACE: &str = r"[\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";
pub const NOT_SPACE: &str =
    r"[^\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// `inner` with any white space around it.
pub fn padded(inner: &str) -> String {
    format!("^{SPACE}*{inner}{SPACE}*$")
}

/// What trims to `min..=max` characters (`min` from 1), unpadded.
pub fn trimmed(min: usize, max: usize) -> String {
    match (min.max(1), max.max(1)) {
        (_, 1) => NOT_SPACE.to_owned(),
        (1, max) => format!("{NOT_SPACE}(?:[\\s\\S]{{0,{}}}{NOT_SPACE})?", max - 2),
        (min, max) => format!("{NOT_SPACE}[\\s\\S]{{{},{}}}{NOT_SPACE}", min - 2, max - 2),
    }
}

/// The longest e-mail address the shop takes (RFC 5321), once trimmed.
pub const EMAIL_MAX: usize = 254;

/// An e-mail address as `Email::parse_normalised` takes it (trimmed, lower-cased, then letters, digits and
/// `. _ -` around one `@`, a dot in the domain but not at its ends), `min` to 254 characters long.
pub fn email(min: usize) -> String {
    let address = r"[A-Za-z0-9._-]+@[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9._-]*[A-Za-z0-9_-]";
    // The shortest address the rest allows has 5 characters.
    let min = min.max(5);
    padded(&format!(
        "(?=[A-Za-z0-9._@-]{{{min},{EMAIL_MAX}}}{SPACE}*$){address}"
    ))
}

pub fn string(pattern: String) -> Schema {
    json_schema!({ "type": "string", "pattern": pattern })
}

/// A pattern, with the cap on the text as sent that the code checks before trimming.
pub fn capped(pattern: String, max: usize) -> Schema {
    json_schema!({ "type": "string", "pattern": pattern, "maxLength": max })
}

/// Text of `MIN..=MAX` characters once trimmed (`MIN` from 1), at most `MAX` as sent.
pub struct Trimmed<const MIN: usize, const MAX: usize>;

impl<const MIN: usize, const MAX: usize> JsonSchema for Trimmed<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Trimmed_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        capped(padded(&trimmed(MIN, MAX)), MAX)
    }
}

/// Blank (left out, or clearing a field), or text of `MIN..=MAX` characters once trimmed, at most `MAX` as
/// sent.
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

crate::text_type!(
    /// An e-mail address as `Email::parse_normalised` takes it.
    Email,
    string(email(0))
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A pattern's verdict. `regex_lite` has no look-ahead: the e-mail patterns' one, which only bounds the
    /// trimmed address's length, is checked by hand.
    pub(crate) fn matches(pattern: &str, text: &str) -> bool {
        let Some((before, rest)) = pattern.split_once("(?=") else {
            return regex_lite::Regex::new(pattern).unwrap().is_match(text);
        };
        let (ahead, after) = rest.split_once("*$)").expect("a look-ahead to the end");
        let bounds = ahead.rsplit_once('{').unwrap().1.split_once('}').unwrap().0;
        let (min, max) = bounds.split_once(',').unwrap();
        let length = text.trim().chars().count();
        (min.parse::<usize>().unwrap()..=max.parse().unwrap()).contains(&length)
            && regex_lite::Regex::new(&format!("{before}{after}"))
                .unwrap()
                .is_match(text)
    }

    #[test]
    fn an_address_is_at_most_254_characters() {
        let pattern = email(8);
        let address = |n: usize| format!("{}@{}.uk", "a".repeat(64), "b".repeat(n - 68));
        assert!(matches(&pattern, &address(254)));
        assert!(matches(&pattern, &format!("  {}  ", address(254))));
        assert!(!matches(&pattern, &address(255)));
        assert!(
            !matches(&pattern, "a@b.cd"),
            "the login rule's 8 characters"
        );
        assert!(Email::json_schema(&mut SchemaGenerator::default())
            .get("pattern")
            .is_some());
    }

    fn fits<T: JsonSchema>(text: &str) -> bool {
        let schema = T::json_schema(&mut SchemaGenerator::default());
        let pattern = schema.get("pattern").and_then(|p| p.as_str()).unwrap();
        let max = schema.get("maxLength").and_then(|m| m.as_u64());
        matches(pattern, text) && max.is_none_or(|max| text.chars().count() as u64 <= max)
    }

    #[test]
    fn emails_match_their_parser() {
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
                fits::<Email>(text),
                crate::validation::Email::parse_normalised(text).is_ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn text_is_counted_once_trimmed_and_capped_as_sent() {
        for text in [
            "",
            " \n ",
            "a",
            " ab ",
            " abc ",
            "\u{3000}a b\u{85}",
            &"x".repeat(100),
            &format!("\t{}\t", "x".repeat(98)),
            &format!("\t{}\t", "x".repeat(100)),
            &"x".repeat(101),
        ] {
            let sent = text.chars().count();
            let left = text.trim().chars().count();
            assert_eq!(
                fits::<BlankOr<1, 100>>(text),
                crate::validation::bounded_text("t", text, 100).is_ok(),
                "{text:?}"
            );
            assert_eq!(
                fits::<Trimmed<3, 100>>(text),
                (3..=100).contains(&left) && sent <= 100,
                "{text:?}"
            );
        }
        assert_eq!(trimmed(1, 1), NOT_SPACE);
        assert!(matches(&padded(&trimmed(1, 3)), " abc "));
        assert!(!matches(&padded(&trimmed(1, 3)), " abcd "));
    }
}
