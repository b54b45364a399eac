//! Configuration read from the environment (or, in the local gateway, from a map built from template.yaml).
//! A missing variable stops the process at start-up with its name, instead of failing on the first request.

use std::fmt;

/// Where configuration values come from: the process environment in Lambda, a map in the local gateway.
pub trait Lookup {
    fn get(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnv;

impl Lookup for ProcessEnv {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl<F: Fn(&str) -> Option<String>> Lookup for F {
    fn get(&self, name: &str) -> Option<String> {
        self(name)
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum ConfigError {
    Missing(&'static str),
    Invalid { name: &'static str, reason: String },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Missing(name) => write!(f, "missing environment variable {name}"),
            ConfigError::Invalid { name, reason } => {
                write!(f, "environment variable {name} is invalid: {reason}")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// A value that must be present and not blank.
pub fn required(env: &impl Lookup, name: &'static str) -> Result<String, ConfigError> {
    match env.get(name) {
        Some(value) if !value.trim().is_empty() => Ok(value),
        _ => Err(ConfigError::Missing(name)),
    }
}

/// A value with a default when absent or blank.
pub fn optional(env: &impl Lookup, name: &str, default: &str) -> String {
    env.get(name)
        .filter(|value| !value.trim().is_empty())
        .unwrap_or_else(|| default.to_owned())
}

/// `SITE_URL`: the shop's public address, from which every absolute link is built (never from a request
/// header, which anyone can set). Required; `https://host[:port]` (plain `http` only for 127.0.0.1 and
/// localhost, the local gateway), without a path.
pub fn site_url(env: &impl Lookup) -> Result<String, ConfigError> {
    let value = required(env, "SITE_URL")?;
    let url = value.trim().trim_end_matches('/');
    let invalid = |reason: &str| ConfigError::Invalid {
        name: "SITE_URL",
        reason: reason.to_owned(),
    };
    let host = match url.split_once("://") {
        Some(("https", host)) => host,
        Some(("http", host)) if host.starts_with("127.0.0.1") || host.starts_with("localhost") => {
            host
        }
        _ => return Err(invalid("use https://your-shop-address")),
    };
    if host.is_empty()
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
    {
        return Err(invalid("use only the address: https://host, no path"));
    }
    Ok(url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_url_is_required_and_only_an_address() {
        let env = |v: &'static str| move |name: &str| (name == "SITE_URL").then(|| v.to_owned());
        assert_eq!(
            site_url(&env("https://shop.example/")).unwrap(),
            "https://shop.example"
        );
        assert_eq!(
            site_url(&env("http://127.0.0.1:3000")).unwrap(),
            "http://127.0.0.1:3000"
        );
        for bad in [
            "",
            "http://shop.example",
            "https://shop.example/x",
            "shop.example",
            "https://a b",
        ] {
            assert!(site_url(&env(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn required_names_the_missing_variable() {
        let env = |_: &str| None;
        let err = required(&env, "CATALOG_TABLE").unwrap_err();
        assert_eq!(
            err.to_string(),
            "missing environment variable CATALOG_TABLE"
        );
    }

    #[test]
    fn required_treats_blank_as_missing() {
        let env = |_: &str| Some("  ".to_owned());
        assert_eq!(required(&env, "X"), Err(ConfigError::Missing("X")));
    }

    #[test]
    fn optional_falls_back_to_the_default() {
        let env = |name: &str| (name == "SET").then(|| "yes".to_owned());
        assert_eq!(optional(&env, "SET", "no"), "yes");
        assert_eq!(optional(&env, "UNSET", "no"), "no");
    }
}
