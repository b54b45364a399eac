//! The local gateway links every function's router into one HTTP server, as API Gateway would route them,
//! next to the built storefront, the images and the local outbox. It starts the AWS emulator, creates what
//! template.yaml declares and seeds a demo shop. It is never deployed.

pub mod functions;
mod outbox;
pub mod seed;
mod site;

use axum::Router;
use shared::config::{optional, ProcessEnv};
use shared::emulator::{create_resources, BoxError, Emulator, LocalNames, Template};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub struct Settings {
    pub port: u16,
    pub dist: PathBuf,
    /// Local resource names start with this (`dev-CatalogTable`).
    pub prefix: String,
}

impl Settings {
    /// `PORT` (3000), `FRONTEND_DIST` (frontend/dist), `LOCAL_PREFIX` (dev).
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
            prefix: optional(&ProcessEnv, "LOCAL_PREFIX", "dev"),
        })
    }
}

/// Everything a running gateway holds.
pub struct Gateway {
    pub router: Router,
    pub env: functions::LocalEnv,
}

/// Creates the template's resources and secrets under `names`, mounts every function and seeds the demo
/// shop if empty. `site_url` is the gateway's own address: every absolute link the shop makes uses it.
pub async fn build(
    emulator: &Emulator,
    names: &LocalNames,
    dist: PathBuf,
    site_url: &str,
) -> Result<Gateway, BoxError> {
    let template = Template::load_default()?;
    let sdk = emulator.sdk_config().await;
    create_resources(&sdk, &template, names).await?;
    let overrides = BTreeMap::from([("SITE_URL".to_owned(), site_url.to_owned())]);
    let env = functions::LocalEnv::new(&template, names, &overrides, &sdk).await?;
    seed::verify_sender(&env).await?;
    let api = functions::mount_all(&env)?;
    seed::seed_if_empty(&env, &api).await?;
    let site = site::SiteState {
        s3: Arc::new(env.s3.clone()),
        images_bucket: env.images_bucket.clone(),
        dist,
        emulator: emulator.clone(),
        security_headers: template.security_headers()?,
    };
    Ok(Gateway {
        router: site::app(api, site),
        env,
    })
}

pub async fn serve(settings: Settings) -> Result<(), BoxError> {
    let emulator = Emulator::from_env_or_start()?;
    tracing::info!(endpoint = %emulator.endpoint, "AWS emulator ready");
    let names = LocalNames::new(&settings.prefix);
    let site_url = format!("http://127.0.0.1:{}", settings.port);
    let gateway = build(&emulator, &names, settings.dist.clone(), &site_url).await;
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
