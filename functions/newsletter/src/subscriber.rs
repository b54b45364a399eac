//! A subscriber: one per e-mail address, on one or more mail lists. The id is derived from the address, so
//! signing up again finds the same record and merges the lists instead of adding a second one. Sign-ups are
//! rate-limited per address and per source address; the answer is the same for a new and a known address,
//! so the form cannot be used to learn who is subscribed.

use crate::links::{self, id_of, is_subscriber_id};
use crate::AppState;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use axum::extract::State;
use serde::Serialize;
use shared::auth::Admin;
use shared::dynamo::{
    get_s, get_s_or_default, get_string_list, n, s, string_list, Item, ItemError,
};
use shared::extract::{Path, Query};
use shared::json::Message;
use shared::mail::{branded_html, escape_html, Mail};
use shared::outbox::QueuedMail;
use shared::paging::{Page, PageQuery};
use shared::store::{not_found, stored_item, version_of, Entity};
use shared::validation::Email;
use shared::{ApiError, ApiResult, Json};

const PER_PAGE: usize = 20;

#[derive(Debug, Clone, PartialEq)]
pub struct Subscriber {
    pub id: String,
    pub email: String,
    pub fullname: String,
    pub lists: Vec<String>,
    /// Creation time in nanoseconds, zero-padded: the list's order (ISO times tie within a second).
    pub order: String,
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
}

/// A subscriber as the admin sees them.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Subscriber")]
struct SubscriberJson<'a> {
    /// Derived from the address: 32 hex digits.
    #[serde(rename = "_id")]
    id: &'a str,
    email: &'a str,
    /// Empty when the sign-up gave none.
    fullname: &'a str,
    /// The mail lists they are on.
    lists: &'a [String],
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    #[serde(rename = "updatedAt")]
    updated_at: &'a str,
}

impl Serialize for Subscriber {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SubscriberJson {
            id: &self.id,
            email: &self.email,
            fullname: &self.fullname,
            lists: &self.lists,
            created_at: &self.created_at,
            updated_at: &self.updated_at,
        }
        .serialize(serializer)
    }
}

impl schemars::JsonSchema for Subscriber {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        SubscriberJson::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SubscriberJson::json_schema(generator)
    }
}

impl Entity for Subscriber {
    const KIND: &'static str = "SUBSCRIBER";
    const NOUN: &'static str = "subscriber";

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        format!("{}#{}", self.order, self.id)
    }

    fn to_attributes(&self) -> Item {
        Item::from([
            ("id".to_owned(), s(&self.id)),
            ("email".to_owned(), s(&self.email)),
            ("fullname".to_owned(), s(&self.fullname)),
            ("lists".to_owned(), string_list(&self.lists)),
            ("order".to_owned(), s(&self.order)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ])
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        Ok(Subscriber {
            id: get_s(item, "id")?,
            email: get_s(item, "email")?,
            fullname: get_s_or_default(item, "fullname"),
            lists: get_string_list(item, "lists"),
            order: get_s(item, "order")?,
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
        })
    }
}

/// A subscriber's item as sign-up stores it, for loading many at once (the mail benchmark, tests): no
/// welcome, no rate limit.
pub fn stored_subscriber(email: &str, lists: &[String], order: u64) -> Result<Item, ApiError> {
    let email = Email::parse_normalised(email)?;
    let at = shared::time::now_iso();
    let subscriber = Subscriber {
        id: id_of(&email),
        email: email.into_inner(),
        fullname: String::new(),
        lists: lists.to_vec(),
        order: format!("{order:020}"),
        created_at: at.clone(),
        updated_at: at,
        version: 1,
    };
    Ok(stored_item(&subscriber, 1))
}

