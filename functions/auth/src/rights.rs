//! A customer's data rights (UK GDPR arts. 15, 17 and 20). "Download my data" answers, as one JSON document,
//! everything the shop's tables hold that names the address. "Delete my account" is confirmed by a code
//! e-mailed to the address (so a stolen session alone cannot erase anyone), then: the profile, the login
//! records and the subscriptions go; reviews stay without the author; orders stay for the accounting period
//! without the person (totals and VAT kept); the address can log in again as a new customer with nothing.
//! An admin can make the same erasure for a request that came by e-mail. Each erasure leaves an audit entry
//! (who asked, when, how many items of each kind) that holds nothing of the erased person.

use crate::codes::new_code;
use crate::AppState;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::{user_key, Admin, Customer};
use shared::dynamo::{get_n, get_s, n, s, Item};
use shared::extract::Path;
use shared::mail::{branded_html, Mail};
use shared::personal::{self, readable, text, Record, Section};
use shared::rate::{PerSender, SourceIp, Window};
use shared::validation::Email;
use shared::{ApiError, ApiResult, Json};

/// How long an erasure code works, and how many wrong tries it takes.
const CODE_SECONDS: i64 = 15 * 60;
const MAX_TRIES: u32 = 5;

/// The other functions' tables the rights reach (each named in template.yaml for the auth function).
pub struct DataTables {
    pub orders: String,
    pub reviews: String,
    pub subscription: String,
    pub codes: String,
    pub content: String,
    pub mail: String,
    /// Back-in-stock alerts.
    pub catalog: String,
}

/// Everything the shop holds about one address, for the person to keep, under names a person understands.
#[derive(Serialize, Default, schemars::JsonSchema)]
pub struct DataExport {
    email: String,
    #[serde(rename = "exportedAt")]
    exported_at: String,
    /// The account as stored: name, phone, address, role, dates.
    profile: Option<serde_json::Value>,
    /// The login records held: codes waiting (never the code itself), tries, the day's wrong codes.
    #[serde(rename = "loginHistory")]
    login_history: Vec<serde_json::Value>,
    /// The passkeys registered for the account (their names and dates, not the keys).
    passkeys: Vec<serde_json::Value>,
    orders: Vec<serde_json::Value>,
    reviews: Vec<serde_json::Value>,
    subscriptions: Vec<serde_json::Value>,
    /// Back-in-stock alerts, confirmed or waiting for their confirmation.
    alerts: Vec<serde_json::Value>,
    /// Messages sent through the contact form.
    #[serde(rename = "contactMessages")]
    contact_messages: Vec<serde_json::Value>,
    /// Once-per-customer discount codes used, with the order.
    #[serde(rename = "discountCodes")]
    discount_codes: Vec<serde_json::Value>,
    /// E-mails to (or about) the address the shop's outbox still holds.
    mail: Vec<serde_json::Value>,
    /// The shop's own lists that name the address.
    #[serde(rename = "shopRecords")]
    shop_records: Vec<serde_json::Value>,
    /// The windows that count the address's recent requests against the shop's limits.
    limits: Vec<serde_json::Value>,
}

impl DataExport {
    fn add(&mut self, record: Record) {
        let value = record.value;
        match record.section {
            Section::Profile => self.profile = Some(value),
            Section::LoginHistory => self.login_history.push(value),
            Section::Passkeys => self.passkeys.push(value),
            Section::Orders => self.orders.push(value),
            Section::Reviews => self.reviews.push(value),
            Section::Subscriptions => self.subscriptions.push(value),
            Section::Alerts => self.alerts.push(value),
            Section::ContactMessages => self.contact_messages.push(value),
            Section::DiscountCodes => self.discount_codes.push(value),
            Section::Mail => self.mail.push(value),
            Section::ShopRecords => self.shop_records.push(value),
            Section::Limits => self.limits.push(value),
        }
    }
}

