//! A function's first step at a cold start: its settings, read while it builds what does not need them.
//!
//! The settings are the process environment with its secrets read (one `BatchGetSecretValue`,
//! `crate::secrets`) and, where `SITE_URL` is left to a parameter, the site address (`crate::site`). Those
//! reads are round trips; building the SDK clients is CPU work that needs neither. `read_settings` starts
//! the reads on the runtime's worker threads at once, so a `main` builds its clients while they are under
//! way and only then waits: on AWS the clients cost nothing beside the round trip.

use crate::secrets::Env;
use crate::site::WithSiteUrl;
use std::future::Future;
use std::pin::Pin;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What a function builds its configuration from: every variable, secrets filled in, `SITE_URL` set.
pub type Settings = WithSiteUrl<Env>;

/// The settings being read: await it for them.
pub type Reading = Pin<Box<dyn Future<Output = Result<Settings, BoxError>> + Send>>;

/// Starts reading the settings of the process's environment (the secrets, and the site address when it is
/// a parameter: the two reads side by side, neither needs the other) and answers them when awaited. Call it
/// inside the runtime, before building the clients.
pub fn read_settings(aws: &aws_config::SdkConfig) -> Reading {
    read(aws, std::env::vars().collect())
}

/// `read_settings` for the environment `vars`.
pub fn read(aws: &aws_config::SdkConfig, vars: Vec<(String, String)>) -> Reading {
    let lookup = |name: &str| {
        vars.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let parameter = crate::site::parameter_to_read(&lookup);
    let secrets = tokio::spawn({
        let aws = aws.clone();
        async move { crate::secrets::resolve(&crate::secrets::client(&aws), vars).await }
    });
    let site_url = parameter.map(|parameter| {
        let aws = aws.clone();
        tokio::spawn(async move {
            crate::site::read_parameter(&crate::aws::ssm(&aws), &parameter).await
        })
    });
    Box::pin(async move {
        let env = secrets.await??;
        let site_url = match site_url {
            Some(read) => Some(read.await??),
            None => None,
        };
        Ok(crate::site::with_site_url(env, site_url))
    })
}
