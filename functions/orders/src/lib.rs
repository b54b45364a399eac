//! Orders: the checkout (priced from the catalogue, one DynamoDB transaction for the pending order, the
//! stock and the code's use, then Stripe), the 3-D Secure confirmation, Stripe's webhook, the release of
//! unpaid orders, the order page, a customer's history, and the admin's orders: refunds, holds, the monthly
//! results and the month's reconciliation with Stripe.

mod checkout;
pub mod expiry;
mod holds;
mod index;
mod late_refund;
pub mod links;
pub mod listing;
mod mail;
mod manage;
pub mod money;
mod order;
pub mod payment;
pub mod personal;
pub mod purchases;
pub mod reconcile;
mod records;
pub mod refunds;
mod stock;
pub mod stripe;
mod unpaid;
pub mod webhook;

use axum::extract::FromRef;
use shared::auth::{Auth, AuthConfig};
use shared::config::{optional, required, ConfigError, Lookup};
use shared::rate::{AddressLimit, RateStore};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use std::sync::Arc;

pub use order::{Line, Order, Status};

pub struct Config {
    pub orders_table: String,
    pub catalog_table: String,
    pub codes_table: String,
    /// The site info's table: the trader's name, address and VAT rate for checkout and the confirmation.
    pub content_table: String,
    /// The shop's address, for the links in the confirmation (policies, receipt).
    pub site_url: String,
    /// Signs the order links in e-mails (`MAIL_LINK_KEY`, 32 characters or more).
    pub mail_link_key: Vec<u8>,
    pub auth: AuthConfig,
    pub mail_from: String,
    pub mail_table: String,
    pub mail_queue_url: String,
    pub shop_name: String,
    pub delivery: Delivery,
    pub stripe: StripeConfig,
}

/// Stripe's settings: the secret key and webhook secret come from Secrets Manager in AWS.
pub struct StripeConfig {
    pub api_base: String,
    pub secret_key: String,
    pub webhook_secret: String,
    pub publishable_key: String,
    pub js_url: String,
    /// How long an unpaid order holds its reservation.
    pub hold_seconds: i64,
    /// How long an order waiting for the shopper's 3-D Secure step holds it (`PAYMENT_ACTION_HOLD_MINUTES`).
    pub action_hold_seconds: i64,
}

/// The delivery terms, read as every function that names them reads them (`shared::delivery`).
pub use shared::delivery::Delivery;

impl Config {
    /// `ORDERS_TABLE`, `CATALOG_TABLE`, `CODES_TABLE`, `CONTENT_TABLE`, `SITE_URL`, the auth settings, `MAIL_FROM`, `MAIL_TABLE` and
    /// `MAIL_QUEUE_URL` (the outbox), `SHOP_NAME`,
    /// `DELIVERY_FEE` and `FREE_DELIVERY_FROM` (pounds), `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`,
    /// `STRIPE_API_BASE`, `STRIPE_PUBLISHABLE_KEY`, `STRIPE_JS_URL` and `PAYMENT_HOLD_MINUTES`.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Self::read(env, true)
    }

    /// The expiry job's settings: as [`Config::from_env`] but without `STRIPE_WEBHOOK_SECRET`. The job never
    /// verifies an event, so template.yaml lets it read Stripe's API key only, not the webhook secret.
    pub fn for_expiry(env: &impl Lookup) -> Result<Self, ConfigError> {
        Self::read(env, false)
    }

    fn read(env: &impl Lookup, verifies_events: bool) -> Result<Self, ConfigError> {
        Ok(Config {
            orders_table: required(env, "ORDERS_TABLE")?,
            catalog_table: required(env, "CATALOG_TABLE")?,
            codes_table: required(env, "CODES_TABLE")?,
            content_table: required(env, "CONTENT_TABLE")?,
            site_url: shared::config::site_url(env)?,
            mail_link_key: shared::secrets::symmetric_key(env, "MAIL_LINK_KEY")?,
            auth: AuthConfig::from_env(env)?,
            mail_from: required(env, "MAIL_FROM")?,
            mail_table: required(env, "MAIL_TABLE")?,
            mail_queue_url: required(env, "MAIL_QUEUE_URL")?,
            shop_name: optional(env, "SHOP_NAME", "Palestine Drinks"),
            delivery: Delivery::from_env(env)?,
            stripe: StripeConfig::from_env(env, verifies_events)?,
        })
    }
}

