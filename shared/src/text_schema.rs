//! JSON Schema patterns for text the code trims before it checks it (Rust's `str::trim`): a pattern allows
//! the same white space around the value and counts the characters of what is left, as the code does; a
//! `maxLength` caps the text as sent, as `bounded_text` and the validation types do. Free text refuses
//! control characters as `validation::Lines` says (`text`, `Trimmed`, `BlankOr` and their `Lines` kin).

pub use crate::validation::Lines;
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

/// `inner` with any white space around it: for a value of a fixed form (an e-mail address, a code, a
/// token) whose own characters leave out every control character.
pub fn padded(inner: &str) -> String {
    format!("^{SPACE}*{inner}{SPACE}*$")
}

/// A character that is neither white space nor a control character: what free text starts and ends with
/// once trimmed.
pub const VISIBLE: &str = r"[^\x00-\x20\x7F-\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// The white space one line may have around it: what `str::trim` removes, less the control characters.
pub const LINE_SPACE: &str = r"[ \xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// The white space free text of `lines` may have around it (what `str::trim` removes, less the control
/// characters the field refuses), and any character it may hold.
fn classes(lines: Lines) -> (&'static str, &'static str) {
    match lines {
        Lines::One => (LINE_SPACE, r"[^\x00-\x1F\x7F-\x9F]"),
        Lines::Many => (
            r"[\t\n\r \xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]",
            r"[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]",
        ),
    }
}

/// What trims to `min..=max` characters (`min` from 1, no `max` for no bound), unpadded.
fn trimmed(lines: Lines, min: usize, max: Option<usize>) -> String {
    let (_, any) = classes(lines);
    let upto = |n: usize| {
        max.map(|max| (max.max(n) - n).to_string())
            .unwrap_or_default()
    };
    match (min.max(1), max) {
        (_, Some(0 | 1)) => VISIBLE.to_owned(),
        (1, _) => format!("{VISIBLE}(?:{any}{{0,{}}}{VISIBLE})?", upto(2)),
        (min, _) => format!("{VISIBLE}{any}{{{},{}}}{VISIBLE}", min - 2, upto(2)),
    }
}

/// Free text of `lines` that trims to `min..=max` characters (`min` from 1; no `max` where `maxLength`
/// is the only cap), with the white space `str::trim` drops around it.
pub fn text(lines: Lines, min: usize, max: Option<usize>) -> String {
    let (space, _) = classes(lines);
    format!("^{space}*{}{space}*$", trimmed(lines, min, max))
}

/// `text`, or blank (left out, or clearing a field).
pub fn text_or_blank(lines: Lines, min: usize, max: Option<usize>) -> String {
    let (space, _) = classes(lines);
    format!("^{space}*(?:{})?{space}*$", trimmed(lines, min, max))
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

/// Declares a text type of `MIN..=MAX` characters once trimmed (`MIN` from 1), at most `MAX` as sent, on
/// one line or several; `$blank` also takes blank (left out, or clearing a field).
macro_rules! bounded_text_type {
    ($(#[$doc:meta])* $name:ident, $lines:expr, $blank:literal) => {
        $(#[$doc])*
        pub struct $name<const MIN: usize, const MAX: usize>;

        impl<const MIN: usize, const MAX: usize> JsonSchema for $name<MIN, MAX> {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> Cow<'static, str> {
                format!(concat!(stringify!($name), "_{}_{}"), MIN, MAX).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let pattern = if $blank { text_or_blank } else { text };
                capped(pattern($lines, MIN, Some(MAX)), MAX)
            }
        }
    };
}

bounded_text_type!(
    /// One line of `MIN..=MAX` characters once trimmed, at most `MAX` as sent (`bounded_text`).
    Trimmed,
    Lines::One,
    false
);
bounded_text_type!(
    /// Blank, or one line of `MIN..=MAX` characters once trimmed, at most `MAX` as sent.
    BlankOr,
    Lines::One,
    true
);
bounded_text_type!(
    /// Text of `MIN..=MAX` characters once trimmed that may span lines, at most `MAX` as sent
    /// (`bounded_lines`).
    TrimmedLines,
    Lines::Many,
    false
);
bounded_text_type!(
    /// Blank, or text of `MIN..=MAX` characters once trimmed that may span lines, at most `MAX` as sent.
    BlankOrLines,
    Lines::Many,
    true
);

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
            "   ",
            "a",
            " ab ",
            " abc ",
            "\u{3000}a b\u{2028}",
            &"x".repeat(100),
            &format!(" {} ", "x".repeat(98)),
            &format!(" {} ", "x".repeat(100)),
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
        assert_eq!(trimmed(Lines::One, 1, Some(1)), VISIBLE);
        assert!(matches(&text(Lines::One, 1, Some(3)), " abc "));
        assert!(!matches(&text(Lines::One, 1, Some(3)), " abcd "));
        assert!(matches(&text(Lines::One, 3, None), &"x".repeat(500)));
    }

    /// Every control character, the white space `str::trim` drops, and a few of neither, alone, inside
    /// text and around it: the patterns take what `bounded_text` and `bounded_lines` take.
    #[test]
    fn free_text_patterns_refuse_the_control_characters_the_code_refuses() {
        let odd = (0..=0xA0u32)
            .chain([
                0xAD, 0x1680, 0x2000, 0x200B, 0x2028, 0x2029, 0x202F, 0x3000, 0xFEFF,
            ])
            .filter_map(char::from_u32);
        for c in odd {
            for sample in [
                format!("{c}"),
                format!("ab{c}cd"),
                format!("{c}abcd"),
                format!("abcd{c}"),
                format!(" {c} abc{c}"),
            ] {
                assert_eq!(
                    fits::<BlankOr<1, 100>>(&sample),
                    crate::validation::bounded_text("t", &sample, 100).is_ok(),
                    "one line: {sample:?}"
                );
                assert_eq!(
                    fits::<BlankOrLines<1, 100>>(&sample),
                    crate::validation::bounded_lines("t", &sample, 100).is_ok(),
                    "lines: {sample:?}"
                );
                let trimmed = sample.trim().chars().count();
                for (lines, fits, code) in [
                    (
                        Lines::One,
                        fits::<Trimmed<3, 100>>(&sample),
                        crate::validation::bounded_text("t", &sample, 100),
                    ),
                    (
                        Lines::Many,
                        fits::<TrimmedLines<3, 100>>(&sample),
                        crate::validation::bounded_lines("t", &sample, 100),
                    ),
                ] {
                    assert_eq!(fits, code.is_ok() && trimmed >= 3, "{lines:?}: {sample:?}");
                }
            }
        }
        assert!(fits::<TrimmedLines<3, 100>>("\r\n\tOne\r\n\ttwo\n"));
        assert!(!fits::<Trimmed<3, 100>>("One\r\nBcc: x@example.com"));
    }
}