/// Downloads one account may make in a day, and one viewer address: each reads every table.
const EXPORT_LIMITS: PerSender<'static> = PerSender {
    scope: "EXPORT",
    per_email: Window {
        limit: 5,
        seconds: DAY,
    },
    per_email_refusal: "You have downloaded your data several times today",
    per_ip: Window {
        limit: 20,
        seconds: DAY,
    },
    per_ip_refusal: "Many downloads came from your network today",
};

/// `GET /api/user/export/`: the signed-in customer's data, as JSON, read from each table by keys made from
/// the address whole (never by a part of it).
pub async fn export_my_data(
    Customer(me): Customer,
    SourceIp(ip): SourceIp,
    State(state): State<AppState>,
) -> ApiResult<Json<DataExport>> {
    let email = me.email.as_str();
    let db = state.db();
    let now = shared::time::now_unix();
    let limits = EXPORT_LIMITS
        .reserve(db, state.table(), email, ip.as_deref(), now)
        .await?;
    db.transact_write_items()
        .set_transact_items(Some(limits))
        .send()
        .await
        .map_err(shared::rate::busy_or_internal)?;
    let tables = &state.data_tables;
    let (account, orders, reviews, subscription, codes, content, mail, catalog) = tokio::try_join!(
        account_records(&state, email),
        orders::personal::export(db, &tables.orders, email),
        reviews::personal::export(db, &tables.reviews, email),
        newsletter::personal::export(db, &tables.subscription, email),
        discounts::personal::export(db, &tables.codes, email),
        content::personal::export(db, &tables.content, email),
        shared::mail_records::export(db, &tables.mail, email),
        catalog::personal::export(db, &tables.catalog, email),
    )?;
    let mut export = DataExport {
        email: email.to_owned(),
        exported_at: shared::time::now_iso(),
        ..DataExport::default()
    };
    for record in [
        account,
        orders,
        reviews,
        subscription,
        codes,
        content,
        mail,
        catalog,
    ]
    .into_iter()
    .flatten()
    {
        export.add(record);
    }
    Ok(Json(export))
}

/// The users table's items about `email`: every one has a key made from the address whole.
async fn account_records(state: &AppState, email: &str) -> Result<Vec<Record>, ApiError> {
    let db = state.db();
    let table = state.table();
    let mut records = Vec::new();
    if let Some(user) = personal::get(db, table, user_key(email)).await? {
        records.push(Record::new(Section::Profile, shown(&user)));
    }
    for item in personal::partition(db, table, &login_partition(email)).await? {
        records.push(Record::new(Section::LoginHistory, shown(&item)));
    }
    for item in personal::partition(db, table, &erase_partition(email)).await? {
        records.push(Record::new(Section::LoginHistory, shown(&item)));
    }
    for item in personal::partition(db, table, &passkey_partition(email)).await? {
        if text(&item, "sk").starts_with("KEY#") {
            records.push(Record::new(
                Section::Passkeys,
                serde_json::json!({
                    "name": text(&item, "name"),
                    "createdAt": text(&item, "createdAt"),
                    "lastUsedAt": text(&item, "lastUsedAt"),
                }),
            ));
        }
    }
    records.extend(
        personal::window(
            db,
            table,
            shared::rate::email_window(EXPORT_LIMITS.scope, email),
            "data downloads",
        )
        .await?,
    );
    Ok(records)
}

/// An item without what must not leave the shop even to its subject (a code's hash, a ceremony's state).
fn shown(item: &Item) -> serde_json::Value {
    let mut value = readable(item);
    if let Some(fields) = value.as_object_mut() {
        for secret in ["codeHash", "tokenVersion", "state", "credential", "claim"] {
            fields.remove(secret);
        }
    }
    value
}

/// How many items of each kind an erasure changed.
#[derive(Debug, Default, Clone, Serialize, schemars::JsonSchema, PartialEq)]
pub struct Erased {
    /// Orders kept for the accounts with the person taken out.
    orders: u32,
    /// Reviews kept without their author.
    reviews: u32,
    subscriptions: u32,
    /// Everything else deleted: the profile, login records, limits' windows, marks, queued mail.
    deleted: u32,
}

