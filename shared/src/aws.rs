//! AWS clients, built once per cold start and shared by every request. They honour the standard
//! `AWS_ENDPOINT_URL` settings, which is how the local gateway and the tests reach the emulator.

use aws_config::{BehaviorVersion, SdkConfig};
use aws_smithy_http_client::{
    tls::{self, rustls_provider::CryptoMode},
    Builder,
};

/// The SDK's HTTP client: TLS through rustls and ring (aws-lc is twice the build and binary).
pub fn http_client() -> aws_smithy_runtime_api::client::http::SharedHttpClient {
    Builder::new()
        .tls_provider(tls::Provider::Rustls(CryptoMode::Ring))
        .build_https()
}

/// Loads region, credentials and endpoint from the environment.
pub async fn sdk_config() -> SdkConfig {
    defaults().load().await
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

/// Parameter Store: read once at a cold start, for the site address (see `crate::site`).
pub fn ssm(config: &SdkConfig) -> aws_sdk_ssm::Client {
    aws_sdk_ssm::Client::new(config)
}

pub fn sqs(config: &SdkConfig) -> aws_sdk_sqs::Client {
    aws_sdk_sqs::Client::new(config)
}
