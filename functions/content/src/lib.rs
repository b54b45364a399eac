//! Site content: the site-info record (name, contact details, opening hours, social links), about and
//! who-we-are texts, policies, link entries, and the contact form that e-mails the shop.

mod entries;
mod feedback;
mod site;
mod sitemap;

use axum::extract::FromRef;
use entries::{About, Link, Policy, WhoWeAre};
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use site::{SiteInfo, SITE_ID};

pub struct Config {
    pub table: String,
    /// The catalogue, read for the sitemap's drink pages.
    pub catalog_table: String,
    /// The shop's address for absolute sitemap links (`SITE_URL`, required).
    pub site_url: String,
    pub auth: AuthConfig,
    pub mail_from: String,
    pub shop_name: String,
}

impl Config {
    /// `CONTENT_TABLE`, `CATALOG_TABLE`, `SITE_URL`, the auth settings, `MAIL_FROM` and `SHOP_NAME`.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "CONTENT_TABLE")?,
            catalog_table: required(env, "CATALOG_TABLE")?,
            site_url: shared::config::site_url(env)?,
            auth: AuthConfig::from_env(env)?,
            mail_from: required(env, "MAIL_FROM")?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<Auth>,
    pub mailer: Mailer,
    pub mail_from: Arc<str>,
    pub shop_name: Arc<str>,
    pub catalog_table: Arc<str>,
    pub site_url: Arc<str>,
    db: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        ses: aws_sdk_sesv2::Client,
    ) -> Self {
        AppState {
            store: Store::new(dynamodb.clone(), config.table.clone()),
            auth: config.auth.into_auth(dynamodb.clone()),
            mailer: Mailer::new(ses, config.mail_from.clone()),
            mail_from: config.mail_from.into(),
            shop_name: config.shop_name.into(),
            catalog_table: config.catalog_table.into(),
            site_url: config.site_url.into(),
            db: dynamodb,
            table: config.table.into(),
        }
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Public};
    ApiRoutes::new()
        .get(
            "/api/connect/uk/palestine/connect/",
            Public,
            site::show_site,
        )
        .post("/api/connect/create/", Admin, site::create_site)
        .put("/api/connect/update/{_id}", Admin, site::update_site)
        .get("/api/contact/", Public, site::show_contact)
        .post("/api/contact/create/", Admin, site::save_contact)
        .get(
            "/api/home_uk/palestine/about/show_result/",
            Public,
            site::show_about_page,
        )
        .get("/api/about/", Public, entries::list::<About>)
        .post("/api/about/create/", Admin, entries::create::<About>)
        .put("/api/about/update/{_id}", Admin, entries::update::<About>)
        .delete("/api/about/delete/{_id}", Admin, entries::delete::<About>)
        .get("/api/whoweare/", Public, entries::list::<WhoWeAre>)
        .post("/api/whoweare/create/", Admin, entries::create::<WhoWeAre>)
        .put(
            "/api/whoweare/update/{_id}",
            Admin,
            entries::update::<WhoWeAre>,
        )
        .delete(
            "/api/whoweare/delete/{_id}",
            Admin,
            entries::delete::<WhoWeAre>,
        )
        .get("/api/policy/", Public, entries::list::<Policy>)
        .post("/api/policy/create/", Admin, entries::create::<Policy>)
        .put("/api/policy/update/{_id}", Admin, entries::update::<Policy>)
        .delete("/api/policy/delete/{_id}", Admin, entries::delete::<Policy>)
        .get(
            "/api/_uk_home/palestine/show/details/website/{id}",
            Public,
            entries::show::<Policy>,
        )
        .get("/api/link/", Public, entries::list::<Link>)
        .post("/api/link/create/", Admin, entries::create::<Link>)
        .put("/api/link/update/{_id}", Admin, entries::update::<Link>)
        .delete("/api/link/delete/{_id}", Admin, entries::delete::<Link>)
        .post(
            "/api/_uk_home/palestine/feedback/send/only/",
            Public,
            feedback::send_feedback,
        )
        .get("/sitemap.xml", Public, sitemap::show_sitemap)
        .get("/robots.txt", Public, sitemap::show_robots)
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api().into_router().with_state(state)
}