/// The owners' tables an erasure goes through, in order; the account itself comes last, so until then the
/// session still works and an erasure cut short can be asked again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Orders,
    Reviews,
    Subscriptions,
    Codes,
    Content,
    Mail,
    Alerts,
    Account,
}

const STEPS: [Step; 8] = [
    Step::Orders,
    Step::Reviews,
    Step::Subscriptions,
    Step::Codes,
    Step::Content,
    Step::Mail,
    Step::Alerts,
    Step::Account,
];

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Orders => "orders",
            Step::Reviews => "reviews",
            Step::Subscriptions => "subscriptions",
            Step::Codes => "codes",
            Step::Content => "content",
            Step::Mail => "mail",
            Step::Alerts => "alerts",
            Step::Account => "account",
        }
    }
}

/// How much of an erasure one call may do: the whole of it, or (when the function's time runs short, or a
/// test says so) a number of steps, after which the job's record says where the next call starts.
#[derive(Debug, Clone, Copy)]
pub struct Allowance {
    steps: usize,
    deadline: Option<std::time::Instant>,
}

impl Allowance {
    pub const WHOLE: Allowance = Allowance {
        steps: STEPS.len(),
        deadline: None,
    };

    /// At most `steps` of the erasure's steps.
    pub fn steps(steps: usize) -> Self {
        Allowance {
            steps,
            deadline: None,
        }
    }

    /// Stops before a step that could not finish before the Lambda's deadline (a step reads and writes a
    /// person's items, seconds at most).
    fn until(deadline: Option<std::time::Instant>) -> Self {
        Allowance {
            steps: STEPS.len(),
            deadline: deadline.map(|at| at - std::time::Duration::from_secs(5)),
        }
    }

    fn allows(&self, taken: usize) -> bool {
        taken < self.steps
            && self
                .deadline
                .is_none_or(|at| std::time::Instant::now() < at)
    }
}

/// How an erasure call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Everything is erased (or waits only for orders on their way).
    Finished {
        erased: Erased,
        waiting: Vec<orders::personal::WaitingOrder>,
    },
    /// Cut short: the job's record keeps what was done; the next call finishes the rest.
    Unfinished,
}

fn login_partition(email: &str) -> String {
    crate::codes::login_partition(email)
}

fn passkey_partition(email: &str) -> String {
    crate::passkeys::partition(email)
}

fn erase_partition(email: &str) -> String {
    format!("ERASE#{email}")
}

fn job_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(erase_partition(email))),
        ("sk".to_owned(), s("JOB")),
    ])
}

/// The users table's partition of unfinished erasures, for the admin.
const UNFINISHED: &str = "ERASURES-UNFINISHED";

/// Takes the address out of every table through each table's owner, recording each finished step on the
/// erasure's job (`ERASE#{email}`, `JOB`), so that a call cut short (the Lambda's time ran out) is finished
/// by the next, with nothing erased twice or left. The account goes last, in one transaction with the
/// audit entry and the job's end.
pub async fn erase(
    state: &AppState,
    email: &str,
    by: &str,
    allowance: Allowance,
) -> Result<Progress, ApiError> {
    let db = state.db();
    let tables = &state.data_tables;
    let job = start_job(state, email, by).await?;
    let done: Vec<String> = shared::dynamo::get_string_list(&job, "done");
    let mut taken = 0;
    for step in STEPS {
        if done.iter().any(|d| d == step.name()) {
            continue;
        }
        if !allowance.allows(taken) {
            return Ok(Progress::Unfinished);
        }
        taken += 1;
        let mut erased = Erased::default();
        let mut waiting = Vec::new();
        match step {
            Step::Orders => {
                let result = orders::personal::erase(db, &tables.orders, email).await?;
                erased.orders = result.tally.kept;
                erased.deleted = result.tally.deleted;
                waiting = result.waiting.into_iter().map(|w| w.id).collect();
            }
            Step::Reviews => {
                let tally = reviews::personal::erase(db, &tables.reviews, email).await?;
                erased.reviews = tally.kept;
                erased.deleted = tally.deleted;
            }
            Step::Subscriptions => {
                let (subscriptions, tally) =
                    newsletter::personal::erase(db, &tables.subscription, email).await?;
                erased.subscriptions = subscriptions;
                erased.deleted = tally.deleted;
            }
            Step::Codes => {
                erased.deleted = discounts::personal::erase(db, &tables.codes, email)
                    .await?
                    .deleted;
            }
            Step::Content => {
                erased.deleted = content::personal::erase(db, &tables.content, email)
                    .await?
                    .deleted;
            }
            Step::Mail => {
                erased.deleted =
                    shared::mail_records::erase(db, &tables.mail, email, shared::time::now_unix())
                        .await?;
            }
            Step::Alerts => {
                erased.deleted = catalog::personal::erase(db, &tables.catalog, email)
                    .await?
                    .deleted;
            }
            Step::Account => return finish(state, email, by).await,
        }
        record_step(state, email, step, &erased, &waiting).await?;
    }
    finish(state, email, by).await
}

