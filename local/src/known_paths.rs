//! Which paths the storefront has a page for: the rules of frontend/src/app/knownPaths.json, which the
//! CloudFront function in template.yaml applies too and the front end's tests hold against its router. A
//! path with a page gets index.html; any other gets the 404 page with status 404.

use serde::Deserialize;
use std::sync::OnceLock;

const TABLE: &str = include_str!("../../frontend/src/app/knownPaths.json");

#[derive(Debug, Deserialize)]
pub struct Rule {
    pub pattern: String,
    pub page: bool,
}

#[derive(Debug, Deserialize)]
pub struct Examples {
    pub known: Vec<String>,
    pub unknown: Vec<String>,
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

/// True when the storefront has a page at `path`: the first rule that matches decides; no rule, no page.
pub fn is_known(path: &str) -> bool {
    table()
        .rules
        .iter()
        .find(|rule| rule_matches(&rule.pattern, path))
        .is_some_and(|rule| rule.page)
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
    fn wildcards_are_whole_non_empty_segments() {
        assert!(rule_matches("/*/*", "/drinks/p-1/"));
        assert!(!rule_matches("/*/*", "/drinks//"));
        assert!(!rule_matches("/about/*-about-us", "/about/-about-us"));
        assert!(rule_matches("/new/uk/**", "/new/uk"));
        assert!(rule_matches("/checkout", "/checkout?step=2"));
        assert!(!rule_matches("/checkout", "/checkout/more"));
    }
}
