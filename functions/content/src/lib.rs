//! Site content: the site-info record (name, contact details, opening hours, social links), about and
//! who-we-are texts, policies, link entries, and the contact form that e-mails the shop.

mod entries;
pub mod feedback;
pub mod personal;
mod policies;
mod rules;
mod site;
mod sitemap;
pub mod store;
pub mod versions;

use axum::extract::FromRef;
use entries::{About, EntryBody, Link, Policy, WhoWeAre};
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::openapi::{schema, BodyDoc, Doc};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::store::Store;
use std::sync::Arc;

pub use policies::STANDARD_TEXTS_REVISED;
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
    /// The delivery terms the policies state (`DELIVERY_FEE`, `FREE_DELIVERY_FROM`, as checkout reads them).
    pub delivery: shared::delivery::Delivery,
}

impl Config {
    /// `CONTENT_TABLE`, `CATALOG_TABLE`, `SITE_URL`, the auth settings, `MAIL_FROM`, `SHOP_NAME`,
    /// `DELIVERY_FEE` and `FREE_DELIVERY_FROM`.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            table: required(env, "CONTENT_TABLE")?,
            catalog_table: required(env, "CATALOG_TABLE")?,
            site_url: shared::config::site_url(env)?,
            auth: AuthConfig::from_env(env)?,
            mail_from: required(env, "MAIL_FROM")?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
            delivery: shared::delivery::Delivery::from_env(env)?,
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
    pub delivery: shared::delivery::Delivery,
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
            delivery: config.delivery,
            db: dynamodb,
            table: config.table.into(),
        }
    }
}

