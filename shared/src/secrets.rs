//! Secrets from AWS Secrets Manager, read once at cold start. A function's environment names a secret by id
//! in `NAME_SECRET_ID`, never by value; `resolve` answers an environment where `NAME` holds the secret's
//! value, so configuration code reads a secret like any other setting. Moving a setting from a plain
//! variable to a secret is one line of template.yaml: `NAME: value` becomes `NAME_SECRET_ID: id`.

use crate::config::Lookup;
use std::collections::BTreeMap;
use std::fmt;

/// What marks a variable as naming a secret.
pub const SECRET_ID_SUFFIX: &str = "_SECRET_ID";

/// A function's settings with its secrets filled in.
#[derive(Debug, Clone, Default)]
pub struct Env(BTreeMap<String, String>);

impl Lookup for Env {
    fn get(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

impl Env {
    pub fn vars(&self) -> &BTreeMap<String, String> {
        &self.0
    }
}

#[derive(Debug)]
pub enum SecretError {
    /// The same setting was given both as a plain value and as a secret: which one wins would be a guess.
    Twice(String),
    Unreadable {
        name: String,
        cause: String,
    },
}

impl fmt::Display for SecretError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretError::Twice(name) => write!(
                f,
                "{name} is set both directly and through {name}{SECRET_ID_SUFFIX}: keep only the secret"
            ),
            SecretError::Unreadable { name, cause } => {
                write!(f, "the secret of {name} could not be read: {cause}")
            }
        }
    }
}

impl std::error::Error for SecretError {}

pub fn client(config: &aws_config::SdkConfig) -> aws_sdk_secretsmanager::Client {
    aws_sdk_secretsmanager::Client::new(config)
}

/// Reads every secret `vars` name and answers `vars` with each `NAME_SECRET_ID` replaced by `NAME`. All of a
/// function's secrets come in one `BatchGetSecretValue` call: on AWS every call is a connection and a round
/// trip that a cold start would pay in series.
pub async fn resolve(
    client: &aws_sdk_secretsmanager::Client,
    vars: impl IntoIterator<Item = (String, String)>,
) -> Result<Env, SecretError> {
    let vars: BTreeMap<String, String> = vars.into_iter().collect();
    let mut resolved = BTreeMap::new();
    // Secret id to the setting it fills.
    let mut wanted: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in &vars {
        let Some(target) = name.strip_suffix(SECRET_ID_SUFFIX) else {
            resolved
                .entry(name.clone())
                .or_insert_with(|| value.clone());
            continue;
        };
        if value.trim().is_empty() {
            continue;
        }
        if vars.contains_key(target) {
            return Err(SecretError::Twice(target.to_owned()));
        }
        wanted.insert(value.trim().to_owned(), target.to_owned());
    }
    if wanted.is_empty() {
        return Ok(Env(resolved));
    }
    let unreadable = |target: &str, cause: String| SecretError::Unreadable {
        name: target.to_owned(),
        cause,
    };
    let found = client
        .batch_get_secret_value()
        .set_secret_id_list(Some(wanted.keys().cloned().collect()))
        .send()
        .await
        .map_err(|e| {
            let names: Vec<&str> = wanted.values().map(String::as_str).collect();
            unreadable(
                &names.join(", "),
                aws_sdk_secretsmanager::error::DisplayErrorContext(e).to_string(),
            )
        })?;
    if let Some(error) = found.errors().first() {
        let id = error.secret_id().unwrap_or_default();
        let target = wanted.get(id).map_or(id, String::as_str);
        return Err(unreadable(
            target,
            format!(
                "{}: {}",
                error.error_code().unwrap_or("error"),
                error.message().unwrap_or_default()
            ),
        ));
    }
    for value in found.secret_values() {
        // Answered by name (and ARN): a secret named by either is found.
        let target = [value.name(), value.arn()]
            .into_iter()
            .flatten()
            .find_map(|key| wanted.get(key));
        let Some(target) = target else { continue };
        let secret = value
            .secret_string()
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| unreadable(target, "it has no text value".to_owned()))?;
        resolved.insert(target.clone(), secret.trim().to_owned());
    }
    if let Some(target) = wanted
        .values()
        .find(|target| !resolved.contains_key(*target))
    {
        return Err(unreadable(
            target,
            "Secrets Manager did not answer it".to_owned(),
        ));
    }
    Ok(Env(resolved))
}

/// 32 random bytes, base64: a fresh symmetric key (login codes, unsubscribe links).
pub fn random_key() -> String {
    use base64::Engine;
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .expect("the system's secure generator works");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A symmetric key from its secret's text; at least 32 characters, as `random_key` and the README make.
pub fn symmetric_key(
    env: &impl Lookup,
    name: &'static str,
) -> Result<Vec<u8>, crate::config::ConfigError> {
    let value = crate::config::required(env, name)?;
    if value.len() < 32 {
        return Err(crate::config::ConfigError::Invalid {
            name,
            reason: "use at least 32 characters".to_owned(),
        });
    }
    Ok(value.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offline_client() -> aws_sdk_secretsmanager::Client {
        let config = aws_sdk_secretsmanager::Config::builder()
            .behavior_version(aws_sdk_secretsmanager::config::BehaviorVersion::latest())
            .region(aws_sdk_secretsmanager::config::Region::new("eu-west-2"))
            .build();
        aws_sdk_secretsmanager::Client::from_conf(config)
    }

    #[tokio::test]
    async fn plain_settings_pass_through_and_a_setting_given_twice_is_refused() {
        let client = offline_client();
        let plain = resolve(
            &client,
            [
                ("USERS_TABLE".to_owned(), "users".to_owned()),
                ("EMPTY_SECRET_ID".to_owned(), " ".to_owned()),
            ],
        )
        .await
        .unwrap();
        assert_eq!(plain.get("USERS_TABLE").as_deref(), Some("users"));
        assert_eq!(plain.get("EMPTY"), None);
        // A secret's value in the environment beside its id is exactly what this mechanism forbids.
        let twice = resolve(
            &client,
            [
                ("LOGIN_CODE_KEY".to_owned(), "in-the-environment".to_owned()),
                (
                    "LOGIN_CODE_KEY_SECRET_ID".to_owned(),
                    "shop/dev/auth/login-code-key".to_owned(),
                ),
            ],
        )
        .await;
        assert!(matches!(twice, Err(SecretError::Twice(name)) if name == "LOGIN_CODE_KEY"));
    }

    #[test]
    fn symmetric_keys_are_long_enough() {
        let short = |_: &str| Some("short".to_owned());
        assert!(symmetric_key(&short, "UNSUBSCRIBE_KEY").is_err());
        let key = random_key();
        let long = move |_: &str| Some(key.clone());
        assert_eq!(symmetric_key(&long, "UNSUBSCRIBE_KEY").unwrap().len(), 44);
    }
}
