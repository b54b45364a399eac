//! Which paths the storefront has a page for: the rules of frontend/src/app/knownPaths.json, which the
//! CloudFront function in template.yaml applies too and the front end's tests hold against its router. A
//! path with a page gets index.html, or its prerendered copy when its rule is prerendered and the copy
//! exists; any other gets the 404 page with status 404.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../../frontend/src/app/knownPaths.json");

#[derive(Debug, Deserialize)]
pub struct Rule {
    pub pattern: String,
    pub page: bool,
    /// Its pages may have a prerendered copy in the build (frontend/scripts/prerender-pages.mjs).
    #[serde(default)]
    pub prerendered: bool,
    /// Its pages name a drink by id (the second segment): a page only while that drink exists, else the
    /// app with status 404 (it says "Drink not found").
    #[serde(default)]
    pub drink: bool,
}

#[derive(Debug, Deserialize)]
pub struct Examples {
    pub known: Vec<String>,
    pub unknown: Vec<String>,
    /// Path (with its query) -> the prerendered file it may get, relative to the build; `None`: index.html.
    pub prerendered: BTreeMap<String, Option<String>>,
}

#[derive(Debug, Deserialize)]
pub struct Table {
    pub rules: Vec<Rule>,
    pub examples: Examples,
}

/// The rules and their examples, parsed once.
pub fn table() -> &'static Table {
    static TABLE_PARSED: OnceLock<Table> = OnceLock::new();
    TABLE_PARSED.get_or_init(|| serde_json::from_str(TABLE).expect("knownPaths.json parses"))
}

/// A path's segments: the query string dropped, one trailing slash ignored ('/' has none).
fn segments(path: &str) -> Vec<&str> {
    let path = path.split('?').next().unwrap_or("");
    let path = if path.len() > 1 {
        path.strip_suffix('/').unwrap_or(path)
    } else {
        path
    };
    match path {
        "" | "/" => Vec::new(),
        _ => path.trim_start_matches('/').split('/').collect(),
    }
}

fn rule_matches(pattern: &str, path: &str) -> bool {
    let segments = segments(path);
    let parts = self::segments(pattern);
    for (i, part) in parts.iter().enumerate() {
        if *part == "**" {
            return true;
        }
        let Some(segment) = segments.get(i) else {
            return false;
        };
        let fits = match part.strip_prefix('*') {
            Some("") => !segment.is_empty(),
            Some(suffix) => segment.len() > suffix.len() && segment.ends_with(suffix),
            None => segment == part,
        };
        if !fits {
            return false;
        }
    }
    segments.len() == parts.len()
}

fn first_rule(path: &str) -> Option<&'static Rule> {
    table()
        .rules
        .iter()
        .find(|rule| rule_matches(&rule.pattern, path))
}

/// True when the storefront has a page at `path`: the first rule that matches decides; no rule, no page.
pub fn is_known(path: &str) -> bool {
    first_rule(path).is_some_and(|rule| rule.page)
}

/// The drink a path's page names, when its rule names drinks: the second segment, percent-decoded.
pub fn drink_id(path: &str) -> Option<String> {
    if !first_rule(path).is_some_and(|rule| rule.page && rule.drink) {
        return None;
    }
    let segment = *segments(path).get(1)?;
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .ok()
        .map(|id| id.into_owned())
}

/// Where the prerendered copy of the page at `path_and_query` would be, relative to the build, with `/`
/// between its parts: `P/index.html` for the page at path P (its query plays no part), and
/// `shop/<product>/category/<escaped name>/index.html` for the shop list with `category` as its only query
/// parameter. `None` when the page has no prerendered copy: an unknown path, a rule that is not
/// prerendered, the shop list with any other query, or a segment that, decoded, could leave the build
/// (`..`, `.`, a slash or a backslash) or is not UTF-8.
pub fn prerendered_file(path_and_query: &str) -> Option<String> {
    let (path, query) = match path_and_query.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (path_and_query, None),
    };
    if !first_rule(path).is_some_and(|rule| rule.page && rule.prerendered) {
        return None;
    }
    let mut parts = Vec::new();
    for segment in segments(path) {
        let decoded = percent_encoding::percent_decode_str(segment)
            .decode_utf8()
            .ok()?;
        if decoded.is_empty() || decoded == ".." || decoded == "." || decoded.contains(['/', '\\'])
        {
            return None;
        }
        parts.push(decoded.into_owned());
    }
    let params: Vec<(String, String)> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if parts.len() == 2 && parts[0] == "shop" && !params.is_empty() {
        let [(name, value)] = params.as_slice() else {
            return None;
        };
        if name != "category" || value.is_empty() {
            return None;
        }
        parts.push("category".to_owned());
        parts.push(escape_name(value));
    }
    parts.push("index.html".to_owned());
    Some(parts.join("/"))
}

/// A category's name as one safe directory name: every UTF-16 code unit outside [A-Za-z0-9-] becomes `_`,
/// its code in lowercase hex and `_`, as the prerender script writes it.
fn escape_name(name: &str) -> String {
    let mut escaped = String::with_capacity(name.len());
    for unit in name.encode_utf16() {
        match char::from_u32(u32::from(unit)) {
            Some(c) if c.is_ascii_alphanumeric() || c == '-' => escaped.push(c),
            _ => escaped.push_str(&format!("_{unit:x}_")),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_are_classified_as_the_table_says() {
        for path in &table().examples.known {
            assert!(is_known(path), "{path} should have a page");
        }
        for path in &table().examples.unknown {
            assert!(!is_known(path), "{path} should be unknown");
        }
    }

    #[test]
    fn the_examples_get_the_prerendered_file_the_table_says() {
        for (path, file) in &table().examples.prerendered {
            assert!(is_known(path), "{path} should have a page");
            assert_eq!(&prerendered_file(path), file, "{path}");
        }
        for path in &table().examples.known {
            assert!(
                table().examples.prerendered.contains_key(path),
                "{path}: every known example says which file it gets"
            );
        }
        for path in &table().examples.unknown {
            assert_eq!(prerendered_file(path), None, "{path}");
        }
    }

    #[test]
    fn a_decoded_segment_never_leaves_the_build() {
        for path in [
            "/drinks/..",
            "/drinks/%2e%2E",
            "/drinks/.",
            "/drinks/a%2Fb",
            "/drinks/a%5Cb",
            "/drinks/%FF",
            "/../policies/terms",
        ] {
            assert_eq!(prerendered_file(path), None, "{path}");
        }
        assert_eq!(
            prerendered_file("/drinks/p%20mango"),
            Some("drinks/p mango/index.html".to_owned())
        );
    }

    #[test]
    fn category_names_are_escaped_per_utf16_unit() {
        assert_eq!(escape_name("Soft drinks"), "Soft_20_drinks");
        assert_eq!(escape_name("a_b"), "a_5f_b");
        assert_eq!(escape_name("../x"), "_2e__2e__2f_x");
        assert_eq!(escape_name("\u{1F34B}"), "_d83c__df4b_");
        assert_eq!(escape_name("Tab\t"), "Tab_9_");
    }

    #[test]
    fn wildcards_are_whole_non_empty_segments() {
        assert!(rule_matches("/*/*", "/drinks/p-1/"));
        assert!(!rule_matches("/*/*", "/drinks//"));
        assert!(!rule_matches("/about/*-about-us", "/about/-about-us"));
        assert!(rule_matches("/new/uk/**", "/new/uk"));
        assert!(rule_matches("/checkout", "/checkout?step=2"));
        assert!(!rule_matches("/checkout", "/checkout/more"));
    }
}
