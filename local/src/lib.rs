//! The local gateway links every function's router into one HTTP server, as API Gateway would route them,
//! next to the built storefront, the images and the local outbox. It starts the AWS emulator, creates what
//! template.yaml declares and seeds a demo shop. It is never deployed.

pub mod functions;
pub mod mail;
mod outbox;
pub mod seed;
mod site;

use axum::Router;
use shared::config::{optional, ProcessEnv};
use shared::emulator::{create_queues, create_resources, BoxError, Emulator, LocalNames, Template};
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
}

impl Settings {
    /// `PORT` (3000), `FRONTEND_DIST` (frontend/dist), `JWT_SECRET`, `LOCAL_PREFIX` (dev).
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

/// Creates the template's resources under `names`, mounts every function and seeds the demo shop if empty.
/// The mail workers take their local options from the environment (`mail::Options::from_env`).
pub async fn build(
    emulator: &Emulator,
    names: &LocalNames,
    dist: PathBuf,
    jwt_secret: &str,
) -> Result<Gateway, BoxError> {
    build_with_mail(
        emulator,
        names,
        dist,
        jwt_secret,
        &mail::Options::from_env(),
    )
    .await
}

/// `build`, with the mail workers' local options given (the mail benchmark sets its rate and faults).
pub async fn build_with_mail(
    emulator: &Emulator,
    names: &LocalNames,
    dist: PathBuf,
    jwt_secret: &str,
    mail_options: &mail::Options,
) -> Result<Gateway, BoxError> {
    let template = Template::load_default()?;
    let sdk = emulator.sdk_config().await;
    create_resources(&sdk, &template, names).await?;
    let queues = create_queues(&sdk, &template, names, Some(mail::VISIBILITY_SECONDS)).await?;
    let mut overrides = BTreeMap::from([("JWT_SECRET".to_owned(), jwt_secret.to_owned())]);
    overrides.extend(queues);
    let env = functions::LocalEnv::new(&template, names, &overrides, &sdk)?;
    seed::verify_sender(&env).await?;
    let api = functions::mount_all(&env)?;
    let mail = mail::start(&env, mail_options)?;
    seed::seed_if_empty(&env, &api).await?;
    let site = site::SiteState {
        s3: Arc::new(env.s3.clone()),
        images_bucket: env.images_bucket.clone(),
        dist,
        emulator: emulator.clone(),
    };
    Ok(Gateway {
        router: site::app(api, site),
        env,
        mail,
    })
}

pub async fn serve(settings: Settings) -> Result<(), BoxError> {
    let emulator = Emulator::from_env_or_start()?;
    tracing::info!(endpoint = %emulator.endpoint, "AWS emulator ready");
    let names = LocalNames::new(&settings.prefix);
    let gateway = build(
        &emulator,
        &names,
        settings.dist.clone(),
        &settings.jwt_secret,
    )
    .await;
    let gateway = match gateway {
        Ok(gateway) => gateway,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", settings.port)).await?;
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
    emulator.stop();
    served.map_err(Into::into)
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
