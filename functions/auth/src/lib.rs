//! Passwordless login: a code by e-mail, exchanged for a token. Also the shopper's profile and the
//! admins' user list. The users table belongs to this function; others only read it (shared::auth::Users).

mod codes;
pub mod passkeys;
pub mod rights;
mod schema;
#[cfg(test)]
mod schema_tests;
mod users;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::mail::Mailer;
use shared::rate::RateStore;
use shared::routes::{Access, ApiRoutes, RouteSpec};
use shared::validation::Email;
use std::sync::Arc;

pub use codes::{CodeKey, MAX_CODES_PER_ADDRESS_CLIENT_HOUR, MAX_CODES_PER_HOUR, MAX_TRIES};
pub use users::ensure_admin;

pub struct Config {
    pub auth: AuthConfig,
    pub mail_from: String,
    pub shop_name: String,
    /// Addresses that may become admins on their first login while the shop has no admin (`ADMIN_EMAILS`,
    /// comma-separated): they seed the first admin, they never promote anyone once an admin exists.
    pub admin_emails: Vec<String>,
    code_key: Vec<u8>,
    /// The shop's address (`SITE_URL`): the passkeys' relying party.
    pub site_url: String,
    /// The day's mail budget every code mail draws on (shared::mail_budget).
    pub mail_budget: shared::mail_budget::Budget,
    /// The tables a customer's data rights reach (`ORDERS_TABLE`, `REVIEWS_TABLE`, `SUBSCRIPTION_TABLE`,
    /// `CODES_TABLE`, `CONTENT_TABLE`, `MAIL_TABLE`, `CATALOG_TABLE`).
    pub data_tables: rights::DataTables,
}