/// The erasure's job, begun now unless an earlier call began it.
async fn start_job(state: &AppState, email: &str, by: &str) -> Result<Item, ApiError> {
    let now = shared::time::now_iso();
    let mut job = job_key(email);
    job.extend([
        ("by".to_owned(), s(by)),
        ("startedAt".to_owned(), s(&now)),
        ("gsi1pk".to_owned(), s(UNFINISHED)),
        ("gsi1sk".to_owned(), s(format!("{now}#{email}"))),
        ("email".to_owned(), s(email)),
    ]);
    let written = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(job.clone()))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match written {
        Ok(_) => Ok(job),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            Ok(personal::get(state.db(), state.table(), job_key(email))
                .await?
                .unwrap_or(job))
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}

const COUNTS: &str = "#done :step, #orders :orders, #reviews :reviews, \
                      #subscriptions :subscriptions, #deleted :deleted";

/// One step done: its counts added and its name recorded, only if it was not recorded already (two calls
/// at once count a step once).
async fn record_step(
    state: &AppState,
    email: &str,
    step: Step,
    erased: &Erased,
    waiting: &[String],
) -> Result<(), ApiError> {
    let mut update = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(job_key(email)))
        .update_expression(format!("ADD {COUNTS}"))
        .expression_attribute_names("#done", "done")
        .expression_attribute_names("#orders", "orders")
        .expression_attribute_names("#reviews", "reviews")
        .expression_attribute_names("#subscriptions", "subscriptions")
        .expression_attribute_names("#deleted", "deleted")
        .condition_expression("attribute_exists(pk) AND NOT contains(#done, :name)")
        .expression_attribute_values(":step", AttributeValue::Ss(vec![step.name().to_owned()]))
        .expression_attribute_values(":name", s(step.name()))
        .expression_attribute_values(":orders", n(erased.orders))
        .expression_attribute_values(":reviews", n(erased.reviews))
        .expression_attribute_values(":subscriptions", n(erased.subscriptions))
        .expression_attribute_values(":deleted", n(erased.deleted));
    if !waiting.is_empty() {
        update = update
            .update_expression(format!("ADD {COUNTS}, #waiting :waiting"))
            .expression_attribute_names("#waiting", "waiting")
            .expression_attribute_values(":waiting", AttributeValue::Ss(waiting.to_vec()));
    }
    match update.send().await {
        Ok(_) => Ok(()),
        Err(error) if shared::dynamo::is_condition_failed(&error) => Ok(()),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// The last step: the login records and passkeys go, a keyed mark of the address keeps the account's last
/// token version (a token issued before the erasure never works again, even for an account made anew),
/// and the profile, the job and the audit entry are written and deleted in one transaction.
async fn finish(state: &AppState, email: &str, by: &str) -> Result<Progress, ApiError> {
    let db = state.db();
    let table = state.table();
    let Some(job) = personal::get(db, table, job_key(email)).await? else {
        return Err(ApiError::conflict("This erasure was finished a moment ago"));
    };
    for partition in [login_partition(email), passkey_partition(email)] {
        for item in personal::partition(db, table, &partition).await? {
            personal::delete_exact(db, table, shared::dynamo::key_of(&item)).await?;
        }
    }
    let mut erased = Erased {
        orders: get_n(&job, "orders").unwrap_or(0),
        reviews: get_n(&job, "reviews").unwrap_or(0),
        subscriptions: get_n(&job, "subscriptions").unwrap_or(0),
        deleted: get_n(&job, "deleted").unwrap_or(0),
    };
    for item in personal::partition(db, table, &erase_partition(email)).await? {
        if text(&item, "sk") != "JOB" {
            personal::delete_exact(db, table, shared::dynamo::key_of(&item)).await?;
        }
    }
    erased.deleted += u32::from(
        personal::delete_exact(
            db,
            table,
            shared::rate::email_window(EXPORT_LIMITS.scope, email),
        )
        .await?,
    );
    let user = personal::get(db, table, user_key(email)).await?;
    let last_version: u64 = user
        .as_ref()
        .and_then(|u| get_n(u, "tokenVersion").ok())
        .unwrap_or(0);
    crate::users::remember_erased(state, email, last_version).await?;
    let waiting: Vec<String> = shared::dynamo::get_string_list(&job, "waiting");
    if user.is_some() {
        erased.deleted += 1;
    }
    let now = shared::time::now_iso();
    let mut audit = Item::from([
        ("pk".to_owned(), s("AUDIT#ERASURE")),
        (
            "sk".to_owned(),
            s(format!("{now}#{}", shared::store::new_id())),
        ),
        ("at".to_owned(), s(&now)),
        ("by".to_owned(), s(by)),
        ("orders".to_owned(), n(erased.orders)),
        ("reviews".to_owned(), n(erased.reviews)),
        ("subscriptions".to_owned(), n(erased.subscriptions)),
        ("deleted".to_owned(), n(erased.deleted)),
    ]);
    if !waiting.is_empty() {
        // Order ids only: the audit never holds the erased address.
        audit.insert("waiting".to_owned(), AttributeValue::Ss(waiting.clone()));
    }
    let put = |item: Item| -> Result<TransactWriteItem, ApiError> {
        Ok(TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(table)
                    .set_item(Some(item))
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build())
    };
    let delete = |key: Item, condition: Option<&str>| -> Result<TransactWriteItem, ApiError> {
        Ok(TransactWriteItem::builder()
            .delete(
                Delete::builder()
                    .table_name(table)
                    .set_key(Some(key))
                    .set_condition_expression(condition.map(str::to_owned))
                    .build()
                    .map_err(ApiError::internal)?,
            )
            .build())
    };
    let written = db
        .transact_write_items()
        .transact_items(put(audit)?)
        .transact_items(delete(job_key(email), Some("attribute_exists(pk)"))?)
        .transact_items(delete(user_key(email), None)?)
        .send()
        .await;
    match written {
        Ok(_) => {}
        // Another call finished it between our read and this write: its audit entry stands.
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_transaction_canceled_exception()) =>
        {
            return Err(ApiError::conflict("This erasure was finished a moment ago"));
        }
        Err(error) => return Err(ApiError::internal(error)),
    }
    let waiting = orders::personal::still_waiting(db, &state.data_tables.orders, &waiting).await?;
    Ok(Progress::Finished { erased, waiting })
}

