//! The registry of functions the gateway mounts: each template function's logical id, its route table and
//! how to build its router with the environment the template gives it.

use axum::Router;
use shared::config::Lookup;
use shared::routes::RouteSpec;
use std::collections::BTreeMap;
use testkit::emulator::{BoxError, LocalNames, Template};

/// A function as the gateway knows it: its route table and how to build its router from the environment
/// the template gives it.
pub struct FunctionEntry {
    pub logical_id: &'static str,
    pub routes: fn() -> Vec<RouteSpec>,
    pub mount: fn(&LocalEnv) -> Result<Router, BoxError>,
    /// A function fed by something other than API Gateway (a schedule): how it handles one event, as its
    /// `main` does in Lambda. `None` for HTTP functions, whose router takes the events.
    pub handle: Option<EventHandler>,
}

pub type EventHandler = fn(
    &LocalEnv,
    serde_json::Value,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<serde_json::Value, BoxError>> + Send>,
>;

/// Functions fed by a queue or a schedule serve no routes: the gateway mounts nothing for them (`mail`
/// plays their event sources).
fn no_routes() -> Vec<RouteSpec> {
    Vec::new()
}

fn no_router(_: &LocalEnv) -> Result<Router, BoxError> {
    Ok(Router::new())
}

/// Every function the template declares. A test fails if the two lists differ. A function without HTTP events
/// (a scheduled or queue-fed one) has no routes and mounts an empty router; building its state still checks
/// its settings at start, as its cold start would.
pub const FUNCTIONS: &[FunctionEntry] = &[
    FunctionEntry {
        logical_id: "CatalogFunction",
        routes: catalog::routes,
        mount: |env| {
            Ok(catalog::build(
                &env.lookup("CatalogFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "AuthFunction",
        routes: auth::routes,
        mount: |env| Ok(auth::build(&env.lookup("AuthFunction"), &env.clients())?),
        handle: None,
    },
    FunctionEntry {
        logical_id: "ContentFunction",
        routes: content::routes,
        mount: |env| {
            Ok(content::build(
                &env.lookup("ContentFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "DiscountsFunction",
        routes: discounts::routes,
        mount: |env| {
            Ok(discounts::build(
                &env.lookup("DiscountsFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "OrdersFunction",
        routes: orders::routes,
        mount: |env| {
            Ok(orders::build(
                &env.lookup("OrdersFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    // No HTTP events: EventBridge runs it in AWS, local/src/schedule.rs in the gateway.
    FunctionEntry {
        logical_id: "OrdersExpiryFunction",
        routes: Vec::new,
        mount: |env| {
            orders_expiry_state(env)?;
            Ok(Router::new())
        },
        handle: Some(|env, event| {
            let state = orders_expiry_state(env);
            Box::pin(async move {
                orders::expiry::handle_event(&state?, &event, shared::time::now_unix())
                    .await
                    .map_err(|error| format!("the orders expiry function failed: {error:?}").into())
            })
        }),
    },
    FunctionEntry {
        logical_id: "ImagesFunction",
        routes: images::routes,
        mount: |env| {
            Ok(images::build(
                &env.lookup("ImagesFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "ReviewsFunction",
        routes: reviews::routes,
        mount: |env| {
            Ok(reviews::build(
                &env.lookup("ReviewsFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "NewsletterFunction",
        routes: newsletter::routes,
        mount: |env| {
            Ok(newsletter::build(
                &env.lookup("NewsletterFunction"),
                &env.clients(),
            )?)
        },
        handle: None,
    },
    FunctionEntry {
        logical_id: "NewsletterFeedbackFunction",
        routes: no_routes,
        mount: no_router,
        // An SQS batch of SES bounce and complaint notices, as the feedback queue hands it over.
        handle: Some(|env, event| {
            let app = newsletter_state(env, "NewsletterFeedbackFunction");
            Box::pin(async move {
                let batch = serde_json::from_value(event)?;
                let answer = newsletter::feedback::handle(&app?, batch).await;
                Ok(serde_json::to_value(answer)?)
            })
        }),
    },
    FunctionEntry {
        logical_id: "SenderFunction",
        routes: no_routes,
        mount: no_router,
        // A mail queue batch, the schedule's sweep or a one-off task, told apart as its main does.
        handle: Some(|env, event| {
            let state = sender_state(env, &MailOptions::default());
            Box::pin(async move { sender::handle_event(&state?, event).await })
        }),
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
    pub sqs: aws_sdk_sqs::Client,
    /// The template's queues (logical id to URL), when the caller created them.
    pub queue_urls: BTreeMap<String, String>,
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
                let value = testkit::emulator::ensure_secret(&secrets, &id, || {
                    given.unwrap_or_else(|| testkit::local_secret(target))
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
        let aws = aws_vars(sdk);
        for f in template.functions() {
            let mut vars = names.function_env(template, &f, &overrides);
            vars.extend(aws.clone());
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

    /// Clients built from `sdk` for functions whose environments a gateway made (`make invoke`): their
    /// secrets are read from the same emulator.
    pub async fn from_vars(
        per_function: BTreeMap<String, BTreeMap<String, String>>,
        sdk: &aws_config::SdkConfig,
        names: LocalNames,
    ) -> Result<Self, BoxError> {
        let images_bucket = per_function
            .values()
            .find_map(|vars| vars.get("IMAGES_BUCKET").cloned())
            .unwrap_or_default();
        let secrets = shared::secrets::client(sdk);
        let mut resolved = BTreeMap::new();
        for (id, vars) in &per_function {
            resolved.insert(
                id.clone(),
                shared::secrets::resolve(&secrets, vars.clone()).await?,
            );
        }
        Ok(LocalEnv {
            per_function,
            resolved,
            dynamodb: shared::aws::dynamodb(sdk),
            s3: shared::aws::s3(sdk),
            ses: shared::aws::ses(sdk),
            sqs: shared::aws::sqs(sdk),
            queue_urls: BTreeMap::new(),
            names,
            images_bucket,
        })
    }

    /// A function's environment variables, as a Lambda would get them (secrets by id).
    pub fn vars(&self, logical_id: &str) -> BTreeMap<String, String> {
        self.per_function
            .get(logical_id)
            .cloned()
            .unwrap_or_default()
    }

    /// Every function's environment in the shape `sam local invoke --env-vars` reads (`{LogicalId: {NAME:
    /// value}}`), with the emulator's address as `endpoint` (a container reaches the host by another name).
    pub fn sam_env(&self, endpoint: &str) -> BTreeMap<String, BTreeMap<String, String>> {
        self.per_function
            .iter()
            .map(|(id, vars)| {
                let mut vars = vars.clone();
                vars.insert("AWS_ENDPOINT_URL".to_owned(), endpoint.to_owned());
                (id.clone(), vars)
            })
            .collect()
    }

    /// The clients every function is built with here: the same four for all, as one warm stack.
    pub fn clients(&self) -> shared::clients::Clients {
        shared::clients::Clients::with(
            self.dynamodb.clone(),
            self.s3.clone(),
            self.ses.clone(),
            self.sqs.clone(),
        )
    }

    /// A function's configuration lookup, secrets read.
    pub fn lookup(&self, logical_id: &str) -> impl Lookup + '_ {
        let env = self.resolved.get(logical_id);
        move |name: &str| env.and_then(|env| env.get(name))
    }
}

/// OrdersExpiryFunction's state, as its Lambda builds it (`orders::expiry::build`).
pub fn orders_expiry_state(env: &LocalEnv) -> Result<orders::AppState, BoxError> {
    Ok(orders::expiry::build(
        &env.lookup("OrdersExpiryFunction"),
        &env.clients(),
    )?)
}

/// Every function's router, merged as API Gateway routes them.
pub fn mount_all(env: &LocalEnv) -> Result<Router, BoxError> {
    FUNCTIONS
        .iter()
        .try_fold(Router::new(), |router, function| {
            Ok(router.merge((function.mount)(env)?))
        })
}

/// What a function needs beyond the template to reach the emulator with the real SDK: its address (the
/// template declares it empty and ignored for AWS), region and dummy keys, and no 10-second metadata probe.
fn aws_vars(sdk: &aws_config::SdkConfig) -> BTreeMap<String, String> {
    let region = sdk
        .region()
        .map(|r| r.to_string())
        .unwrap_or_else(|| testkit::emulator::REGION.to_owned());
    BTreeMap::from(
        [
            ("AWS_ENDPOINT_URL", sdk.endpoint_url().unwrap_or_default()),
            ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "false"),
            ("AWS_REGION", region.as_str()),
            ("AWS_ACCESS_KEY_ID", "local"),
            ("AWS_SECRET_ACCESS_KEY", "local"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
    )
}

/// The registry entry for `name`: a crate name (`catalog`) or a logical id (`CatalogFunction`).
pub fn find(name: &str) -> Option<&'static FunctionEntry> {
    FUNCTIONS.iter().find(|f| {
        f.logical_id == name
            || f.logical_id
                .strip_suffix("Function")
                .is_some_and(|stem| stem.eq_ignore_ascii_case(name))
    })
}

// ---------------------------------------------------------------------------------------------------------
// The mail functions' states, as their Lambdas build them (the queue workers in mail.rs use them too).

/// Locally a failed job comes back after this many seconds (the template's 6 minutes would look stuck).
pub const VISIBILITY_SECONDS: u32 = 5;

/// What only the local stack may change.
#[derive(Debug, Clone, Default)]
pub struct MailOptions {
    /// `LOCAL_SES_FAULT_PERCENT`: this share of SES calls fails transiently (the benchmark's switch).
    pub fault_percent: u8,
    /// `LOCAL_MAIL_RATE_PER_SECOND`: replaces the template's rate (the benchmark measures the code).
    pub rate_per_second: Option<String>,
}

impl MailOptions {
    pub fn from_env() -> Self {
        MailOptions {
            fault_percent: std::env::var("LOCAL_SES_FAULT_PERCENT")
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0),
            rate_per_second: std::env::var("LOCAL_MAIL_RATE_PER_SECOND")
                .ok()
                .filter(|v| !v.trim().is_empty()),
        }
    }
}

/// The newsletter crate's state as one of its Lambdas (or the sender, or a local worker) builds it.
pub fn newsletter_state(
    env: &LocalEnv,
    logical_id: &str,
) -> Result<newsletter::AppState, BoxError> {
    Ok(newsletter::AppState::build(
        &env.lookup(logical_id),
        &env.clients(),
    )?)
}

/// One sender as the Lambda builds it (`SenderFunction`'s environment), with the local options applied.
pub fn sender_state(
    env: &LocalEnv,
    options: &MailOptions,
) -> Result<sender::SenderState, BoxError> {
    let lookup = env.lookup("SenderFunction");
    let with_rate = |name: &str| match name {
        "MAIL_RATE_PER_SECOND" if options.rate_per_second.is_some() => {
            options.rate_per_second.clone()
        }
        // The local queue's visibility timeout, not the template's.
        "MAIL_QUEUE_VISIBILITY_SECONDS" => Some(VISIBILITY_SECONDS.to_string()),
        _ => lookup.get(name),
    };
    let state = sender::SenderState::build(&with_rate, &env.clients())?;
    Ok(state.with_injected_faults(options.fault_percent))
}