/// The writes that put `email` on `lists` (a new subscriber, or the lists added to a known one), with the
/// list counts moved in the same transaction and, for a new address only, the welcome as an outbox item:
/// the caller runs them in one transaction with its own, then queues the welcome. The confirmed step of a
/// sign-up.
pub async fn join(
    state: &AppState,
    email: Email,
    fullname: String,
    lists: Vec<String>,
) -> Result<(Vec<TransactWriteItem>, Option<shared::outbox::Pending>), ApiError> {
    let id = id_of(&email);
    let at = shared::time::now_iso();
    let existing = state.store.get::<Subscriber>(&id).await?;
    let is_new = existing.is_none();
    let mut writes = Vec::new();
    let mut moves: Vec<(Vec<String>, i64)> = Vec::new();
    let (subscriber, put) = match existing {
        Some(mut known) => {
            let mut merged = known.lists.clone();
            merged.extend(lists);
            let before =
                std::mem::replace(&mut known.lists, state.lists.resolve("lists", &merged)?);
            if before != known.lists {
                moves.push((before, -1));
                moves.push((known.lists.clone(), 1));
            }
            if known.fullname.is_empty() {
                known.fullname = fullname;
            }
            known.updated_at = at;
            let put = Put::builder()
                .table_name(&*state.table)
                .set_item(Some(stored_item(&known, known.version + 1)))
                .condition_expression("version = :read")
                .expression_attribute_values(":read", n(known.version));
            (known, put)
        }
        None => {
            let fresh = Subscriber {
                id,
                email: email.into_inner(),
                fullname,
                lists,
                order: format!(
                    "{:020}",
                    time::OffsetDateTime::now_utc()
                        .unix_timestamp_nanos()
                        .max(0)
                ),
                created_at: at.clone(),
                updated_at: at,
                version: 1,
            };
            let put = Put::builder()
                .table_name(&*state.table)
                .set_item(Some(stored_item(&fresh, 1)))
                .condition_expression("attribute_not_exists(pk)");
            moves.push((fresh.lists.clone(), 1));
            (fresh, put)
        }
    };
    // The list counts move with the subscriber, in the same transaction.
    for (lists, delta) in &moves {
        writes.push(count_update(&state.table, lists, *delta)?);
    }
    writes.push(
        TransactWriteItem::builder()
            .put(put.build().map_err(ApiError::internal)?)
            .build(),
    );
    // Welcome only a new address, and only if the join commits: the welcome is an outbox item in the same
    // transaction.
    let welcome = if is_new {
        let token = state.unsubscribe.token(&subscriber.id);
        let link = links::link(state, &subscriber.id);
        let mut queued = QueuedMail::new(welcome(state, &subscriber, &link));
        queued.headers = links::headers(state, &link, &token);
        let (item, pending) = state.outbox.put(&queued)?;
        writes.push(item);
        Some(pending)
    } else {
        None
    };
    Ok((writes, welcome))
}

/// Whether `email` is on every one of `lists` already (a sign-up for them needs no confirmation).
pub async fn is_on_all(
    state: &AppState,
    email: &Email,
    lists: &[String],
) -> Result<bool, ApiError> {
    Ok(state
        .store
        .get::<Subscriber>(&id_of(email))
        .await?
        .is_some_and(|known| lists.iter().all(|list| known.lists.contains(list))))
}

fn welcome(state: &AppState, subscriber: &Subscriber, unsubscribe: &str) -> Mail {
    let greeting = if subscriber.fullname.is_empty() {
        "Hello,".to_owned()
    } else {
        format!("Hello {},", subscriber.fullname)
    };
    let lists = subscriber.lists.join(", ");
    let html = format!(
        "<p>{}</p><p>Thank you for subscribing to {} from {}.</p>\
         <p style=\"font-size:13px\">Not for you? <a href=\"{}\">Unsubscribe</a> at any time.</p>",
        escape_html(&greeting),
        escape_html(&lists),
        escape_html(&state.shop_name),
        escape_html(unsubscribe)
    );
    Mail {
        to: subscriber.email.clone(),
        subject: format!("Welcome to {}", state.shop_name),
        html: branded_html(&state.shop_name, "Welcome", &html),
        text: format!(
            "{greeting}\n\nThank you for subscribing to {lists} from {}.\n\nUnsubscribe at any time: {unsubscribe}\n",
            state.shop_name
        ),
        reply_to: None,
    }
}