fn erase_code_key(email: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(erase_partition(email))),
        ("sk".to_owned(), s("CODE")),
    ])
}

/// Wrong erasure codes one account may send in a day, whatever codes it asks for.
const MAX_WRONG_A_DAY: u32 = 10;
const DAY: i64 = 24 * 3600;

fn wrong_key(email: &str, day: i64) -> Item {
    Item::from([
        ("pk".to_owned(), s(erase_partition(email))),
        ("sk".to_owned(), s(format!("WRONG#{day}"))),
    ])
}

fn erase_mail(shop: &str, email: &str, code: &str) -> Mail {
    let content = format!(
        "<p>Someone signed in to your {shop} account asked to delete it. To confirm, enter this code:</p>\
         <p style=\"font-size:32px;font-weight:bold;letter-spacing:6px;margin:16px 0\">{code}</p>\
         <p>It works for 15 minutes. Deleting removes your profile and subscriptions and takes your name out \
         of your orders and reviews; it cannot be undone. If you did not ask, ignore this e-mail and nothing \
         happens.</p>",
        shop = shared::mail::escape_html(shop)
    );
    Mail {
        to: email.to_owned(),
        subject: format!("Confirm deleting your {shop} account"),
        html: branded_html(shop, "Delete your account", &content),
        text: format!(
            "Someone signed in to your {shop} account asked to delete it. To confirm, enter this code: \
             {code}\n\nIt works for 15 minutes. Deleting removes your profile and subscriptions and takes \
             your name out of your orders and reviews; it cannot be undone. If you did not ask, ignore this \
             e-mail and nothing happens.\n"
        ),
        reply_to: None,
    }
}

