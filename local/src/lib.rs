//! The local gateway links every function's router into one HTTP server, as API Gateway would route them,
//! next to the built storefront, the images and the local outbox. It starts the AWS emulator, creates what
//! template.yaml declares and seeds a demo shop. It is never deployed.

pub mod backfill;
pub mod bench;
pub mod cost;
pub mod functions;
pub mod invoke;
pub mod keep;
pub mod known_paths;
pub mod mail;
pub mod openapi;
mod outbox;
pub mod prerender;
pub mod schedule;
pub mod seed;
mod site;
pub use site::Storefront;
pub mod stripe;

use axum::Router;
use shared::config::{optional, ProcessEnv};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use testkit::emulator::{
    create_queues, create_resources, BoxError, Emulator, LocalNames, LocalStripe, Template,
};

pub struct Settings {
    pub port: u16,
    pub dist: PathBuf,
    /// Where this shop's prerendered pages go (`LOCAL_PAGES`); `None`: `pages/` in the state folder, or a
    /// temporary folder for a shop kept in memory.
    pub pages: Option<PathBuf>,
    /// Local resource names start with this (`dev-CatalogTable`).
    pub prefix: String,
    /// The folder where the local AWS state (and localstripe's) is kept across restarts; `None` keeps it in
    /// memory only.
    pub state: Option<PathBuf>,
    /// A localstripe someone else runs (`STRIPE_API_BASE`); else the gateway starts one, keeping its store
    /// in the state folder.
    pub stripe_api_base: Option<String>,
    /// Whether to prerender the shop's pages once it answers, and again for each new build (prerender.rs).
    pub prerender: bool,
}

/// Where `make run` keeps the local shop's data; `make reset` deletes it. Ignored by git (`/.run/`).
pub fn default_state_dir() -> PathBuf {
    testkit::emulator::repo_root().join(".run/state")
}

impl Settings {
    /// `PORT` (3000), `FRONTEND_DIST` (frontend/dist), `LOCAL_PREFIX` (dev), `LOCAL_STATE` (the state
    /// folder, `.run/state` by default; `memory` keeps nothing, as the browser tests want) and
    /// `STRIPE_API_BASE` (unset); `LOCAL_PAGES` (the prerendered pages' folder, see `pages`);
    /// `LOCAL_PRERENDER=0` leaves the pages unprerendered (scripts/with-gateway.sh prerenders them itself,
    /// before its command runs).
    pub fn from_env() -> Result<Self, BoxError> {
        let port = optional(&ProcessEnv, "PORT", "3000")
            .parse()
            .map_err(|_| "PORT must be a port number")?;
        let dist = std::env::var_os("FRONTEND_DIST")
            .map(PathBuf::from)
            .unwrap_or_else(|| testkit::emulator::repo_root().join("frontend/dist"));
        Ok(Settings {
            port,
            dist,
            pages: std::env::var_os("LOCAL_PAGES")
                .filter(|pages| !pages.is_empty())
                .map(PathBuf::from),
            prefix: optional(&ProcessEnv, "LOCAL_PREFIX", "dev"),
            state: match std::env::var("LOCAL_STATE") {
                Ok(value) if value == "memory" => None,
                Ok(value) if !value.is_empty() => Some(PathBuf::from(value)),
                _ => Some(default_state_dir()),
            },
            stripe_api_base: std::env::var("STRIPE_API_BASE")
                .ok()
                .filter(|base| !base.is_empty()),
            prerender: std::env::var("LOCAL_PRERENDER").map_or(true, |value| value != "0"),
        })
    }
}

/// Everything a running gateway holds.
pub struct Gateway {
    pub router: Router,
    pub env: functions::LocalEnv,
    /// The queue pollers and the outbox sweep (Lambda's event sources and schedule); stop on drop.
    pub mail: mail::Workers,
}

/// Creates the template's resources, queues and secrets under `names`, mounts every function, starts the mail
/// workers (their local options from `mail_options`) and seeds the demo shop if empty. `site_url` is the
/// gateway's own address: every absolute link the shop makes uses it.
pub async fn build(
    emulator: &Emulator,
    stripe: &LocalStripe,
    names: &LocalNames,
    storefront: impl Into<site::Storefront>,
    site_url: &str,
) -> Result<Gateway, BoxError> {
    build_with_mail(
        emulator,
        stripe,
        names,
        storefront,
        site_url,
        &mail::Options::from_env(),
    )
    .await
}

/// `build`, with the mail workers' local options given (the mail benchmark sets its rate and faults).
pub async fn build_with_mail(
    emulator: &Emulator,
    stripe: &LocalStripe,
    names: &LocalNames,
    storefront: impl Into<site::Storefront>,
    site_url: &str,
    mail_options: &mail::Options,
) -> Result<Gateway, BoxError> {
    build_hooked(
        emulator,
        stripe,
        names,
        storefront,
        site_url,
        mail_options,
        &|_| {},
    )
    .await
}

