//! The local gateway links every function's router into one HTTP server, as API Gateway would route them,
//! next to the built storefront, the images and the local outbox. It starts the AWS emulator, creates what
//! template.yaml declares and seeds a demo shop. It is never deployed.

pub mod functions;
mod outbox;
pub mod schedule;
pub mod seed;
mod site;
pub mod stripe;

use axum::Router;
use shared::config::{optional, ProcessEnv};
use shared::emulator::{create_resources, BoxError, Emulator, LocalNames, LocalStripe, Template};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Signs local tokens when `JWT_SECRET` is not set. Local only: never a deployed secret.
const LOCAL_JWT_SECRET: &str = "local-gateway-secret-not-for-any-deployment";

pub struct Settings {
    pub port: u16,
    pub dist: PathBuf,
    pub jwt_secret: String,
    /// Local resource names start with this (`dev-CatalogTable`).
    pub prefix: String,
    /// A localstripe someone else runs; else the gateway starts one.
    pub stripe_api_base: Option<String>,
    /// Where a localstripe the gateway starts keeps its store (`make run`); in memory when unset.
    pub stripe_state: Option<PathBuf>,
}

impl Settings {
    /// `PORT` (3000), `FRONTEND_DIST` (frontend/dist), `JWT_SECRET`, `LOCAL_PREFIX` (dev),
    /// `STRIPE_API_BASE` and `LOCAL_STRIPE_STATE` (both unset).
    pub fn from_env() -> Result<Self, BoxError> {
        let port = optional(&ProcessEnv, "PORT", "3000")
            .parse()
            .map_err(|_| "PORT must be a port number")?;
        let dist = std::env::var_os("FRONTEND_DIST")
            .map(PathBuf::from)
            .unwrap_or_else(|| shared::emulator::repo_root().join("frontend/dist"));
        Ok(Settings {
            port,
            dist,
            jwt_secret: optional(&ProcessEnv, "JWT_SECRET", LOCAL_JWT_SECRET),
            prefix: optional(&ProcessEnv, "LOCAL_PREFIX", "dev"),
            stripe_api_base: std::env::var("STRIPE_API_BASE").ok(),
            stripe_state: std::env::var_os("LOCAL_STRIPE_STATE")
                .filter(|path| !path.is_empty())
                .map(PathBuf::from),
        })
    }
}

/// Everything a running gateway holds.
pub struct Gateway {
    pub router: Router,
    pub env: functions::LocalEnv,
}

/// Creates the template's resources under `names`, mounts every function (its Stripe calls going to
/// `stripe`) and seeds the demo shop if empty.
pub async fn build(
    emulator: &Emulator,
    stripe: &LocalStripe,
    names: &LocalNames,
    dist: PathBuf,
    jwt_secret: &str,
) -> Result<Gateway, BoxError> {
    let template = Template::load_default()?;
    let sdk = emulator.sdk_config().await;
    create_resources(&sdk, &template, names).await?;
    let mut overrides = BTreeMap::from([("JWT_SECRET".to_owned(), jwt_secret.to_owned())]);
    overrides.extend(stripe::function_overrides(stripe));
    let env = functions::LocalEnv::new(&template, names, &overrides, &sdk)?;
    seed::verify_sender(&env).await?;
    let api = functions::mount_all(&env)?;
    seed::seed_if_empty(&env, &api).await?;
    let site = site::SiteState {
        s3: Arc::new(env.s3.clone()),
        images_bucket: env.images_bucket.clone(),
        dist,
        emulator: emulator.clone(),
    };
    Ok(Gateway {
        router: site::app(api.merge(stripe::routes(stripe)), site),
        env,
    })
}

pub async fn serve(settings: Settings) -> Result<(), BoxError> {
    let emulator = Emulator::from_env_or_start()?;
    tracing::info!(endpoint = %emulator.endpoint, "AWS emulator ready");
    let stripe = match stripe::start_or_join(
        settings.stripe_api_base.clone(),
        settings.stripe_state.as_deref(),
    ) {
        Ok(stripe) => stripe,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    tracing::info!(api_base = %stripe.api_base, "localstripe ready");
    let started = start(&settings, &emulator, &stripe).await;
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
    let url = format!("http://127.0.0.1:{}", settings.port);
    println!("\n  The shop is at {url}/");
    println!("  Outbox (login codes, order e-mails): {url}/_local/outbox.html");
    println!(
        "  Admin: {} (ask for a code on the login page)\n",
        seed::ADMIN_EMAIL
    );
    let served = axum::serve(listener, gateway.router)
        .with_graceful_shutdown(shutdown_signal())
        .await;
    expiry.abort();
    stripe.stop();
    emulator.stop();
    served.map_err(Into::into)
}

/// Builds the gateway, takes its port and points localstripe's webhooks at it.
async fn start(
    settings: &Settings,
    emulator: &Emulator,
    stripe: &LocalStripe,
) -> Result<(Gateway, tokio::net::TcpListener), BoxError> {
    let names = LocalNames::new(&settings.prefix);
    let gateway = build(
        emulator,
        stripe,
        &names,
        settings.dist.clone(),
        &settings.jwt_secret,
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