/// What asking for an erasure answers: the code is on its way, and which orders the erasure would wait for.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErasureAsked {
    message: String,
    /// Orders still on their way (unpaid, paid or shipped): the erasure keeps the name and address on them
    /// until they are delivered or refunded. A paid order not yet shipped can be cancelled and refunded
    /// from its page first.
    #[serde(rename = "waitingOrders")]
    waiting_orders: Vec<orders::personal::WaitingOrder>,
}

/// `POST /api/user/erase/request/`: e-mails a code that confirms deleting the signed-in account.
pub async fn request_erasure(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<ErasureAsked>> {
    let email = me.email.as_str();
    let now = shared::time::now_unix();
    // One request a minute: a code is not re-sent faster than a person can read the last one.
    let code = new_code()?;
    let mut item = erase_code_key(email);
    item.extend([
        ("codeHash".to_owned(), s(state.codes.tag(email, &code))),
        ("tries".to_owned(), n(0)),
        ("expiresAt".to_owned(), n(now + CODE_SECONDS)),
        ("sentAt".to_owned(), n(now)),
    ]);
    let written = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk) OR sentAt < :recent")
        .expression_attribute_values(":recent", n(now - 60))
        .send()
        .await;
    match written {
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(ApiError::too_many_requests(
                "A code was sent a moment ago: check your inbox",
            ))
        }
        other => {
            other.map_err(ApiError::internal)?;
        }
    }
    state
        .send_within_budget(erase_mail(&state.shop_name, email, &code))
        .await?;
    let waiting_orders =
        orders::personal::on_their_way(state.db(), &state.data_tables.orders, email).await?;
    let message = if waiting_orders.is_empty() {
        "We have e-mailed you a code: enter it to delete your account.".to_owned()
    } else {
        format!(
            "We have e-mailed you a code: enter it to delete your account. {} still on its way: we keep \
             your name and address on it until it is delivered or refunded, then take them out.",
            orders_in_words(&waiting_orders)
        )
    };
    Ok(Json(ErasureAsked {
        message,
        waiting_orders,
    }))
}