/// `build_with_mail`, with `hook` given the functions' environment before anything is mounted on it: the
/// cost bench wraps the clients in its meter there (`make run` has no hook).
pub async fn build_hooked(
    emulator: &Emulator,
    stripe: &LocalStripe,
    names: &LocalNames,
    storefront: impl Into<site::Storefront>,
    site_url: &str,
    mail_options: &mail::Options,
    hook: &(dyn Fn(&mut functions::LocalEnv) + Sync),
) -> Result<Gateway, BoxError> {
    let template = Template::load_default()?;
    let sdk = emulator.sdk_config().await;
    // The demo shop goes only into an empty store: what a kept store holds (even no drinks) is the owner's.
    let empty = !any_table_exists(&sdk, &template, names).await;
    create_resources(&sdk, &template, names).await?;
    let queues = create_queues(&sdk, &template, names, Some(mail::VISIBILITY_SECONDS)).await?;
    let mut overrides = BTreeMap::from([("SITE_URL".to_owned(), site_url.to_owned())]);
    overrides.extend(stripe::function_overrides(stripe));
    overrides.extend(queues);
    let mut env = functions::LocalEnv::new(&template, names, &overrides, &sdk).await?;
    hook(&mut env);
    seed::verify_sender(&env).await?;
    let api = functions::mount_all(&env)?;
    let mail = mail::start(&env, mail_options)?;
    seed::seed_admin(&env).await?;
    if empty {
        seed::seed_demo_shop(&env, &api).await?;
    } else {
        // A store kept from before the data rights' index: its personal items get their tags, as
        // `make backfill-person` gives a deployed stage's.
        let tagged = backfill::run(
            &env.dynamodb,
            &backfill::Tables {
                reviews: env.names.table("ReviewsTable"),
                codes: env.names.table("CodesTable"),
                content: env.names.table("ContentTable"),
                mail: env.names.table("MailTable"),
            },
        )
        .await
        .map_err(|error| format!("tagging the kept store's personal items: {error:?}"))?;
        if tagged.total() > 0 {
            tracing::info!(?tagged, "kept items tagged for the data rights' index");
        }
    }
    let site = site::SiteState {
        s3: Arc::new(env.s3.clone()),
        images_bucket: env.images_bucket.clone(),
        storefront: storefront.into(),
        emulator: emulator.clone(),
        security_headers: template.security_headers()?,
        catalog: (env.dynamodb.clone(), env.names.table("CatalogTable")),
    };
    let host_env = Arc::new(env.sam_env(&emulator.endpoint));
    let api = api.merge(stripe::routes(stripe)).merge(openapi::routes());
    let router = site::app(api, site).merge(Router::new().route(
        "/_local/env",
        axum::routing::get(move || async move { shared::Json(host_env.as_ref().clone()) }),
    ));
    Ok(Gateway { router, env, mail })
}

async fn any_table_exists(
    sdk: &aws_config::SdkConfig,
    template: &Template,
    names: &LocalNames,
) -> bool {
    let dynamodb = shared::aws::dynamodb(sdk);
    for (logical_id, _) in template.tables() {
        let table = names.table(&logical_id);
        if dynamodb
            .describe_table()
            .table_name(table)
            .send()
            .await
            .is_ok()
        {
            return true;
        }
    }
    false
}

/// Where a shop writes its `sam local invoke --env-vars` file: `make run`'s shop (the default state folder)
/// `local/env.json`, another shop `env.json` in its own state folder, a shop kept in memory none. No shop
/// overwrites another's.
pub fn sam_env_path(state: Option<&std::path::Path>) -> Option<PathBuf> {
    let state = state?;
    Some(if state == default_state_dir() {
        testkit::emulator::repo_root().join("local/env.json")
    } else {
        state.join("env.json")
    })
}

/// Every function's environment for `sam local invoke --env-vars`, with the emulator reached from a
/// container (`host.docker.internal`), written to `path` in one rename. Rewritten on each start: the
/// emulator's port changes.
fn write_sam_env(
    env: &functions::LocalEnv,
    emulator: &Emulator,
    path: &std::path::Path,
) -> Result<(), BoxError> {
    let endpoint = emulator
        .endpoint
        .replace("127.0.0.1", "host.docker.internal")
        .replace("localhost", "host.docker.internal");
    let text = serde_json::to_string_pretty(&env.sam_env(&endpoint))?;
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text + "\n")?;
    std::fs::rename(&partial, path)?;
    Ok(())
}