impl StripeConfig {
    fn from_env(env: &impl Lookup, verifies_events: bool) -> Result<Self, ConfigError> {
        let raw_hold = optional(env, "PAYMENT_HOLD_MINUTES", "30");
        let hold_minutes = raw_hold
            .parse::<i64>()
            .ok()
            .filter(|m| (5..=24 * 60).contains(m))
            .ok_or(ConfigError::Invalid {
                name: "PAYMENT_HOLD_MINUTES",
                reason: format!("{raw_hold:?} is not a number of minutes from 5 to 1440"),
            })?;
        let raw_action = optional(env, "PAYMENT_ACTION_HOLD_MINUTES", "10");
        let action_minutes = raw_action
            .parse::<i64>()
            .ok()
            .filter(|m| (2..=hold_minutes).contains(m))
            .ok_or(ConfigError::Invalid {
                name: "PAYMENT_ACTION_HOLD_MINUTES",
                reason: format!(
                    "{raw_action:?} is not a number of minutes from 2 to PAYMENT_HOLD_MINUTES"
                ),
            })?;
        Ok(StripeConfig {
            api_base: optional(env, "STRIPE_API_BASE", "https://api.stripe.com"),
            secret_key: required(env, "STRIPE_SECRET_KEY")?,
            webhook_secret: if verifies_events {
                required(env, "STRIPE_WEBHOOK_SECRET")?
            } else {
                String::new()
            },
            publishable_key: optional(env, "STRIPE_PUBLISHABLE_KEY", ""),
            js_url: optional(env, "STRIPE_JS_URL", "https://js.stripe.com/v3/"),
            hold_seconds: hold_minutes * 60,
            action_hold_seconds: action_minutes * 60,
        })
    }
}

/// What the storefront's checkout is told.
pub struct PaymentSettings {
    pub publishable_key: String,
    pub js_url: String,
}

#[derive(Clone)]
pub struct AppState {
    pub db: aws_sdk_dynamodb::Client,
    pub tables: Arc<Tables>,
    pub auth: Arc<Auth>,
    /// The confirmation and the shop's notice go out through the mail queue, written with the paid move.
    pub outbox: shared::outbox::Outbox,
    pub shop_name: Arc<str>,
    pub shop_address: Arc<str>,
    pub site_url: Arc<str>,
    pub links: Arc<links::OrderLinks>,
    /// Back-in-stock mail's stop links: stock an order gives back can end a drink's wait.
    pub alert_links: Arc<catalog::store::AlertLinks>,
    /// The delivered e-mail's "review what you bought" links, which the reviews function trusts.
    pub review_links: Arc<shared::review_links::ReviewLinks>,
    pub delivery: Delivery,
    pub stripe: stripe::Stripe,
    pub webhook_secret: Arc<str>,
    pub payment_settings: Arc<PaymentSettings>,
    pub hold_seconds: i64,
    pub action_hold_seconds: i64,
}

pub struct Tables {
    pub orders: String,
    pub catalog: String,
    pub codes: String,
    pub content: String,
}

impl AppState {
    pub fn new(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        sqs: aws_sdk_sqs::Client,
    ) -> Self {
        AppState {
            outbox: shared::outbox::Outbox::new(
                dynamodb.clone(),
                config.mail_table,
                shared::outbox::Queue::new(sqs, config.mail_queue_url),
            ),
            auth: config.auth.into_auth(dynamodb.clone()),
            db: dynamodb,
            tables: Arc::new(Tables {
                orders: config.orders_table,
                catalog: config.catalog_table,
                codes: config.codes_table,
                content: config.content_table,
            }),
            site_url: config.site_url.into(),
            links: Arc::new(links::OrderLinks::new(&config.mail_link_key)),
            alert_links: Arc::new(catalog::store::AlertLinks::new(&config.mail_link_key)),
            review_links: Arc::new(shared::review_links::ReviewLinks::new(
                &config.mail_link_key,
            )),
            shop_address: config.mail_from.into(),
            shop_name: config.shop_name.into(),
            delivery: config.delivery,
            stripe: stripe::Stripe::new(&config.stripe.api_base, &config.stripe.secret_key),
            webhook_secret: config.stripe.webhook_secret.into(),
            payment_settings: Arc::new(PaymentSettings {
                publishable_key: config.stripe.publishable_key,
                js_url: config.stripe.js_url,
            }),
            hold_seconds: config.stripe.hold_seconds,
            action_hold_seconds: config.stripe.action_hold_seconds,
        }
    }
}