/// "Order 10001 is" / "Orders 10001 and 10002 are", for the messages.
fn orders_in_words(orders: &[orders::personal::WaitingOrder]) -> String {
    let numbers: Vec<String> = orders
        .iter()
        .map(|o| o.number.map_or_else(|| o.id.clone(), |n| n.to_string()))
        .collect();
    match numbers.as_slice() {
        [one] => format!("Order {one} is"),
        [rest @ .., last] => format!("Orders {} and {last} are", rest.join(", ")),
        [] => String::new(),
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct EraseConfirm {
    /// The 6 digits from the e-mail.
    #[schemars(regex(pattern = r"^\s*[0-9]{6}\s*$"))]
    code: String,
}

/// What an erasure answers.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErasureDone {
    message: String,
    erased: Erased,
    /// False when the erasure was cut short (it is finished by asking again, with the same code).
    finished: bool,
    /// Orders on their way that keep the name and address until they are delivered or refunded.
    #[serde(rename = "waitingOrders")]
    waiting_orders: Vec<orders::personal::WaitingOrder>,
}

impl ErasureDone {
    fn of(progress: Progress, done: &str) -> Self {
        match progress {
            Progress::Finished { erased, waiting } => ErasureDone {
                message: if waiting.is_empty() {
                    done.to_owned()
                } else {
                    format!(
                        "{done} {} still on its way: the name and address stay on it until it is \
                         delivered or refunded, then they are taken out too.",
                        orders_in_words(&waiting)
                    )
                },
                erased,
                finished: true,
                waiting_orders: waiting,
            },
            Progress::Unfinished => ErasureDone {
                message:
                    "Part of it is erased; it is taking longer than usual: send the same request \
                          again to finish it."
                        .to_owned(),
                erased: Erased::default(),
                finished: false,
                waiting_orders: Vec::new(),
            },
        }
    }
}

/// The Lambda's deadline for this request, when it runs in Lambda.
fn deadline_of(context: Option<&lambda_http::Context>) -> Option<std::time::Instant> {
    let context = context?;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_millis() as u64;
    let left = context.deadline.checked_sub(now_ms)?;
    Some(std::time::Instant::now() + std::time::Duration::from_millis(left))
}

/// `POST /api/user/erase/confirm/`: with the right code, erases the signed-in account (its session ends with
/// it). The try is counted before the comparison, atomically, as a login code's is, and an account has a
/// daily number of wrong codes whatever codes it asks for.
pub async fn confirm_erasure(
    Customer(me): Customer,
    State(state): State<AppState>,
    context: Option<axum::Extension<lambda_http::Context>>,
    Json(body): Json<EraseConfirm>,
) -> ApiResult<Json<ErasureDone>> {
    let email = me.email.as_str();
    let code = body.code.trim();
    if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(ApiError::invalid(
            "code must be the 6 digits from the e-mail",
        ));
    }
    let now = shared::time::now_unix();
    let day = now.div_euclid(DAY);
    if let Some(wrong) = personal::get(state.db(), state.table(), wrong_key(email, day)).await? {
        if get_n::<u32>(&wrong, "wrong").unwrap_or(0) >= MAX_WRONG_A_DAY {
            return Err(ApiError::too_many_requests(
                "Too many wrong codes today: try again tomorrow",
            )
            .retry_after(DAY - now.rem_euclid(DAY)));
        }
    }
    let counted = state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(erase_code_key(email)))
        .update_expression("ADD tries :one")
        .condition_expression("attribute_exists(codeHash) AND tries < :max AND expiresAt > :now")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":max", n(MAX_TRIES))
        .expression_attribute_values(":now", n(now))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
        .send()
        .await;
    let item = match counted {
        Ok(output) => output.attributes.unwrap_or_default(),
        Err(error) if shared::dynamo::is_condition_failed(&error) => {
            return Err(ApiError::bad_request(
                "This code is wrong or has expired: ask for a new one",
            ))
        }
        Err(error) => return Err(ApiError::internal(error)),
    };
    let stored = get_s(&item, "codeHash")?;
    if !state.codes.matches(email, code, &stored) {
        count_wrong(&state, email, day).await?;
        let tries: u32 = get_n(&item, "tries")?;
        return Err(ApiError::bad_request(format!(
            "That code is wrong: {} tries left",
            MAX_TRIES.saturating_sub(tries)
        )));
    }
    // The right code counts no try: asking again with it finishes an erasure cut short.
    state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(erase_code_key(email)))
        .update_expression("ADD tries :minus")
        .expression_attribute_values(":minus", n(-1))
        .send()
        .await
        .map_err(ApiError::internal)?;
    let deadline = deadline_of(context.as_ref().map(|c| &c.0));
    let progress = erase(&state, email, "the customer", Allowance::until(deadline)).await?;
    Ok(Json(ErasureDone::of(
        progress,
        "Your account is deleted. Thank you for shopping with us.",
    )))
}

