//! The registry of functions the gateway mounts: each template function's logical id, its route table and
//! how to build its router with the environment the template gives it.

use axum::Router;
use shared::config::Lookup;
use shared::emulator::{BoxError, LocalNames, Template};
use shared::routes::RouteSpec;
use std::collections::BTreeMap;

/// A function as the gateway knows it: its route table and how to build its router from the environment
/// the template gives it.
pub struct FunctionEntry {
    pub logical_id: &'static str,
    pub routes: fn() -> Vec<RouteSpec>,
    pub mount: fn(&LocalEnv) -> Result<Router, BoxError>,
}

/// Functions fed by a queue or a schedule serve no routes: the gateway mounts nothing for them (`mail`
/// plays their event sources).
fn no_routes() -> Vec<RouteSpec> {
    Vec::new()
}

fn no_router(_: &LocalEnv) -> Result<Router, BoxError> {
    Ok(Router::new())
}

/// Every function the template declares. A test fails if the two lists differ.
pub const FUNCTIONS: &[FunctionEntry] = &[
    FunctionEntry {
        logical_id: "CatalogFunction",
        routes: catalog::routes,
        mount: |env| {
            let config = catalog::Config::from_env(&env.lookup("CatalogFunction"))?;
            Ok(catalog::router(catalog::AppState::new(
                config,
                env.dynamodb.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "AuthFunction",
        routes: auth::routes,
        mount: |env| {
            let config = auth::Config::from_env(&env.lookup("AuthFunction"))?;
            Ok(auth::router(auth::AppState::new(
                config,
                env.dynamodb.clone(),
                env.ses.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "ContentFunction",
        routes: content::routes,
        mount: |env| {
            let config = content::Config::from_env(&env.lookup("ContentFunction"))?;
            Ok(content::router(content::AppState::new(
                config,
                env.dynamodb.clone(),
                env.ses.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "CodesFunction",
        routes: codes::routes,
        mount: |env| {
            let config = codes::Config::from_env(&env.lookup("CodesFunction"))?;
            Ok(codes::router(codes::AppState::new(
                config,
                env.dynamodb.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "OrdersFunction",
        routes: orders::routes,
        mount: |env| {
            let config = orders::Config::from_env(&env.lookup("OrdersFunction"))?;
            Ok(orders::router(orders::AppState::new(
                config,
                env.dynamodb.clone(),
                env.ses.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "UploadingFunction",
        routes: uploading::routes,
        mount: |env| {
            let config = uploading::Config::from_env(&env.lookup("UploadingFunction"))?;
            Ok(uploading::router(uploading::AppState::new(
                config,
                env.dynamodb.clone(),
                env.s3.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "ReviewsFunction",
        routes: reviews::routes,
        mount: |env| {
            let config = reviews::Config::from_env(&env.lookup("ReviewsFunction"))?;
            Ok(reviews::router(reviews::AppState::new(
                config,
                env.dynamodb.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "SubscriptionFunction",
        routes: subscription::routes,
        mount: |env| {
            let config = subscription::Config::from_env(&env.lookup("SubscriptionFunction"))?;
            Ok(subscription::router(subscription::AppState::new(
                config,
                env.dynamodb.clone(),
                env.ses.clone(),
                env.sqs.clone(),
            )))
        },
    },
    FunctionEntry {
        logical_id: "SubscriptionFeedbackFunction",
        routes: no_routes,
        mount: no_router,
    },
    FunctionEntry {
        logical_id: "SenderFunction",
        routes: no_routes,
        mount: no_router,
    },
];

/// Each function's environment as the template declares it, resolved to local names, plus the clients.
pub struct LocalEnv {
    per_function: BTreeMap<String, BTreeMap<String, String>>,
    pub dynamodb: aws_sdk_dynamodb::Client,
    pub s3: aws_sdk_s3::Client,
    pub ses: aws_sdk_sesv2::Client,
    pub sqs: aws_sdk_sqs::Client,
    /// The template's queues (logical id to URL), when the caller created them.
    pub queue_urls: BTreeMap<String, String>,
    pub names: LocalNames,
    pub images_bucket: String,
}

impl LocalEnv {
    pub fn new(
        template: &Template,
        names: &LocalNames,
        overrides: &BTreeMap<String, String>,
        sdk: &aws_config::SdkConfig,
    ) -> Result<Self, BoxError> {
        let per_function = template
            .functions()
            .iter()
            .map(|f| {
                (
                    f.logical_id.clone(),
                    names.function_env(template, f, overrides),
                )
            })
            .collect();
        Ok(LocalEnv {
            per_function,
            dynamodb: shared::aws::dynamodb(sdk),
            s3: shared::aws::s3(sdk),
            ses: shared::aws::ses(sdk),
            sqs: shared::aws::sqs(sdk),
            queue_urls: template
                .queues()
                .into_iter()
                .filter_map(|(id, _)| Some((id.clone(), overrides.get(&id)?.clone())))
                .collect(),
            names: names.clone(),
            images_bucket: names.bucket("ImagesBucket"),
        })
    }

    /// A function's environment variables, as a Lambda would get them.
    pub fn vars(&self, logical_id: &str) -> BTreeMap<String, String> {
        self.per_function
            .get(logical_id)
            .cloned()
            .unwrap_or_default()
    }

    /// A function's configuration lookup.
    pub fn lookup(&self, logical_id: &str) -> impl Lookup + '_ {
        let vars = self.per_function.get(logical_id);
        move |name: &str| vars.and_then(|vars| vars.get(name)).cloned()
    }
}

/// Every function's router, merged as API Gateway routes them.
pub fn mount_all(env: &LocalEnv) -> Result<Router, BoxError> {
    FUNCTIONS
        .iter()
        .try_fold(Router::new(), |router, function| {
            Ok(router.merge((function.mount)(env)?))
        })
}