pub async fn serve(settings: Settings) -> Result<(), BoxError> {
    // One gateway per state folder: taken before anything starts, held until this function returns.
    let _lock = settings.state.as_deref().map(keep::lock).transpose()?;
    let logs = settings.state.as_deref().map(keep::logs_dir);
    // The shop's own pages: a temporary folder (deleted when it stops) unless it keeps its state.
    let pages = prerender::Pages::for_shop(settings.pages.clone(), settings.state.as_deref())?;
    let storefront = site::Storefront {
        dist: settings.dist.clone(),
        pages: pages.path().to_path_buf(),
    };
    let emulator_log = logs.as_ref().map(|logs| logs.join("emulator.log"));
    let emulator = match (&settings.state, std::env::var("AWS_ENDPOINT_URL")) {
        (_, Ok(endpoint)) if !endpoint.is_empty() => Emulator::from_env_or_start()?,
        (Some(state), _) => {
            Emulator::start_logged(Some(&state.join("moto.pickle")), emulator_log.as_deref())?
        }
        (None, _) => Emulator::start()?,
    };
    tracing::info!(endpoint = %emulator.endpoint, state = ?settings.state, "AWS emulator ready");
    let stripe_state = settings
        .state
        .as_ref()
        .map(|state| state.join("localstripe.pickle"));
    let stripe_log = logs.as_ref().map(|logs| logs.join("localstripe.log"));
    let stripe = match stripe::start_or_join(
        settings.stripe_api_base.clone(),
        stripe_state.as_deref(),
        stripe_log.as_deref(),
    ) {
        Ok(stripe) => stripe,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    tracing::info!(api_base = %stripe.api_base, "localstripe ready");
    let started = start(&settings, storefront.clone(), &emulator, &stripe).await;
    let (gateway, listener) = match started {
        Ok(started) => started,
        Err(error) => {
            stripe.stop();
            emulator.stop();
            return Err(error);
        }
    };
    let expiry = match schedule::spawn_expiry(&gateway.env, schedule::EXPIRY_EVERY) {
        Ok(expiry) => expiry,
        Err(error) => {
            stripe.stop();
            emulator.stop();
            return Err(error);
        }
    };
    if let Some(path) = sam_env_path(settings.state.as_deref()) {
        match write_sam_env(&gateway.env, &emulator, &path) {
            Ok(()) => {
                tracing::info!(path = %path.display(), "sam local invoke --env-vars file written")
            }
            Err(error) => tracing::warn!(%error, path = %path.display(), "env file not written"),
        }
    }
    let watcher = emulator_log
        .filter(|_| emulator.pid.is_some())
        .map(|log| keep::watch(emulator.clone(), log, std::time::Duration::from_secs(2)));
    let url = format!("http://127.0.0.1:{}", settings.port);
    println!("\n  The shop is at {url}/");
    println!("  Outbox (login codes, order e-mails): {url}/_local/outbox.html");
    println!(
        "  Admin: {} (ask for a code on the login page)",
        seed::ADMIN_EMAIL
    );
    match (&settings.state, &logs) {
        (Some(state), Some(logs)) => println!(
            "  Data kept in {} (`make reset` deletes it); the emulator's and localstripe's logs in {}\n",
            state.display(),
            logs.display()
        ),
        _ => println!("  Data kept in memory only\n"),
    }
    // The demo shop is seeded and the port is taken: the script's requests are answered as soon as the
    // server below starts.
    prerender::spawn(settings.prerender, url.clone(), storefront);
    let served = axum::serve(listener, gateway.router)
        .with_graceful_shutdown(shutdown_signal())
        .await;
    expiry.abort();
    if let Some(watcher) = watcher {
        watcher.abort();
    }
    stripe.stop();
    // The emulator writes what changed since its last snapshot before it exits.
    emulator.stop_and_wait(std::time::Duration::from_secs(60));
    served.map_err(Into::into)
}

/// Builds the gateway, takes its port and points localstripe's webhooks at it.
async fn start(
    settings: &Settings,
    storefront: site::Storefront,
    emulator: &Emulator,
    stripe: &LocalStripe,
) -> Result<(Gateway, tokio::net::TcpListener), BoxError> {
    let names = LocalNames::new(&settings.prefix);
    let gateway = build(
        emulator,
        stripe,
        &names,
        storefront,
        &format!("http://127.0.0.1:{}", settings.port),
    )
    .await?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", settings.port)).await?;
    stripe::register_webhook(stripe, settings.port).await?;
    Ok((gateway, listener))
}

async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM handler installs");
    tokio::select! {
        _ = interrupt => {},
        _ = terminate.recv() => {},
    }
    tracing::info!("stopping");
}