async fn count_wrong(state: &AppState, email: &str, day: i64) -> Result<(), ApiError> {
    state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(wrong_key(email, day)))
        .update_expression("ADD wrong :one SET expiresAt = :expires")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":expires", n((day + 2) * DAY))
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

/// `POST /api/user/erasure/{email}` (admin): the same erasure, for a request the shop received by e-mail;
/// asked again, it finishes one cut short.
pub async fn admin_erasure(
    Admin(me): Admin,
    State(state): State<AppState>,
    context: Option<axum::Extension<lambda_http::Context>>,
    Path(email): Path<String>,
) -> ApiResult<Json<ErasureDone>> {
    let email = Email::parse_normalised(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid(
            "You cannot erase your own account here: ask another admin",
        ));
    }
    let deadline = deadline_of(context.as_ref().map(|c| &c.0));
    let progress = erase(
        &state,
        email.as_str(),
        &format!("admin {}", me.email),
        Allowance::until(deadline),
    )
    .await?;
    Ok(Json(ErasureDone::of(
        progress,
        "Everything the shop held about this address is erased.",
    )))
}

/// One erasure as the audit keeps it, or one still under way.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ErasureEntry {
    at: String,
    by: String,
    erased: Erased,
    /// False for an erasure cut short: asking for it again (`POST /api/user/erasure/{email}`) finishes it.
    finished: bool,
    /// The address, for an unfinished erasure only (a finished one keeps none).
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    /// Orders on their way the erasure still waits for.
    #[serde(rename = "waitingOrders")]
    waiting_orders: Vec<orders::personal::WaitingOrder>,
}

/// `GET /api/user/erasures/` (admin): erasures under way, then those made, newest first, with the orders
/// each still waits for.
pub async fn list_erasures(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<ErasureEntry>>> {
    let db = state.db();
    let mut entries = Vec::new();
    let unfinished = db
        .query()
        .table_name(state.table())
        .index_name(shared::dynamo::INDEX)
        .key_condition_expression("gsi1pk = :unfinished")
        .expression_attribute_values(":unfinished", s(UNFINISHED))
        .scan_index_forward(false)
        .limit(100)
        .send()
        .await
        .map_err(ApiError::internal)?;
    for item in unfinished.items.unwrap_or_default() {
        entries.push(ErasureEntry {
            at: text(&item, "startedAt").to_owned(),
            by: text(&item, "by").to_owned(),
            erased: counts(&item),
            finished: false,
            email: Some(text(&item, "email").to_owned()),
            waiting_orders: Vec::new(),
        });
    }
    let output = db
        .query()
        .table_name(state.table())
        .key_condition_expression("pk = :audit")
        .expression_attribute_values(":audit", s("AUDIT#ERASURE"))
        .scan_index_forward(false)
        .limit(200)
        .send()
        .await
        .map_err(ApiError::internal)?;
    for item in output.items.unwrap_or_default() {
        let waiting = shared::dynamo::get_string_list(&item, "waiting");
        let waiting_orders = if waiting.is_empty() {
            Vec::new()
        } else {
            orders::personal::still_waiting(db, &state.data_tables.orders, &waiting).await?
        };
        entries.push(ErasureEntry {
            at: text(&item, "at").to_owned(),
            by: text(&item, "by").to_owned(),
            erased: counts(&item),
            finished: true,
            email: None,
            waiting_orders,
        });
    }
    Ok(Json(entries))
}

fn counts(item: &Item) -> Erased {
    Erased {
        orders: get_n(item, "orders").unwrap_or(0),
        reviews: get_n(item, "reviews").unwrap_or(0),
        subscriptions: get_n(item, "subscriptions").unwrap_or(0),
        deleted: get_n(item, "deleted").unwrap_or(0),
    }
}