impl AppState {
    /// Mails whoever waits for the drinks of an order that gave its stock back (cancelled, expired,
    /// refunded). A failure is logged, not answered: the move itself is done, and the next release (an
    /// admin's edit, another order) mails them.
    pub async fn alert_waiting(&self, order: &Order) {
        let how = catalog::store::AlertMail {
            shop: &self.shop_name,
            site_url: &self.site_url,
            links: &self.alert_links,
        };
        for line in &order.lines {
            if let Err(error) = catalog::store::release_alerts(
                &self.db,
                &self.tables.catalog,
                &self.outbox,
                &how,
                &line.product,
            )
            .await
            {
                tracing::error!(product = %line.product, %error, "back-in-stock alerts not sent");
            }
        }
    }

    /// The trader's facts as the site info holds them now.
    pub async fn trader(&self) -> Result<shared::trader::Trader, shared::ApiError> {
        content::store::trader(&self.db, &self.tables.content, &self.shop_name).await
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

/// Orders placed per viewer address: room for a household or an office, not for a card-testing script.
pub const CREATE_LIMIT: AddressLimit = AddressLimit {
    scope: "ORDER-CREATE",
    limit: 20,
    seconds: 60 * 60,
    refusal: "Many orders came from your network in the last hour",
};

/// Confirmations per viewer address: each asks Stripe, so an open loop on it would spend the shop's Stripe
/// rate; a shopper confirms once or twice per order.
pub const CONFIRM_LIMIT: AddressLimit = AddressLimit {
    scope: "ORDER-CONFIRM",
    limit: 30,
    seconds: 60 * 60,
    refusal: "Many payment confirmations came from your network in the last hour",
};

fn api() -> ApiRoutes<AppState> {
    use Access::{Admin, Customer, Public};
    ApiRoutes::new()
        .post("/api/order/create/", Public, checkout::create_order)
        .summary("Place an order and pay for it")
        .header_doc(shared::openapi::HeaderDoc {
            name: "Idempotency-Key",
            required: false,
            description: "A retry with the same key and order answers where that order stands",
            pattern: Some(checkout::IDEMPOTENCY_KEY_PATTERN),
        })
        .answers::<String>(
            201,
            "The order is placed and paid: its id; the Order-Key header opens its page whole (?key=)",
        )
        .answers::<String>(
            200,
            "A retry of an order placed and paid under the same Idempotency-Key: its id, with Order-Key",
        )
        .answers::<checkout::ActionRequired>(
            202,
            "The bank wants the shopper to confirm (3-D Secure); Order-Key as for 201",
        )
        .answers::<checkout::PriceChanged>(
            409,
            "The total moved since the shopper's quote (the new figures), a drink just sold out, unpaid 3-D Secure orders hold as much of a drink as they may (Retry-After), or the payment is in progress: nothing was charged",
        )
        .fails(&[402, 502, 503])
        .limit_per_address(CREATE_LIMIT)
        .post("/api/order/quote/", Public, checkout::quote_order)
        .summary("What an order of this basket and code would be charged now: lines, discount, delivery, VAT, total")
        .fails(&[409])
        .get("/api/order/Orderdetails/{id}", Public, manage::show_order)
        .summary("An order's page: whole with the owner's or an admin's token, without contact details with its link's key, where it stands (OrderProgress) otherwise")
        .get(
            "/api/order/orderdetails/customer/order/",
            Customer,
            manage::list_my_orders,
        )
        .summary("The signed-in customer's orders, newest first")
        .get("/api/order/total/", Customer, manage::show_my_total)
        .summary("The signed-in customer's paid orders and what they came to")
        .get("/api/order", Admin, listing::list_orders)
        .summary("Every order, newest first, or those an id, an e-mail or a name finds")
        .put("/api/order/update/{_id}", Admin, manage::update_order)
        .summary("Move an order on (shipped, delivered; not while held) or cancel it (refunding what is left of a paid one)")
        .fails(&[409, 502, 503])
        .post("/api/order/cancel/{_id}", Customer, manage::cancel_my_order)
        .summary("The customer cancels their own order before it ships (refunded in full if paid)")
        .fails(&[404, 409, 502, 503])
        .delete("/api/order/delete/{id}", Admin, manage::delete_order)
        .summary("Delete a finished order that was never paid (a paid one is kept: archive it)")
        .fails(&[409])
        .put("/api/order/archive/{_id}", Admin, manage::archive_order)
        .summary("Archive a finished order (off the admin's default list, kept for the accounts) or bring it back")
        .fails(&[409])
        .get("/api/order/results/", Admin, manage::show_results)
        .summary("Monthly sales (paid money: orders in the month paid, refunds in the month made) and every customer's e-mail")
        .post("/api/order/refunds/{_id}", Admin, refunds::create_refund)
        .summary("Refund an order, whole or in part (lines, the delivery, an amount), from paid, shipped or delivered")
        .fails(&[409, 502, 503])
        .get("/api/order/holds/", Admin, holds::list_held_orders)
        .summary("The orders on hold (a dispute or a fraud warning is open), longest held first")
        .post(
            "/api/order/holds/{_id}/release",
            Admin,
            holds::release_hold,
        )
        .summary("Release an order held for a fraud warning, once checked (a dispute is the bank's to close)")
        .fails(&[409])
        .get("/api/order/stock-holds/", Admin, unpaid::list_stock_holds)
        .summary("What unpaid orders waiting for 3-D Secure hold of each drink, its cap and stock, and by which orders")
        .get(
            "/api/order/reconciliation/{month}",
            Admin,
            reconcile::show_reconciliation,
        )
        .path_pattern("month", reconcile::MONTH_PATTERN)
        // 422: a month that is not YYYY-MM.
        .fails(&[422])
        .summary("A month's payments and refunds beside Stripe's charges, refunds, fees, net and payouts, with every difference")
        .fails(&[502, 503])
        .get(
            "/api/order/payment-settings/",
            Public,
            checkout::show_payment_settings,
        )
        .summary("What the checkout needs to draw Stripe's card fields")
        .post("/api/order/confirm/{id}/", Public, checkout::confirm_order)
        .summary("After 3-D Secure: the server asks Stripe where the payment stands")
        .answers::<String>(200, "The order is paid: its id")
        .fails(&[402, 409, 502, 503])
        .limit_per_address(CONFIRM_LIMIT)
        .post(
            "/api/order/webhook/stripe/",
            Public,
            webhook::receive_stripe_event,
        )
        .summary("Stripe's events, signed with the shop's webhook secret")
        .header(
            "Stripe-Signature",
            true,
            "t=<unix time>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" with the webhook secret>, at most 5 minutes old",
        )
        // Stripe unreachable or refusing a follow-up (a late payment's refund): Stripe sends the event again.
        .fails(&[502, 503])
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::Sqs,
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
        clients.sqs(),
    )))
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    // The per-address windows live in the orders table, beside the orders they limit.
    let rates = RateStore {
        client: state.db.clone(),
        table: state.tables.orders.as_str().into(),
    };
    api()
        .into_router()
        .layer(axum::Extension(rates))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_document_states_the_checkout_and_its_payments() {
        let document = shared::openapi::function_document("orders", crate::routes());
        let create = &document["paths"]["/api/order/create/"]["post"];
        let statuses: Vec<&String> = create["responses"].as_object().unwrap().keys().collect();
        assert_eq!(
            statuses,
            ["200", "201", "202", "400", "402", "409", "413", "415", "422", "429", "502", "503"]
        );
        assert_eq!(create["parameters"][0]["name"], "Idempotency-Key");
        assert_eq!(create["parameters"][0]["required"], false);
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["ActionRequired"]["required"],
            json!(["_id", "clientSecret", "status"])
        );
        assert_eq!(schemas["PaymentInput"]["additionalProperties"], false);
        let webhook = &document["paths"]["/api/order/webhook/stripe/"]["post"];
        assert_eq!(webhook["parameters"][0]["name"], "Stripe-Signature");
        assert_eq!(webhook["parameters"][0]["required"], true);
        assert_eq!(schemas["StripeEvent"]["type"], "object");
        // The order page leaves the contact details out for strangers.
        let page = schemas["OrderPage"]["required"].as_array().unwrap();
        assert!(!page.contains(&json!("email")));
        assert!(schemas["Order"]["required"]
            .as_array()
            .unwrap()
            .contains(&json!("email")));
    }
}
