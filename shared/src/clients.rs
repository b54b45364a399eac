//! The AWS clients a function's builder takes: one of each service at most, shared by every request.
//!
//! Each function crate's `build(env, clients)` asks for the clients it uses and nothing else. A Lambda
//! names those services up front (`ready`), so they are built while its settings are read
//! (`shared::startup`); one it did not name is built the first time it is asked for. A client costs its
//! cold start a few tens of microseconds, so building all four for every function would be waste, not harm.
//! The local gateway hands every function the same four, already built (`with`), as a warm stack would.

use aws_config::SdkConfig;
use std::sync::OnceLock;

/// The services a function's clients can be for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    DynamoDb,
    S3,
    Ses,
    Sqs,
}

pub struct Clients {
    /// What a client not built yet is built from; `None` only when every client was given (`with`).
    aws: Option<SdkConfig>,
    dynamodb: OnceLock<aws_sdk_dynamodb::Client>,
    s3: OnceLock<aws_sdk_s3::Client>,
    ses: OnceLock<aws_sdk_sesv2::Client>,
    sqs: OnceLock<aws_sdk_sqs::Client>,
}

impl Clients {
    /// Clients built from `aws` when first asked for.
    pub fn new(aws: &SdkConfig) -> Self {
        Clients {
            aws: Some(aws.clone()),
            dynamodb: OnceLock::new(),
            s3: OnceLock::new(),
            ses: OnceLock::new(),
            sqs: OnceLock::new(),
        }
    }

    /// Clients that are already built (the local gateway's, or a benchmark's metered ones).
    pub fn with(
        dynamodb: aws_sdk_dynamodb::Client,
        s3: aws_sdk_s3::Client,
        ses: aws_sdk_sesv2::Client,
        sqs: aws_sdk_sqs::Client,
    ) -> Self {
        Clients {
            aws: None,
            dynamodb: OnceLock::from(dynamodb),
            s3: OnceLock::from(s3),
            ses: OnceLock::from(ses),
            sqs: OnceLock::from(sqs),
        }
    }

    /// Builds the clients for `services` now.
    pub fn ready(self, services: &[Service]) -> Self {
        for service in services {
            match service {
                Service::DynamoDb => drop(self.dynamodb()),
                Service::S3 => drop(self.s3()),
                Service::Ses => drop(self.ses()),
                Service::Sqs => drop(self.sqs()),
            }
        }
        self
    }

    fn config(&self) -> &SdkConfig {
        self.aws
            .as_ref()
            .expect("clients made with `Clients::with` hold every client")
    }

    pub fn dynamodb(&self) -> aws_sdk_dynamodb::Client {
        self.dynamodb
            .get_or_init(|| crate::aws::dynamodb(self.config()))
            .clone()
    }

    pub fn s3(&self) -> aws_sdk_s3::Client {
        self.s3
            .get_or_init(|| crate::aws::s3(self.config()))
            .clone()
    }

    pub fn ses(&self) -> aws_sdk_sesv2::Client {
        self.ses
            .get_or_init(|| crate::aws::ses(self.config()))
            .clone()
    }

    pub fn sqs(&self) -> aws_sdk_sqs::Client {
        self.sqs
            .get_or_init(|| crate::aws::sqs(self.config()))
            .clone()
    }

    /// Which clients are built so far, for the test below and for a cold start's log.
    pub fn built(&self) -> Vec<Service> {
        [
            (Service::DynamoDb, self.dynamodb.get().is_some()),
            (Service::S3, self.s3.get().is_some()),
            (Service::Ses, self.ses.get().is_some()),
            (Service::Sqs, self.sqs.get().is_some()),
        ]
        .into_iter()
        .filter_map(|(service, built)| built.then_some(service))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SdkConfig {
        let env = |name: &str| {
            [
                ("AWS_REGION", "eu-west-2"),
                ("AWS_ACCESS_KEY_ID", "local"),
                ("AWS_SECRET_ACCESS_KEY", "local"),
            ]
            .into_iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_owned())
        };
        crate::aws::from_lambda_env(&env).expect("a Lambda's environment")
    }

    #[test]
    fn only_the_named_services_are_built_up_front_and_the_rest_when_asked() {
        let clients = Clients::new(&config()).ready(&[Service::DynamoDb, Service::Sqs]);
        assert_eq!(clients.built(), [Service::DynamoDb, Service::Sqs]);
        let _ = clients.s3();
        assert_eq!(
            clients.built(),
            [Service::DynamoDb, Service::S3, Service::Sqs]
        );
    }
}