/// GET /api/subscription/?pageNumber=n: subscribers newest first, in the paged envelope.
pub async fn list_subscribers(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<Subscriber>>> {
    let page = query.page()?;
    let mut all = state.store.list::<Subscriber>().await?;
    all.reverse();
    Ok(Json(Page::of(all, page, PER_PAGE)))
}

/// DELETE /api/subscription/delete/{id}: 200 `{message}`, 404 for an unknown id.
pub async fn delete_subscriber(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    if !is_subscriber_id(&id) {
        return Err(not_found::<Subscriber>());
    }
    if !remove(&state, &id).await? {
        return Err(not_found::<Subscriber>());
    }
    Ok(Message::new("The subscriber was removed"))
}

/// The partition of the list counts: one item per combination of lists subscribers are on, with how many
/// are on exactly that combination. A mailing's recipients (on any of its lists, once each) are the sum
/// over the combinations that share a list with it: a read of a handful of items, whatever the lists' size.
pub(crate) const COUNTS: &str = "LISTCOUNT";

pub(crate) fn count_key(lists: &[String]) -> shared::dynamo::Item {
    shared::dynamo::Item::from([
        ("pk".to_owned(), shared::dynamo::s(COUNTS)),
        ("sk".to_owned(), shared::dynamo::s(lists.join("|"))),
    ])
}

/// Moves the count of subscribers on exactly `lists` by `delta`, for the transaction that adds, changes
/// or removes such a subscriber.
pub fn count_update(
    table: &str,
    lists: &[String],
    delta: i64,
) -> Result<TransactWriteItem, ApiError> {
    let update = aws_sdk_dynamodb::types::Update::builder()
        .table_name(table)
        .set_key(Some(count_key(lists)))
        .update_expression("ADD subscribers :delta SET lists = :lists")
        .expression_attribute_values(":delta", n(delta))
        .expression_attribute_values(":lists", string_list(lists))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// How many subscribers are on any of `lists`, each counted once, from the list counts.
pub async fn count_on_any(state: &AppState, lists: &[String]) -> Result<u64, ApiError> {
    let mut total: i64 = 0;
    let mut start = None;
    loop {
        let page = state
            .db
            .query()
            .table_name(&*state.table)
            .key_condition_expression("pk = :counts")
            .expression_attribute_values(":counts", shared::dynamo::s(COUNTS))
            .consistent_read(true)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in page.items() {
            if get_string_list(item, "lists")
                .iter()
                .any(|l| lists.contains(l))
            {
                total += shared::dynamo::get_n::<i64>(item, "subscribers").unwrap_or(0);
            }
        }
        match page.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => return Ok(total.max(0) as u64),
        }
    }
}

/// Removes subscriber `id` and their place in the list counts, in one transaction conditional on the
/// version read (a sign-up changing their lists meanwhile makes it read again). Answers whether there was
/// such a subscriber.
pub async fn remove(state: &AppState, id: &str) -> Result<bool, ApiError> {
    for _ in 0..3 {
        let Some(known) = state.store.get::<Subscriber>(id).await? else {
            return Ok(false);
        };
        let delete = aws_sdk_dynamodb::types::Delete::builder()
            .table_name(&*state.table)
            .key(
                "pk",
                shared::dynamo::s(format!("{}#{id}", Subscriber::KIND)),
            )
            .key("sk", shared::dynamo::s(Subscriber::KIND))
            .condition_expression("version = :read")
            .expression_attribute_values(":read", n(known.version))
            .build()
            .map_err(ApiError::internal)?;
        let result = state
            .db
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .transact_items(count_update(&state.table, &known.lists, -1)?)
            .send()
            .await;
        match result {
            Ok(_) => return Ok(true),
            Err(error)
                if error
                    .as_service_error()
                    .is_some_and(|e| e.is_transaction_canceled_exception()) => {}
            Err(error) => return Err(ApiError::internal(error)),
        }
    }
    Err(ApiError::conflict(
        "This subscriber was changed meanwhile: try again",
    ))
}