impl Config {
    /// `USERS_TABLE`, the token settings with `TOKEN_SIGNING_KEY` (a secret: only this function signs),
    /// `LOGIN_CODE_KEY` (a secret), `MAIL_FROM`, `ADMIN_EMAILS`, `SHOP_NAME` and the mail budget's
    /// `MAIL_DAILY_BUDGET`, `MAIL_DAILY_BUDGET_PER_ADDRESS` and `METRICS_NAMESPACE`.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let admin_emails = optional(env, "ADMIN_EMAILS", "")
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| {
                Email::parse_normalised(e)
                    .map(Email::into_inner)
                    .map_err(|_| ConfigError::Invalid {
                        name: "ADMIN_EMAILS",
                        reason: format!("{e:?} is not an e-mail address"),
                    })
            })
            .collect::<Result<_, _>>()?;
        let auth = AuthConfig::from_env(env)?;
        if !auth.keys.can_sign() {
            return Err(ConfigError::Missing("TOKEN_SIGNING_KEY"));
        }
        let site_url = shared::config::site_url(env)?;
        let shop_name = optional(env, "SHOP_NAME", "Palestine Drinks");
        passkeys::RelyingParty::new(&site_url, &shop_name).map_err(|reason| {
            ConfigError::Invalid {
                name: "SITE_URL",
                reason,
            }
        })?;
        Ok(Config {
            auth,
            mail_from: required(env, "MAIL_FROM")?,
            shop_name,
            admin_emails,
            code_key: shared::secrets::symmetric_key(env, "LOGIN_CODE_KEY")?,
            mail_budget: shared::mail_budget::Budget::from_env(env)?,
            site_url,
            data_tables: rights::DataTables {
                orders: required(env, "ORDERS_TABLE")?,
                reviews: required(env, "REVIEWS_TABLE")?,
                subscription: required(env, "SUBSCRIPTION_TABLE")?,
                codes: required(env, "CODES_TABLE")?,
                content: required(env, "CONTENT_TABLE")?,
                mail: required(env, "MAIL_TABLE")?,
                catalog: required(env, "CATALOG_TABLE")?,
            },
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub auth: Arc<Auth>,
    pub mailer: Mailer,
    pub codes: Arc<CodeKey>,
    pub shop_name: Arc<str>,
    pub admin_emails: Arc<[String]>,
    pub data_tables: Arc<rights::DataTables>,
    pub mail_budget: Arc<shared::mail_budget::Budget>,
    pub passkeys: Arc<passkeys::RelyingParty>,
    /// The per-address windows of passkey sign-ins, kept in the users table.
    rates: RateStore,
}

impl AppState {
    /// Panics when `SITE_URL` cannot be a passkey relying party, which `Config::from_env` checks first.
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        ses: aws_sdk_sesv2::Client,
    ) -> Self {
        AppState {
            passkeys: Arc::new(
                passkeys::RelyingParty::new(&config.site_url, &config.shop_name)
                    .expect("SITE_URL was checked by Config::from_env"),
            ),
            rates: RateStore {
                client: dynamodb.clone(),
                table: config.auth.users_table.as_str().into(),
            },
            codes: Arc::new(CodeKey::new(&config.code_key)),
            auth: config.auth.into_auth(dynamodb),
            mailer: Mailer::new(ses, config.mail_from),
            shop_name: config.shop_name.into(),
            admin_emails: config.admin_emails.into(),
            data_tables: Arc::new(config.data_tables),
            mail_budget: Arc::new(config.mail_budget),
        }
    }

    /// Sends a mail the person is waiting for (a code), once the day's mail budget has a unit for its
    /// address and in all; 429 when it has not, the same for every address.
    pub(crate) async fn send_within_budget(
        &self,
        mail: shared::mail::Mail,
    ) -> Result<(), shared::ApiError> {
        let now = shared::time::now_unix();
        if let Err(refused) = self
            .mail_budget
            .take(self.db(), &self.data_tables.mail, &mail.to, now)
            .await?
        {
            return Err(refused.into_error(now));
        }
        self.mailer.send(mail).await
    }

    fn db(&self) -> &aws_sdk_dynamodb::Client {
        self.auth.users.client()
    }

    fn table(&self) -> &str {
        self.auth.users.table()
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Customer, Public};
    ApiRoutes::new()
        .post("/api/user/login/", Public, codes::request_code)
        .summary("E-mails a login code to the address (the same answer whether or not it has an account)")
        .post("/api/user/verify/", Public, codes::verify_code)
        .summary("Exchanges an e-mailed code for a bearer token")
        // 400 a wrong, used or expired code; 403 a closed account; 409 a sign-up race; 429 too many wrong
        // codes today.
        .fails(&[400, 403, 409, 429])
        .post(
            "/api/user/passkey/login/start/",
            Public,
            passkeys::start_sign_in,
        )
        .summary("The options to sign in with one of the address's passkeys (400 when it has none)")
        .limit_per_address(passkeys::SIGN_IN_LIMIT)
        .post(
            "/api/user/passkey/login/finish/",
            Public,
            passkeys::finish_sign_in,
        )
        .summary("Exchanges a passkey's signature for a bearer token, as a code would")
        // 400 a refused or expired ceremony; 403 a closed account.
        .fails(&[400, 403])
        .post(
            "/api/user/passkey/register/start/",
            Customer,
            passkeys::start_registration,
        )
        .summary("The options to create a passkey for the signed-in user")
        .post(
            "/api/user/passkey/register/finish/",
            Customer,
            passkeys::finish_registration,
        )
        .summary("Keeps the passkey the browser created")
        // 400 a refused or expired ceremony; 409 registered already.
        .fails(&[400, 409])
        .get("/api/user/passkeys/", Customer, passkeys::list_passkeys)
        .summary("The signed-in user's passkeys")
        .delete("/api/user/passkeys/{id}", Customer, passkeys::delete_passkey)
        .summary("Removes one of the signed-in user's passkeys")
        .get("/api/user/profile/", Customer, users::show_profile)
        .summary("The signed-in user's profile")
        .put("/api/user/profile/", Customer, users::update_profile)
        .summary("Changes the signed-in user's profile")
        .post("/api/user/logout/", Customer, users::log_out)
        .summary("Ends every token of the signed-in user")
        .get("/api/user/lists", Admin, users::list_users)
        .summary("The users, newest first, 20 a page")
        .put("/api/user/role/{email}", Admin, users::change_role)
        .summary("Gives a user a role (and reopens a closed account)")
        .delete("/api/user/delete/{email}", Admin, users::delete_user)
        .summary("Closes a user's account: its profile is wiped and its tokens end")
        // 422 the admin's own account.
        .fails(&[422])
        .get("/api/user/export/", Customer, rights::export_my_data)
        .summary("Everything the shop holds about the signed-in customer, as JSON (UK GDPR arts. 15 and 20)")
        .post("/api/user/erase/request/", Customer, rights::request_erasure)
        .summary("E-mails a code that confirms deleting the signed-in customer's account")
        .fails(&[429])
        .post("/api/user/erase/confirm/", Customer, rights::confirm_erasure)
        .summary("With the e-mailed code: erases the account (orders kept without the person, reviews without the author)")
        .fails(&[400])
        .post("/api/user/erasure/{email}", Admin, rights::admin_erasure)
        .summary("Erases an address for a request received by e-mail (UK GDPR art. 17)")
        .path_pattern("email", shared::validation::EMAIL_PATTERN)
        // 422 the admin's own account.
        .fails(&[422])
        .get("/api/user/erasures/", Admin, rights::list_erasures)
        .summary("The erasures made, newest first (who asked, when, how much changed)")
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
    let rates = state.rates.clone();
    api()
        .into_router()
        .layer(axum::Extension(rates))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn every_route_is_described() {
        let document = shared::openapi::function_document("auth", crate::routes());
        let verify = &document["paths"]["/api/user/verify/"]["post"];
        assert_eq!(
            verify["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/Session"
        );
        let statuses: Vec<&String> = verify["responses"].as_object().unwrap().keys().collect();
        assert_eq!(
            statuses,
            ["200", "400", "403", "409", "413", "415", "422", "429"]
        );
        let login = &document["paths"]["/api/user/login/"]["post"];
        assert!(login["responses"]["429"]["headers"]["Retry-After"].is_object());
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["Role"]["enum"], json!(["customer", "admin"]));
        assert_eq!(schemas["ProfileInput"].get("required"), None);
        let delete = &document["paths"]["/api/user/delete/{email}"]["delete"];
        assert_eq!(delete["security"], json!([{"bearerAuth": []}]));
    }
}
