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
            )))
        },
    },
];

/// Each function's environment as the template declares it, resolved to local names, plus the clients.
pub struct LocalEnv {
    /// As a Lambda gets them: secrets named by id (`NAME_SECRET_ID`).
    per_function: BTreeMap<String, BTreeMap<String, String>>,
    /// With the secrets read from the emulator's Secrets Manager, as `main` would.
    resolved: BTreeMap<String, shared::secrets::Env>,
    pub dynamodb: aws_sdk_dynamodb::Client,
    pub s3: aws_sdk_s3::Client,
    pub ses: aws_sdk_sesv2::Client,
    pub names: LocalNames,
    pub images_bucket: String,
}

impl LocalEnv {
    /// Creates every secret a function names (unless the emulator has it already: a restarted gateway keeps
    /// its keys, and the browser's tokens with them), gives every function the public half of the
    /// token-signing key, and reads each function's secrets back.
    pub async fn new(
        template: &Template,
        names: &LocalNames,
        overrides: &BTreeMap<String, String>,
        sdk: &aws_config::SdkConfig,
    ) -> Result<Self, BoxError> {
        let secrets = shared::secrets::client(sdk);
        let mut overrides = overrides.clone();
        for function in template.functions() {
            for name in function.env.keys() {
                let Some(target) = name.strip_suffix(shared::secrets::SECRET_ID_SUFFIX) else {
                    continue;
                };
                let id = format!("{}/{target}", names.table("secrets"));
                // An override of the plain name (`STRIPE_SECRET_KEY`) is the value the secret holds.
                let given = overrides.get(target).cloned();
                let value = shared::secrets::ensure(&secrets, &id, || {
                    given.unwrap_or_else(|| shared::testing::local_secret(target))
                })
                .await?;
                if target == "TOKEN_SIGNING_KEY" {
                    overrides.insert(
                        "TOKEN_PUBLIC_KEY".to_owned(),
                        shared::auth::public_key_of(&value)?,
                    );
                }
                overrides.insert(name.clone(), id);
            }
        }
        let mut per_function = BTreeMap::new();
        let mut resolved = BTreeMap::new();
        for f in template.functions() {
            let vars = names.function_env(template, &f, &overrides);
            resolved.insert(
                f.logical_id.clone(),
                shared::secrets::resolve(&secrets, vars.clone()).await?,
            );
            per_function.insert(f.logical_id.clone(), vars);
        }
        Ok(LocalEnv {
            per_function,
            resolved,
            dynamodb: shared::aws::dynamodb(sdk),
            s3: shared::aws::s3(sdk),
            ses: shared::aws::ses(sdk),
            names: names.clone(),
            images_bucket: names.bucket("ImagesBucket"),
        })
    }

    /// A function's environment variables, as a Lambda would get them (secrets by id).
    pub fn vars(&self, logical_id: &str) -> BTreeMap<String, String> {
        self.per_function
            .get(logical_id)
            .cloned()
            .unwrap_or_default()
    }

    /// A function's configuration lookup, secrets read.
    pub fn lookup(&self, logical_id: &str) -> impl Lookup + '_ {
        let env = self.resolved.get(logical_id);
        move |name: &str| env.and_then(|env| env.get(name))
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
