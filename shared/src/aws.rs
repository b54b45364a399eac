//! AWS clients, built once per cold start and shared by every request. They honour the standard
//! `AWS_ENDPOINT_URL` settings, which is how the local gateway and the tests reach the emulator.

use aws_config::{BehaviorVersion, SdkConfig};

/// The SDK's HTTP client: TLS through rustls and ring (aws-lc is twice the build and binary), set up once
/// and shared by every SDK client (`crate::aws_http`).
pub fn http_client() -> aws_smithy_runtime_api::client::http::SharedHttpClient {
    crate::aws_http::client()
}

/// Region, credentials and endpoint from the environment. In a Lambda the environment says everything
/// (`AWS_REGION`, the role's keys, at most `AWS_ENDPOINT_URL`), so the config is built from it directly:
/// `aws_config`'s full loader walks profile files and provider chains first, which costs a cold start
/// several milliseconds for answers the environment already holds. Anything else (a profile, SSO, a
/// container's credentials, per-service endpoints) goes through the full loader.
pub async fn sdk_config() -> SdkConfig {
    // A service's own endpoint (`AWS_ENDPOINT_URL_DYNAMODB`...) is the loader's to resolve.
    let per_service = std::env::vars_os().any(|(name, _)| {
        name.to_str()
            .is_some_and(|name| name.starts_with("AWS_ENDPOINT_URL_"))
    });
    match from_lambda_env(&crate::config::ProcessEnv).filter(|_| !per_service) {
        Some(config) => config,
        None => defaults().load().await,
    }
}

/// The config a Lambda's environment fully describes, or `None` when it does not.
pub fn from_lambda_env(env: &impl crate::config::Lookup) -> Option<SdkConfig> {
    use aws_config::Region;
    use aws_credential_types::{provider::SharedCredentialsProvider, Credentials};
    let set = |name: &str| env.get(name).filter(|value| !value.trim().is_empty());
    // Settings only the full loader understands: leave them to it rather than half-honour them.
    let loader_only = [
        "AWS_PROFILE",
        "AWS_CONFIG_FILE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_USE_FIPS_ENDPOINT",
        "AWS_USE_DUALSTACK_ENDPOINT",
    ];
    if loader_only.iter().any(|name| set(name).is_some()) {
        return None;
    }
    let region = set("AWS_REGION").or_else(|| set("AWS_DEFAULT_REGION"))?;
    let credentials = Credentials::new(
        set("AWS_ACCESS_KEY_ID")?,
        set("AWS_SECRET_ACCESS_KEY")?,
        set("AWS_SESSION_TOKEN"),
        None,
        "environment",
    );
    let mut builder = SdkConfig::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(region))
        .credentials_provider(SharedCredentialsProvider::new(credentials))
        .http_client(http_client());
    // The template declares the endpoint empty and ignored in AWS; the local stack sets both.
    let ignored = set("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
        .is_some_and(|value| value.trim().eq_ignore_ascii_case("true"));
    if let Some(endpoint) = set("AWS_ENDPOINT_URL").filter(|_| !ignored) {
        builder = builder.endpoint_url(endpoint);
    }
    Some(builder.build())
}

/// The loader every client starts from; the emulator adds its endpoint and dummy credentials.
pub fn defaults() -> aws_config::ConfigLoader {
    aws_config::defaults(BehaviorVersion::latest()).http_client(http_client())
}

pub fn dynamodb(config: &SdkConfig) -> aws_sdk_dynamodb::Client {
    aws_sdk_dynamodb::Client::new(config)
}

/// S3 goes path-style when an endpoint is set: an emulator has no per-bucket host names.
pub fn s3(config: &SdkConfig) -> aws_sdk_s3::Client {
    let builder =
        aws_sdk_s3::config::Builder::from(config).force_path_style(config.endpoint_url().is_some());
    aws_sdk_s3::Client::from_conf(builder.build())
}

pub fn ses(config: &SdkConfig) -> aws_sdk_sesv2::Client {
    aws_sdk_sesv2::Client::new(config)
}

/// Parameter Store: read once at a cold start, for the site address (the `site` module).
pub fn ssm(config: &SdkConfig) -> aws_sdk_ssm::Client {
    aws_sdk_ssm::Client::new(config)
}

pub fn sqs(config: &SdkConfig) -> aws_sdk_sqs::Client {
    aws_sdk_sqs::Client::new(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    const LAMBDA: [(&str, &str); 4] = [
        ("AWS_REGION", "eu-west-2"),
        ("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"),
        ("AWS_SECRET_ACCESS_KEY", "secret"),
        ("AWS_SESSION_TOKEN", "token"),
    ];

    #[test]
    fn a_lambda_environment_gives_region_and_keys_without_the_loader() {
        let config = from_lambda_env(&env(&LAMBDA)).expect("a Lambda's environment is enough");
        assert_eq!(config.region().unwrap().as_ref(), "eu-west-2");
        assert!(config.credentials_provider().is_some());
        assert_eq!(config.endpoint_url(), None);
    }

    #[test]
    fn the_endpoint_is_taken_unless_it_is_declared_ignored() {
        let mut vars = LAMBDA.to_vec();
        vars.push(("AWS_ENDPOINT_URL", "http://127.0.0.1:5000"));
        let local = from_lambda_env(&env(&vars)).unwrap();
        assert_eq!(local.endpoint_url(), Some("http://127.0.0.1:5000"));
        vars.push(("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"));
        assert_eq!(from_lambda_env(&env(&vars)).unwrap().endpoint_url(), None);
    }

    #[test]
    fn anything_the_environment_does_not_say_goes_to_the_full_loader() {
        assert!(from_lambda_env(&env(&LAMBDA[1..])).is_none(), "no region");
        assert!(
            from_lambda_env(&env(&LAMBDA[..2])).is_none(),
            "no secret key"
        );
        let mut vars = LAMBDA.to_vec();
        vars.push(("AWS_PROFILE", "shop"));
        assert!(from_lambda_env(&env(&vars)).is_none(), "a profile");
    }
}
