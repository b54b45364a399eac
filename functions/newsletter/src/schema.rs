//! The rules of this function's inputs as JSON Schema. The code trims a value before it checks it (Rust's
//! `str::trim`), so a pattern allows the same white space around the value and counts the characters of
//! what is left, as the code does.

use crate::lists::{MailLists, DEFAULT_LISTS};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use shared::text_schema::{padded, string, LINE_SPACE, VISIBLE};
use std::borrow::Cow;

pub use shared::text_schema::{Email, Trimmed, TrimmedLines};

/// One line of at most `MAX` characters as sent, blank too (`bounded_text`).
pub type UpTo<const MAX: usize> = shared::text_schema::BlankOr<1, MAX>;
/// Text of at most `MAX` characters as sent that may span lines, blank too (`bounded_lines`).
pub type UpToLines<const MAX: usize> = shared::text_schema::BlankOrLines<1, MAX>;

/// The longest web address a mailing's section takes, trimmed.
const MAX_WEB_ADDRESS: usize = 2_000;

/// `text` matched ignoring ASCII case, as `eq_ignore_ascii_case` compares.
fn ignoring_case(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii_alphabetic() => {
                format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
            }
            '\\' | '^' | '$' | '.' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}'
            | '/' => format!("\\{c}"),
            c => c.to_string(),
        })
        .collect()
}

/// Any of the mail lists, unpadded. They are configuration (`SUBSCRIPTION_LISTS`): the document names the
/// ones template.yaml sets, the defaults.
fn list_name() -> String {
    let lists = MailLists::parse(DEFAULT_LISTS).expect("the default lists parse");
    let names: Vec<String> = lists.names().iter().map(|n| ignoring_case(n)).collect();
    format!("(?:{})", names.join("|"))
}

/// A web address as a mailing's link and image take it: blank, or `http://` or `https://` (any case) and
/// no white space or control characters (around it either: `bounded_text`), at most 2000 characters,
/// trimmed.
fn web_address() -> String {
    let http = ignoring_case("http");
    let rest = |scheme: usize| format!("{VISIBLE}{{0,{}}}", MAX_WEB_ADDRESS - scheme);
    format!(
        "^{LINE_SPACE}*(?:{http}://{}|{http}[Ss]://{})?{LINE_SPACE}*$",
        rest("http://".len()),
        rest("https://".len())
    )
}

/// An unsubscribe token, `{id}.{signature}`: the subscriber's id (32 lower-case hex digits) and 32 bytes in
/// hex (as `u8::from_str_radix` reads pairs, a `+` may lead one).
fn unsubscribe_token() -> String {
    padded(r"[0-9a-f]{32}\.(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f]){32}")
}

shared::text_type!(
    /// One of the mail lists, ignoring case.
    ListName,
    string(padded(&list_name()))
);
shared::text_type!(
    /// One of the mail lists, or blank (left out).
    ListNameOrBlank,
    string(padded(&format!("{}?", list_name())))
);
shared::text_type!(WebAddress, string(web_address()));
shared::text_type!(UnsubscribeToken, string(unsubscribe_token()));

/// A mailing's lists: at least one of them, blank entries left out.
pub struct MailListNames;

impl JsonSchema for MailListNames {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "MailListNames".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": ListNameOrBlank::json_schema(generator),
            "contains": ListName::json_schema(generator),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern<T: JsonSchema>() -> String {
        let schema = T::json_schema(&mut SchemaGenerator::default());
        schema.get("pattern").unwrap().as_str().unwrap().to_owned()
    }

    /// A regex engine's verdict on a pattern above (`regex_lite` reads these escapes as ECMA and Python do).
    fn matches(pattern: &str, text: &str) -> bool {
        regex_lite::Regex::new(pattern).unwrap().is_match(text)
    }

    #[test]
    fn list_names_match_as_resolve_does() {
        let lists = MailLists::parse(DEFAULT_LISTS).unwrap();
        let name = pattern::<ListName>();
        let or_blank = pattern::<ListNameOrBlank>();
        for text in [
            "Newsletter",
            " nEWSLETTER\n",
            "offers AND new drinks",
            "Offers and new drinks ",
            "Offers  and new drinks",
            "Gossip",
            "Newsletter, Offers",
            "",
            "  ",
        ] {
            let resolves = lists.resolve("lists", &[text.to_owned()]).is_ok();
            assert_eq!(matches(&name, text), resolves, "{text:?}");
            assert_eq!(
                matches(&or_blank, text),
                resolves || text.trim().is_empty(),
                "{text:?}"
            );
        }
        assert_eq!(ignoring_case("a.b (c)"), r"[Aa]\.[Bb] \([Cc]\)");
    }

    #[test]
    fn web_addresses_and_tokens_have_their_forms() {
        let web = pattern::<WebAddress>();
        for (text, ok) in [
            ("", true),
            ("https://shop.example/a?b=c", true),
            (" HTTP://x ", true),
            ("http://", true),
            ("ftp://x", false),
            ("https://a b", false),
            ("https:/x", false),
            ("https://x\n", false),
            ("https://x\u{0}y", false),
        ] {
            assert_eq!(matches(&web, text), ok, "{text:?}");
        }
        let long = format!("https://{}", "x".repeat(MAX_WEB_ADDRESS - 8));
        assert!(matches(&web, &long));
        assert!(!matches(&web, &format!("{long}x")));
        assert!(!matches(&web, &format!("http://{}", "x".repeat(1_994))));

        let key = crate::UnsubscribeKey::new(b"a-secret-of-at-least-thirty-two-chars");
        let token = key.token("0123456789abcdef0123456789abcdef");
        let pattern = pattern::<UnsubscribeToken>();
        assert!(matches(&pattern, &token));
        assert!(matches(&pattern, &format!(" {token}\n")));
        assert!(!matches(&pattern, &token.replacen('0', "A", 1)));
        assert!(!matches(&pattern, &token[..token.len() - 2]));
    }
}