impl AppState {
    /// The trader's facts from the site info (name, address, contacts, VAT rate, delivery estimate).
    pub async fn trader(&self) -> Result<shared::trader::Trader, shared::ApiError> {
        store::trader(&self.db, &self.table, &self.shop_name).await
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

/// A text reply that is not JSON (the sitemap, robots.txt).
fn text_reply(media: &'static str, description: &'static str) -> impl FnOnce(&mut Doc) {
    move |doc| {
        doc.reply(
            200,
            description,
            Some(BodyDoc {
                media,
                schema: schema::<String>,
            }),
        )
    }
}

/// Names a generic handler's operation after what it serves (`content::about::list`), where its type name
/// would be `content::entries::list<content::entries::About>`.
fn named(handler: &'static str) -> impl FnOnce(&mut Doc) {
    move |doc| doc.handler = handler
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Public};
    ApiRoutes::new()
        .get(
            "/api/connect/uk/palestine/connect/",
            Public,
            site::show_site,
        )
        .summary("The site info (every field empty, `_id` null, until it is created)")
        .post("/api/connect/create/", Admin, site::create_site)
        .summary("Creates the site info")
        .describe(Doc::json_body::<site::NewSiteInput>)
        .fails(&[409])
        .put("/api/connect/update/{_id}", Admin, site::update_site)
        .summary("Updates the site info (`_id` is `main`)")
        .fails(&[409])
        .get("/api/contact/", Public, site::show_contact)
        .summary("The shop's contact details")
        .post("/api/contact/create/", Admin, site::save_contact)
        .summary("Saves the contact details into the site info, creating it if need be")
        .fails(&[409])
        .get(
            "/api/home_uk/palestine/about/show_result/",
            Public,
            site::show_about_page,
        )
        .summary("Everything the About us page shows")
        .get("/api/about/", Public, entries::list::<About>)
        .describe(named("content::about::list"))
        .summary("The about texts")
        .post("/api/about/create/", Admin, entries::create::<About>)
        .describe(named("content::about::create"))
        .describe(Doc::json_body::<EntryBody<About, true>>)
        .summary("Adds an about text")
        .fails(&[409])
        .put("/api/about/update/{_id}", Admin, entries::update::<About>)
        .describe(named("content::about::update"))
        .describe(Doc::json_body::<EntryBody<About, false>>)
        .summary("Updates an about text")
        .fails(&[409])
        .delete("/api/about/delete/{_id}", Admin, entries::delete::<About>)
        .describe(named("content::about::delete"))
        .summary("Deletes an about text")
        .get("/api/whoweare/", Public, entries::list::<WhoWeAre>)
        .describe(named("content::whoweare::list"))
        .summary("The who-we-are texts")
        .post("/api/whoweare/create/", Admin, entries::create::<WhoWeAre>)
        .describe(named("content::whoweare::create"))
        .describe(Doc::json_body::<EntryBody<WhoWeAre, true>>)
        .summary("Adds a who-we-are text")
        .fails(&[409])
        .put(
            "/api/whoweare/update/{_id}",
            Admin,
            entries::update::<WhoWeAre>,
        )
        .describe(named("content::whoweare::update"))
        .describe(Doc::json_body::<EntryBody<WhoWeAre, false>>)
        .summary("Updates a who-we-are text")
        .fails(&[409])
        .delete(
            "/api/whoweare/delete/{_id}",
            Admin,
            entries::delete::<WhoWeAre>,
        )
        .describe(named("content::whoweare::delete"))
        .summary("Deletes a who-we-are text")
        .get("/api/policy/", Public, entries::list::<Policy>)
        .describe(named("content::policy::list"))
        .summary("The policies")
        .post("/api/policy/create/", Admin, entries::create::<Policy>)
        .describe(named("content::policy::create"))
        .describe(Doc::json_body::<EntryBody<Policy, true>>)
        .summary("Adds a policy")
        .fails(&[409])
        .put("/api/policy/update/{_id}", Admin, entries::update::<Policy>)
        .describe(named("content::policy::update"))
        .describe(Doc::json_body::<EntryBody<Policy, false>>)
        .summary("Updates a policy")
        .fails(&[409])
        .delete("/api/policy/delete/{_id}", Admin, entries::delete::<Policy>)
        .describe(named("content::policy::delete"))
        .summary("Deletes a policy")
        .get(
            "/api/_uk_home/palestine/show/details/website/{id}",
            Public,
            entries::show::<Policy>,
        )
        .describe(named("content::policy::show"))
        .summary("One policy")
        .get("/api/policy/versions/{id}", Public, versions::list_versions)
        .summary("A policy's kept versions, newest first: every text it has been served with")
        .get(
            "/api/policy/versions/{id}/{version}",
            Public,
            versions::show_version,
        )
        .summary("The words of one kept version of a policy (an order's terms link here)")
        .get("/api/link/", Public, entries::list::<Link>)
        .describe(named("content::link::list"))
        .summary("The link entries")
        .post("/api/link/create/", Admin, entries::create::<Link>)
        .describe(named("content::link::create"))
        .describe(Doc::json_body::<EntryBody<Link, true>>)
        .summary("Adds a link entry")
        .fails(&[409])
        .put("/api/link/update/{_id}", Admin, entries::update::<Link>)
        .describe(named("content::link::update"))
        .describe(Doc::json_body::<EntryBody<Link, false>>)
        .summary("Updates a link entry")
        .fails(&[409])
        .delete("/api/link/delete/{_id}", Admin, entries::delete::<Link>)
        .describe(named("content::link::delete"))
        .summary("Deletes a link entry")
        .post(
            "/api/_uk_home/palestine/feedback/send/only/",
            Public,
            feedback::send_feedback,
        )
        .summary("Sends a message to the shop through the contact form (a few an hour per address)")
        .fails(&[429])
        .limit_per_address(feedback::PER_ADDRESS)
        .get("/sitemap.xml", Public, sitemap::show_sitemap)
        .summary("The sitemap: the shop's pages, every drink and every policy")
        .describe(text_reply("application/xml", "The sitemap"))
        .get("/robots.txt", Public, sitemap::show_robots)
        .summary("robots.txt, naming the sitemap")
        .describe(text_reply("text/plain", "robots.txt"))
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::Ses,
];

/// The function as its Lambda (`main.rs`) and the local gateway both build it: its configuration read
/// from `env`, its state from the clients it uses, and its router.
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, shared::config::ConfigError> {
    let config = Config::from_env(env)?;
    Ok(router(AppState::new(
        config,
        clients.dynamodb(),
        clients.ses(),
    )))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    // The contact form's per-address windows live in the content table, beside its per-sender ones.
    let rates = shared::rate::RateStore {
        client: state.db.clone(),
        table: state.table.clone(),
    };
    api()
        .into_router()
        .layer(axum::Extension(rates))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    fn document() -> Value {
        shared::openapi::function_document("content", super::routes())
    }

    #[test]
    fn creates_insist_on_what_the_handlers_insist_on() {
        let document = document();
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["NewSiteInput"]["required"], json!(["name"]));
        assert_eq!(
            schemas["NewSiteInput"]["properties"]["name"]["type"],
            "string"
        );
        assert_eq!(schemas["NewLinkInput"]["required"], json!(["name", "link"]));
        assert_eq!(schemas["NewAboutInput"]["required"], json!(["name"]));
        assert!(schemas["LinkInput"].get("required").is_none());
        assert_eq!(
            schemas["PolicyInput"]["properties"]["des"]["maxLength"],
            50_000
        );
        assert_eq!(
            schemas["AboutInput"]["properties"]["des"]["maxLength"],
            5_000
        );
        let create = &document["paths"]["/api/link/create/"]["post"];
        assert_eq!(create["operationId"], "link_create");
        assert_eq!(
            create["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/NewLinkInput"
        );
    }

    #[test]
    fn the_contact_form_is_rate_limited_and_the_sitemap_is_xml() {
        let document = document();
        let feedback = &document["paths"]["/api/_uk_home/palestine/feedback/send/only/"]["post"];
        assert!(feedback["responses"]["429"]["headers"]["Retry-After"].is_object());
        assert!(feedback["responses"]["201"].is_object());
        let sitemap = &document["paths"]["/sitemap.xml"]["get"]["responses"]["200"];
        assert_eq!(
            sitemap["content"]["application/xml"]["schema"]["type"],
            "string"
        );
    }
}
