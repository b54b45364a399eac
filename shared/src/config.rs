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

#[cfg(test)]
mod tests {
    use super::*;

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
