//! The shop's public address (`SITE_URL`) for links in pages and e-mails, as a deployed function learns it.
//!
//! With a custom domain the template sets `SITE_URL` itself. Without one the address is CloudFront's, which
//! the template cannot hand to the functions: the distribution fronts the API, and the API is built from
//! the functions, so a reference back would be a cycle. The stack writes the address to a Parameter Store
//! parameter instead, named (not referenced) in `SITE_URL_PARAMETER`, and the function reads it once at a
//! cold start. Locally neither is set and nothing is looked up.

use crate::config::{ConfigError, Lookup};

/// `env` with `SITE_URL` filled in from the parameter when the environment left it blank.
pub struct WithSiteUrl<L> {
    env: L,
    site_url: Option<String>,
}

impl<L: Lookup> Lookup for WithSiteUrl<L> {
    fn get(&self, name: &str) -> Option<String> {
        match (&self.site_url, name) {
            (Some(url), "SITE_URL") => Some(url.clone()),
            _ => self.env.get(name),
        }
    }
}

/// `env` with `SITE_URL` set to `site_url` when that is `Some` (the parameter's address).
pub fn with_site_url<L: Lookup>(env: L, site_url: Option<String>) -> WithSiteUrl<L> {
    WithSiteUrl { env, site_url }
}

/// Reads `SITE_URL_PARAMETER` when `SITE_URL` is blank. A named parameter that cannot be read, or that
/// does not hold an http(s) address, stops the cold start naming the variable: links to the wrong host
/// are worse than a function that does not start.
pub async fn resolve<L: Lookup>(
    env: L,
    ssm: &aws_sdk_ssm::Client,
) -> Result<WithSiteUrl<L>, ConfigError> {
    let site_url = match parameter_to_read(&env) {
        Some(parameter) => Some(read_parameter(ssm, &parameter).await?),
        None => None,
    };
    Ok(with_site_url(env, site_url))
}

/// The parameter holding the site address, when `SITE_URL` is blank and `SITE_URL_PARAMETER` names one:
/// otherwise there is nothing to read (and no Parameter Store client to build).
pub fn parameter_to_read(env: &impl Lookup) -> Option<String> {
    let set = |name: &str| env.get(name).filter(|value| !value.trim().is_empty());
    match (set("SITE_URL"), set("SITE_URL_PARAMETER")) {
        (None, Some(parameter)) => Some(parameter),
        _ => None,
    }
}

/// The address `parameter` holds.
pub async fn read_parameter(
    ssm: &aws_sdk_ssm::Client,
    parameter: &str,
) -> Result<String, ConfigError> {
    let invalid = |reason: String| ConfigError::Invalid {
        name: "SITE_URL_PARAMETER",
        reason,
    };
    let output = ssm
        .get_parameter()
        .name(parameter)
        .send()
        .await
        .map_err(|err| {
            invalid(format!(
                "{parameter} could not be read: {}",
                aws_sdk_ssm::error::DisplayErrorContext(&err)
            ))
        })?;
    let value = output.parameter.and_then(|p| p.value).unwrap_or_default();
    parse_site_url(&value).ok_or_else(|| {
        invalid(format!(
            "{parameter} holds {value:?}, not an http(s) address"
        ))
    })
}

/// An absolute http(s) address without a trailing slash, so callers can append `/path`.
fn parse_site_url(value: &str) -> Option<String> {
    let value = value.trim().trim_end_matches('/');
    let host = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"))?;
    (!host.is_empty() && !host.contains(char::is_whitespace)).then(|| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::parse_site_url;

    #[test]
    fn parse_site_url_keeps_an_address_without_its_trailing_slash() {
        assert_eq!(
            parse_site_url("https://d1234.cloudfront.net/").as_deref(),
            Some("https://d1234.cloudfront.net")
        );
        assert_eq!(
            parse_site_url(" https://shop.example.co.uk ").as_deref(),
            Some("https://shop.example.co.uk")
        );
    }

    #[test]
    fn parse_site_url_refuses_what_is_not_an_address() {
        for value in [
            "",
            "https://",
            "d1234.cloudfront.net",
            "ftp://x",
            "https://a b",
        ] {
            assert_eq!(parse_site_url(value), None, "{value:?}");
        }
    }
}
