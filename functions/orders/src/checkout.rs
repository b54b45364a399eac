//! Placing an order. The server prices every line from the catalogue (a client's price is never read),
//! applies the code and adds delivery; it then writes, in ONE transaction, the order as `pending` with its
//! reservation: each stock decrement (never below zero), the code's use (on its limits) and the idempotency
//! key (the month's results count it once paid). Any failed condition writes nothing. Only then does money move: a
//! PaymentIntent for the server's total is created, recorded on the order, and confirmed on the server;
//! `payment.rs` moves the order to paid or gives the reservation back.

use crate::order::{order_key, Line, Order, Status, StatusChange, FIRST_NUMBER};
use crate::payment::{
    payment_required, payment_unavailable, settle, settle_refusal, PaymentInput, Settlement,
};
use crate::records::idempotency_item_key;
use crate::stripe::StripeError;
use crate::AppState;
use aws_sdk_dynamodb::types::{KeysAndAttributes, Put, TransactWriteItem, Update};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use catalog::{Entity, Product};
use codes::DiscountCode;
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use shared::dynamo::{n, s, Item};
use shared::extract::Path;
use shared::json::NumberField;
use shared::money::{Pence, Percent};
use shared::rate::SourceIp;
use shared::text_schema::{text, text_or_blank, Lines};
use shared::validation::{bounded_lines, Address, Email, FullName, Phone};
use shared::{ApiError, ApiResult, Json};
use std::collections::HashMap;

pub const MAX_LINES: usize = 50;
/// Units of one drink an order may hold. Every order holds its stock while it is unpaid: without a cap a
/// few unpaid orders could keep a drink sold out (issue 24). Larger orders go through the contact form.
pub const MAX_PER_DRINK: u32 = 24;
/// Unpaid orders one e-mail address, and one viewer address, may have open at once.
pub const MAX_OPEN_UNPAID: i64 = 2;
const IDEMPOTENCY_TTL: i64 = 24 * 60 * 60;

// The checkout's rules as JSON Schema patterns (ECMA-262): each field is trimmed before its rule, so the
// patterns allow white space around the value and count the characters between its first and last visible
// ones (shared::validation's `FullName`, `Address`, `Phone`, `Email` and the order's note; `wanted_lines`).
// The length caps count the text as sent, as `maxLength` does. The name refuses control characters, the
// address and the note all but line breaks and tabs (`shared::validation::Lines`).

/// `FullName`: one line of more than 5 and at most 100 characters once trimmed.
fn fullname_pattern() -> String {
    text(Lines::One, 6, Some(100))
}
/// `Address`: more than 6 and at most 300 characters once trimmed, on as many lines as it needs.
fn address_pattern() -> String {
    text(Lines::Many, 7, Some(300))
}
/// `Phone`: 10 to 30 digits, spaces and + - ( ) once trimmed.
const PHONE_PATTERN: &str = r"^\s*[0-9+()-][0-9 +()-]{8,28}[0-9+()-]\s*$";
// `Email`: the one pattern every function's document gives e-mail addresses.
use shared::validation::EMAIL_PATTERN;
/// The note: at most 1000 characters once trimmed, on as many lines as it needs.
fn message_pattern() -> String {
    text_or_blank(Lines::Many, 1, Some(1_000))
}
/// A line's product id: 1 to 64 characters once trimmed.
const PRODUCT_ID_PATTERN: &str = r"^\s*\S([\s\S]{0,62}\S)?\s*$";
/// The code as `load_code` reads it: none when blank, else what `codes::normalise_code` accepts.
const CODE_PATTERN: &str = r"^\s*([A-Za-z0-9_-]{3,32})?\s*$";

#[derive(Deserialize, schemars::JsonSchema)]
pub struct LineInput {
    /// The drink's `_id`.
    #[schemars(regex(pattern = PRODUCT_ID_PATTERN))]
    product: String,
    #[schemars(schema_with = "units")]
    qty: NumberField,
}

/// Units of a line: a whole number from 1 to 1000, as a number or as its text.
fn units(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Units: a whole number from 1 to 1000, as a number or as text.",
        "anyOf": [
            { "type": "integer", "minimum": 1, "maximum": 1000 },
            { "type": "string", "pattern": r"^\s*\+?0*([1-9][0-9]{0,2}|1000)(\.0*)?\s*$" }
        ]
    })
}

/// An order: who it goes to, what is in it, the code and the card (as Stripe.js tokenised it). Prices are
/// never sent: the server reads them from the catalogue.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct OrderInput {
    #[schemars(regex(pattern = fullname_pattern()), length(max = 100))]
    fullname: String,
    #[schemars(regex(pattern = address_pattern()), length(max = 300))]
    address: String,
    #[schemars(regex(pattern = PHONE_PATTERN), length(max = 30))]
    phone: String,
    #[schemars(regex(pattern = EMAIL_PATTERN))]
    email: String,
    /// A note for the shop.
    #[serde(default)]
    #[schemars(regex(pattern = message_pattern()), length(max = 1_000))]
    message: String,
    /// The basket: at most 50 different drinks (the same drink twice is one line).
    #[serde(deserialize_with = "shared::json::objects")]
    #[schemars(length(min = 1, max = MAX_LINES))]
    product: Vec<LineInput>,
    /// A discount code; blank or absent for none.
    #[schemars(regex(pattern = CODE_PATTERN))]
    code: Option<String>,
    #[serde(deserialize_with = "shared::json::object")]
    payment: PaymentInput,
}

/// 202: the bank wants the shopper to confirm the payment (3-D Secure). Stripe.js takes the client secret,
/// then the browser calls `POST /api/order/confirm/{id}/`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct ActionRequired {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "clientSecret")]
    client_secret: String,
    status: NextStep,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub enum NextStep {
    #[serde(rename = "requires_action")]
    RequiresAction,
}

/// What went into the transaction, in order, so a cancellation reason can be read back as a message.
enum Step {
    Order,
    /// The order-number counter moved since it was read.
    Number,
    /// The e-mail's, then the viewer address's, count of open unpaid orders.
    OpenForEmail,
    OpenForClient,
    Stock(String),
    Code,
    CodeMark,
    Idempotency,
}

/// What `idempotency_key` accepts (white space around the key is trimmed).
pub const IDEMPOTENCY_KEY_PATTERN: &str = r"^\s*[A-Za-z0-9_-]{1,100}\s*$";

fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default().trim();
    if key.is_empty()
        || key.len() > 100
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::bad_request(
            "Idempotency-Key must be 1 to 100 letters, digits, - or _",
        ));
    }
    Ok(Some(key.to_owned()))
}

impl OrderInput {
    /// What a retry must repeat for its Idempotency-Key to stand for the same order: the buyer, the lines
    /// and the code. Not the payment: a retry tokenises the card again, so its token differs every time.
    /// SHA-256 over the fields in a fixed order, so key order in the JSON is moot.
    fn fingerprint(&self) -> String {
        let lines: Vec<_> = self
            .product
            .iter()
            .map(|line| serde_json::json!([line.product.trim(), line.qty.value("qty").ok()]))
            .collect();
        let canonical = serde_json::json!([
            self.fullname.trim(),
            self.address.trim(),
            self.phone.trim(),
            self.email.trim().to_lowercase(),
            self.message.trim(),
            lines,
            self.code.as_deref().map(str::trim),
        ]);
        let digest = ring::digest::digest(&ring::digest::SHA256, canonical.to_string().as_bytes());
        digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The answer to a retry: where the order placed earlier under this key stands (its id when paid, the 3-D
/// Secure step again, or the refusal), or 422 when the key was used for a different order; None when the
/// key is new (or its order's reservation was released, which frees the key).
async fn earlier_order(
    state: &AppState,
    key: &str,
    fingerprint: &str,
) -> Result<Option<Response>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(idempotency_item_key(key)))
        .consistent_read(true)
        .send()
        .await?;
    let Some(item) = found.item() else {
        return Ok(None);
    };
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    if text("fingerprint").is_some_and(|stored| stored != fingerprint) {
        return Err(ApiError::invalid(
            "Idempotency-Key was already used for a different order: send a new key",
        ));
    }
    let Some(id) = text("orderId") else {
        return Ok(None);
    };
    let Some(order) = find_order(state, &id).await? else {
        return Ok(None);
    };
    if order.status != Status::Pending {
        return Ok(Some(id_reply(StatusCode::OK, &order.id)));
    }
    if order.payment_intent.is_empty() {
        return Err(ApiError::conflict(
            "This order is being placed already: wait a moment",
        ));
    }
    let settled = match state.stripe.intent(&order.payment_intent).await {
        Ok(intent) => settle(state, &order, intent, true).await?,
        Err(error) => settle_refusal(state, &order, error).await?,
    };
    settlement_reply(&order.id, settled, StatusCode::OK).map(Some)
}

pub(crate) async fn find_order(state: &AppState, id: &str) -> Result<Option<Order>, ApiError> {
    if id.chars().count() > 64 {
        return Ok(None);
    }
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(id)))
        .consistent_read(true)
        .send()
        .await?;
    found
        .item()
        .map(Order::from_item)
        .transpose()
        .map_err(Into::into)
}

/// 429 for a buyer (or network) with `MAX_OPEN_UNPAID` orders waiting: each is paid or released within
/// the short hold of a 3-D Secure step, so a few minutes fix it.
fn too_many_open(what: &str) -> ApiError {
    ApiError::too_many_requests(format!(
        "{what}: pay or cancel them first, or try again in a few minutes"
    ))
    .retry_after(300)
}

pub(crate) fn id_reply(status: StatusCode, id: &str) -> Response {
    let mut response = Json(id).into_response();
    *response.status_mut() = status;
    response
}

/// The answer for a settlement: the id (`paid_status`: 201 for a new order, 200 otherwise), 202 with the
/// client secret for 3-D Secure, 402 for a refusal, 409 while Stripe is still working.
pub(crate) fn settlement_reply(
    id: &str,
    settlement: Settlement,
    paid_status: StatusCode,
) -> Result<Response, ApiError> {
    match settlement {
        Settlement::Paid => Ok(id_reply(paid_status, id)),
        Settlement::NeedsAction { client_secret } => {
            let mut response = Json(ActionRequired {
                id: id.to_owned(),
                client_secret,
                status: NextStep::RequiresAction,
            })
            .into_response();
            *response.status_mut() = StatusCode::ACCEPTED;
            Ok(response)
        }
        Settlement::Failed { message } => Err(payment_required(message)),
        Settlement::Waiting => Err(ApiError::conflict(format!(
            "Your payment is still being processed: order {id} will show as paid as soon as the bank confirms it"
        ))),
    }
}

/// Whole units from 1, per line; the same drink twice is one line.
fn wanted_lines(lines: &[LineInput]) -> Result<Vec<(String, u32)>, ApiError> {
    if lines.is_empty() {
        return Err(ApiError::invalid("product: the basket is empty"));
    }
    let mut wanted: Vec<(String, u32)> = Vec::new();
    for line in lines {
        let id = line.product.trim();
        if id.is_empty() || id.chars().count() > 64 {
            return Err(ApiError::invalid("product: every line needs a product id"));
        }
        let qty = line.qty.value("qty")?;
        if qty.fract() != 0.0 || !(1.0..=1000.0).contains(&qty) {
            return Err(ApiError::invalid(format!(
                "qty of {id} must be a whole number from 1 to 1000"
            )));
        }
        match wanted.iter_mut().find(|(existing, _)| existing == id) {
            Some((_, total)) => *total += qty as u32,
            None => wanted.push((id.to_owned(), qty as u32)),
        }
    }
    if let Some((id, _)) = wanted.iter().find(|(_, qty)| *qty > MAX_PER_DRINK) {
        return Err(ApiError::invalid(format!(
            "qty of {id}: at most {MAX_PER_DRINK} of one drink in an order (for more, write to us through the contact page)"
        )));
    }
    if wanted.len() > MAX_LINES {
        return Err(ApiError::invalid(format!(
            "product: at most {MAX_LINES} different drinks an order"
        )));
    }
    Ok(wanted)
}

async fn load_products(
    state: &AppState,
    ids: &[String],
) -> Result<HashMap<String, Product>, ApiError> {
    let keys: Vec<Item> = ids
        .iter()
        .map(|id| {
            Item::from([
                ("pk".to_owned(), s(format!("PRODUCT#{id}"))),
                ("sk".to_owned(), s("PRODUCT")),
            ])
        })
        .collect();
    let mut request = Some(
        KeysAndAttributes::builder()
            .set_keys(Some(keys))
            .consistent_read(true)
            .build()
            .map_err(ApiError::internal)?,
    );
    let mut found = HashMap::new();
    while let Some(keys) = request.take() {
        let reply = state
            .db
            .batch_get_item()
            .request_items(&state.tables.catalog, keys)
            .send()
            .await?;
        for item in reply
            .responses()
            .and_then(|r| r.get(&state.tables.catalog))
            .into_iter()
            .flatten()
        {
            let product = Product::from_item(item)?;
            found.insert(product.id.clone(), product);
        }
        request = reply
            .unprocessed_keys()
            .and_then(|u| u.get(&state.tables.catalog))
            .filter(|k| !k.keys().is_empty())
            .cloned();
    }
    Ok(found)
}

/// The code's rate, or why it cannot be used.
async fn load_code(
    state: &AppState,
    raw: Option<&str>,
    now: i64,
) -> Result<Option<DiscountCode>, ApiError> {
    let Some(raw) = raw.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let text = codes::normalise_code(raw)
        .map_err(|_| ApiError::invalid("code: this code does not exist"))?;
    let store = shared::store::Store::new(state.db.clone(), state.tables.codes.clone());
    let code = store
        .get::<DiscountCode>(&text)
        .await?
        .ok_or_else(|| ApiError::invalid("code: this code does not exist"))?;
    if let Some(why) = code.refusal(now) {
        return Err(ApiError::invalid(format!("code: {why}")));
    }
    Ok(Some(code))
}

pub struct Priced {
    pub lines: Vec<Line>,
    pub subtotal: Pence,
    pub discount: Pence,
    pub shipping: Pence,
    pub total: Pence,
}

/// Prices lines from the catalogue: each unit at the product's discounted price, the code off the
/// subtotal (half-up to the penny), then delivery unless the discounted subtotal reaches the threshold.
pub fn price(lines: Vec<Line>, rate: Percent, delivery: crate::Delivery) -> Priced {
    let subtotal = lines.iter().fold(Pence::ZERO, |sum, l| {
        sum.plus(Pence::new(l.price_pence).unwrap_or_default().times(l.qty))
    });
    let after_code = subtotal.less_percent(rate);
    let discount = subtotal.minus(after_code);
    let shipping = if after_code >= delivery.free_from {
        Pence::ZERO
    } else {
        delivery.fee
    };
    Priced {
        lines,
        subtotal,
        discount,
        shipping,
        total: after_code.plus(shipping),
    }
}

pub async fn create_order(
    State(state): State<AppState>,
    SourceIp(client): SourceIp,
    headers: HeaderMap,
    Json(input): Json<OrderInput>,
) -> ApiResult<Response> {
    // The key with what it stands for; an order without a key computes nothing here.
    let idempotency = idempotency_key(&headers)?.map(|key| {
        let fingerprint = input.fingerprint();
        (key, fingerprint)
    });
    if let Some((key, fingerprint)) = &idempotency {
        if let Some(reply) = earlier_order(&state, key, fingerprint).await? {
            return Ok(reply);
        }
    }
    let fullname = FullName::parse(&input.fullname)?;
    let email = Email::parse_normalised(&input.email)?;
    let phone = Phone::parse(&input.phone)?;
    let address = Address::parse(&input.address)?;
    let message = bounded_lines("message", &input.message, 1_000)?;
    let payment_method = input.payment.method()?;
    let wanted = wanted_lines(&input.product)?;
    let now_unix = shared::time::now_unix();

    let ids: Vec<String> = wanted.iter().map(|(id, _)| id.clone()).collect();
    let products = load_products(&state, &ids).await?;
    let mut lines = Vec::with_capacity(wanted.len());
    for (id, qty) in &wanted {
        let product = products
            .get(id)
            .ok_or_else(|| ApiError::invalid(format!("product {id} does not exist")))?;
        if product.stock < *qty {
            return Err(ApiError::conflict(if product.stock == 0 {
                format!("{} is sold out", product.name)
            } else {
                format!("Only {} of {} left", product.stock, product.name)
            }));
        }
        lines.push(Line {
            product: id.clone(),
            name: product.name.clone(),
            image: product.image.first().cloned().unwrap_or_default(),
            qty: *qty,
            quantity: product.qty.clone(),
            price_pence: product.discount_price().pence(),
        });
    }
    let code = load_code(&state, input.code.as_deref(), now_unix).await?;
    let rate = code.as_ref().map(|c| c.discount).unwrap_or(Percent::ZERO);
    let priced = price(lines, rate, state.delivery);
    // Prices include VAT at the site info's rate: the order keeps the rate and the VAT of its total.
    let trader = state.trader().await?;
    // The order records the version of the terms it is sold under (the content function keeps them).
    let terms_version = content::versions::current_terms_version(
        &state.db,
        &state.tables.content,
        &trader,
        &state.delivery,
    )
    .await?;

    // The card as Stripe knows it (brand and last four for the order), before anything is reserved.
    let card = match state.stripe.payment_method(payment_method).await {
        Ok(method) => method.card.unwrap_or(crate::stripe::CardDetails {
            brand: String::new(),
            last4: String::new(),
        }),
        Err(StripeError::Refused { .. }) => {
            return Err(ApiError::invalid(
                "payment: this card could not be read: enter it again",
            ))
        }
        Err(error) => return Err(ApiError::internal(error)),
    };

    let now = shared::time::now_iso();
    let mut order = Order {
        id: uuid::Uuid::new_v4().to_string(),
        number: None,
        carrier: None,
        tracking_number: None,
        archived_at: None,
        history: vec![StatusChange {
            status: Status::Pending,
            at: now.clone(),
        }],
        terms_version: Some(terms_version),
        lines: priced.lines,
        subtotal: priced.subtotal,
        discount: priced.discount,
        shipping: priced.shipping,
        total: priced.total,
        vat_rate: Some(trader.vat_rate),
        vat: Some(trader.vat_in(priced.total)),
        code: code.as_ref().map(|c| c.code.clone()),
        code_rate: rate,
        code_marked: code.as_ref().is_some_and(|c| c.once_per_email),
        status: Status::Pending,
        fullname: fullname.into_inner(),
        address: address.into_inner(),
        phone: phone.into_inner(),
        email: email.into_inner(),
        message,
        card_brand: card.brand,
        card_last4: card.last4,
        payment_intent: String::new(),
        hold_until: now_unix + state.hold_seconds,
        idempotency_key: idempotency.as_ref().map(|(key, _)| key.clone()),
        refund_id: None,
        client,
        created_at: now.clone(),
        updated_at: now,
        version: 1,
    };

    // The order's number comes from a counter written in the same transaction, so a number is used exactly
    // when its order exists: none is skipped or reused. Two checkouts that read the same counter race; the
    // loser reads it again and tries with the next number.
    let mut attempt = 0;
    loop {
        let last = last_number(&state).await?;
        order.number = Some(last.map_or(FIRST_NUMBER, |n| n + 1));
        let (items, steps) = transaction(
            &state,
            &order,
            last,
            idempotency.as_ref().map(|(k, f)| (k.as_str(), f.as_str())),
            now_unix,
        )?;
        let Err(failed) = crate::payment::run(&state, items).await else {
            break;
        };
        let step = failed.step.and_then(|index| steps.get(index));
        if (failed.conflict || matches!(step, Some(Step::Number))) && attempt < NUMBER_ATTEMPTS {
            attempt += 1;
            let jitter = uuid::Uuid::new_v4().as_u128() % 20;
            tokio::time::sleep(std::time::Duration::from_millis(5 + jitter as u64)).await;
            continue;
        }
        return match step {
            Some(Step::Idempotency) => {
                // Only a keyed order writes the key item, so the step implies the key.
                let Some((key, fingerprint)) = idempotency.as_ref() else {
                    return Err(ApiError::internal("an idempotency step without a key"));
                };
                match earlier_order(&state, key, fingerprint).await? {
                    Some(reply) => Ok(reply),
                    None => Err(ApiError::conflict(
                        "This order is being placed already: wait a moment",
                    )),
                }
            }
            Some(Step::Stock(id)) => {
                let name = products
                    .get(id)
                    .map(|p| p.name.as_str())
                    .unwrap_or("a drink");
                Err(ApiError::conflict(format!(
                    "{name} just sold out: change the quantity and try again"
                )))
            }
            Some(Step::OpenForEmail) => Err(too_many_open(
                "This e-mail address has unpaid orders waiting for their payment",
            )),
            Some(Step::OpenForClient) => Err(too_many_open(
                "Your network has unpaid orders waiting for their payment",
            )),
            Some(Step::Code) => Err(ApiError::invalid("code: this code can no longer be used")),
            Some(Step::CodeMark) => Err(ApiError::invalid("code: you have used this code already")),
            _ => Err(failed.error),
        };
    }

    // The reservation stands; now the money. The intent's id is on the order before it is confirmed, so
    // the webhook and the expiry job can always find out what happened.
    let intent = match state
        .stripe
        .create_intent(order.total, payment_method, &order.id)
        .await
    {
        Ok(intent) => intent,
        Err(error) => {
            let settled = settle_refusal(&state, &order, error).await?;
            if let Settlement::Waiting = settled {
                // Nothing was confirmed: give the reservation back now rather than in half an hour.
                crate::payment::release(&state, &order, Status::Expired, None).await?;
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "We could not reach the bank: nothing was charged. Please try again in a moment.",
                ));
            }
            return settlement_reply(&order.id, settled, StatusCode::CREATED);
        }
    };
    record_intent(&state, &order, &intent.id).await?;
    order.payment_intent = intent.id.clone();
    let settled = match state.stripe.confirm_intent(&intent.id, &order.id).await {
        Ok(confirmed) => settle(&state, &order, confirmed, false).await?,
        Err(error) => settle_refusal(&state, &order, error).await?,
    };
    if let Settlement::Waiting = settled {
        return Err(payment_unavailable(&order.id));
    }
    settlement_reply(&order.id, settled, StatusCode::CREATED)
}

/// After the browser's 3-D Secure step: the server asks Stripe where the payment stands (and confirms it
/// when Stripe waits for that), never taking the browser's word. 200 with the id once paid.
pub async fn confirm_order(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let order = find_order(&state, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has this id"))?;
    match order.status {
        Status::Pending => {}
        Status::Expired | Status::Cancelled => return Err(payment_required(
            "This payment did not complete, so nothing was charged. Please place the order again.",
        )),
        _ => return Ok(id_reply(StatusCode::OK, &order.id)),
    }
    if order.payment_intent.is_empty() {
        return Err(ApiError::conflict(
            "This order is being placed already: wait a moment",
        ));
    }
    let settled = match state.stripe.intent(&order.payment_intent).await {
        Ok(intent) => settle(&state, &order, intent, true).await?,
        Err(error) => settle_refusal(&state, &order, error).await?,
    };
    if let Settlement::NeedsAction { .. } = settled {
        return Err(ApiError::conflict(
            "Your bank is still waiting for you to confirm this payment",
        ));
    }
    settlement_reply(&order.id, settled, StatusCode::OK)
}

/// What the checkout needs to draw Stripe's card fields.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct PaymentSettings {
    /// Stripe's publishable key (empty when none is set).
    #[serde(rename = "publishableKey")]
    publishable_key: String,
    /// Where Stripe.js is loaded from.
    #[serde(rename = "jsUrl")]
    js_url: String,
    /// The UK delivery charge in pounds, as every order is priced (the one source for every page that
    /// names it: drink pages, cards, the basket, the delivery policy, the checkout).
    #[serde(rename = "deliveryFee")]
    delivery_fee: Pence,
    /// Delivery is free from this basket value in pounds, after the code's discount.
    #[serde(rename = "freeDeliveryFrom")]
    free_delivery_from: Pence,
}

/// What the checkout needs to draw Stripe's card fields, and the delivery terms every order is priced by.
pub async fn show_payment_settings(State(state): State<AppState>) -> Json<PaymentSettings> {
    Json(PaymentSettings {
        publishable_key: state.payment_settings.publishable_key.clone(),
        js_url: state.payment_settings.js_url.clone(),
        delivery_fee: state.delivery.fee,
        free_delivery_from: state.delivery.free_from,
    })
}

/// Notes the PaymentIntent on the pending order, and the way back from the intent to the order (a charge's
/// events name the intent, not the order).
async fn record_intent(state: &AppState, order: &Order, intent: &str) -> Result<(), ApiError> {
    let on_order = Update::builder()
        .table_name(&state.tables.orders)
        .set_key(Some(order_key(&order.id)))
        .update_expression("SET paymentIntent = :intent")
        .condition_expression("#status = :pending")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":intent", s(intent))
        .expression_attribute_values(":pending", s(Status::Pending.as_str()))
        .build()
        .map_err(ApiError::internal)?;
    let mut link = intent_key(intent);
    link.insert("orderId".to_owned(), s(&order.id));
    let link = Put::builder()
        .table_name(&state.tables.orders)
        .set_item(Some(link))
        .build()
        .map_err(ApiError::internal)?;
    state
        .db
        .transact_write_items()
        .transact_items(TransactWriteItem::builder().update(on_order).build())
        .transact_items(TransactWriteItem::builder().put(link).build())
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

pub(crate) fn intent_key(intent: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("INTENT#{intent}"))),
        ("sk".to_owned(), s("INTENT")),
    ])
}

/// The order a PaymentIntent was made for.
pub(crate) async fn order_of_intent(
    state: &AppState,
    intent: &str,
) -> Result<Option<String>, ApiError> {
    if intent.is_empty() || intent.len() > 255 {
        return Ok(None);
    }
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(intent_key(intent)))
        .send()
        .await?;
    Ok(found
        .item()
        .and_then(|item| item.get("orderId"))
        .and_then(|v| v.as_s().ok())
        .cloned())
}

/// How often a checkout reads the number counter again after losing a race for it (each loser of a round
/// goes again, so a burst of N checkouts needs up to N rounds).
const NUMBER_ATTEMPTS: u32 = 100;

/// The order-number counter's item.
fn number_counter_key() -> Item {
    Item::from([
        ("pk".to_owned(), s("COUNTER#ORDER-NUMBER")),
        ("sk".to_owned(), s("COUNTER")),
    ])
}

/// The last order number given, read consistently (`None` before the first order).
async fn last_number(state: &AppState) -> Result<Option<u64>, ApiError> {
    let found = state
        .db
        .get_item()
        .table_name(&state.tables.orders)
        .set_key(Some(number_counter_key()))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found
        .item()
        .and_then(|item| shared::dynamo::get_n::<u64>(item, "last").ok()))
}

/// Moves the counter from `last` (as read) to the order's number, only if nobody moved it meanwhile.
fn number_update(
    table: &str,
    last: Option<u64>,
    number: u64,
) -> Result<TransactWriteItem, ApiError> {
    let update = Update::builder()
        .table_name(table)
        .set_key(Some(number_counter_key()))
        .update_expression("SET #last = :number")
        .expression_attribute_names("#last", "last")
        .expression_attribute_values(":number", n(number));
    let update = match last {
        Some(last) => update
            .condition_expression("#last = :read")
            .expression_attribute_values(":read", n(last)),
        None => update.condition_expression("attribute_not_exists(#last)"),
    };
    Ok(TransactWriteItem::builder()
        .update(update.build().map_err(ApiError::internal)?)
        .build())
}

fn transaction(
    state: &AppState,
    order: &Order,
    last_number: Option<u64>,
    idempotency: Option<(&str, &str)>,
    now: i64,
) -> Result<(Vec<TransactWriteItem>, Vec<Step>), ApiError> {
    let tables = &state.tables;
    let mut items = Vec::new();
    let mut steps = Vec::new();
    let put =
        |item: Item, condition: Option<&str>, table: &str| -> Result<TransactWriteItem, ApiError> {
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(item))
                .set_condition_expression(condition.map(str::to_owned))
                .build()
                .map_err(ApiError::internal)?;
            Ok(TransactWriteItem::builder().put(put).build())
        };

    items.push(put(
        order.to_item(),
        Some("attribute_not_exists(pk)"),
        &tables.orders,
    )?);
    steps.push(Step::Order);
    for (key, step) in crate::payment::open_unpaid_keys(order) {
        let update = Update::builder()
            .table_name(&tables.orders)
            .set_key(Some(key))
            .update_expression("ADD #open :one")
            .condition_expression("attribute_not_exists(#open) OR #open < :max")
            .expression_attribute_names("#open", "open")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(MAX_OPEN_UNPAID))
            .build()
            .map_err(ApiError::internal)?;
        items.push(TransactWriteItem::builder().update(update).build());
        steps.push(if step {
            Step::OpenForClient
        } else {
            Step::OpenForEmail
        });
    }
    for line in &order.lines {
        items.push(catalog::take_stock(
            &tables.catalog,
            &line.product,
            line.qty,
        )?);
        steps.push(Step::Stock(line.product.clone()));
    }
    if let Some(code) = &order.code {
        items.push(codes::use_in_transaction(&tables.codes, code, now)?);
        steps.push(Step::Code);
        if order.code_marked {
            let mut mark = codes::use_marker(code, &order.email);
            mark.insert("orderId".to_owned(), s(&order.id));
            items.push(put(mark, Some("attribute_not_exists(pk)"), &tables.codes)?);
            steps.push(Step::CodeMark);
        }
    }
    if let Some((key, fingerprint)) = idempotency {
        let mut item = idempotency_item_key(key);
        item.extend([
            ("orderId".to_owned(), s(&order.id)),
            ("fingerprint".to_owned(), s(fingerprint)),
            ("expiresAt".to_owned(), n(now + IDEMPOTENCY_TTL)),
        ]);
        items.push(put(item, Some("attribute_not_exists(pk)"), &tables.orders)?);
        steps.push(Step::Idempotency);
    }
    // Last, so a refusal for stock or a code is reported before a lost race for the number.
    if let Some(number) = order.number {
        items.push(number_update(&tables.orders, last_number, number)?);
        steps.push(Step::Number);
    }
    Ok((items, steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(price_pence: i64, qty: u32) -> Line {
        Line {
            product: "p".into(),
            name: "n".into(),
            image: String::new(),
            qty,
            quantity: "6".into(),
            price_pence,
        }
    }

    fn delivery() -> crate::Delivery {
        crate::Delivery {
            fee: Pence::new(499).unwrap(),
            free_from: Pence::new(4000).unwrap(),
        }
    }

    #[test]
    fn three_at_one_ninety_nine_with_fifteen_percent_is_five_oh_seven() {
        let priced = price(vec![line(199, 3)], Percent::new(15.0).unwrap(), delivery());
        assert_eq!(priced.subtotal.pence(), 597);
        assert_eq!(priced.discount.pence(), 90);
        assert_eq!(priced.shipping.pence(), 499);
        assert_eq!(priced.total.pence(), 507 + 499);
    }

    #[test]
    fn delivery_is_free_from_the_threshold_after_the_code() {
        let at = price(vec![line(2000, 2)], Percent::ZERO, delivery());
        assert_eq!((at.shipping.pence(), at.total.pence()), (0, 4000));
        let below = price(vec![line(2000, 2)], Percent::new(10.0).unwrap(), delivery());
        assert_eq!(
            (below.shipping.pence(), below.total.pence()),
            (499, 3600 + 499)
        );
    }

    #[test]
    fn the_same_drink_twice_is_one_line_and_bad_quantities_are_named() {
        let lines: Vec<LineInput> = serde_json::from_value(serde_json::json!([
            {"product": "a", "qty": 1}, {"product": "a", "qty": "2"}, {"product": "b", "qty": 1}
        ]))
        .unwrap();
        assert_eq!(
            wanted_lines(&lines).unwrap(),
            vec![("a".to_owned(), 3), ("b".to_owned(), 1)]
        );
        for qty in [
            serde_json::json!(0),
            serde_json::json!(1.5),
            serde_json::json!(-1),
            serde_json::json!(1001),
        ] {
            let lines: Vec<LineInput> =
                serde_json::from_value(serde_json::json!([{"product": "a", "qty": qty}])).unwrap();
            assert_eq!(
                wanted_lines(&lines).unwrap_err().message(),
                "qty of a must be a whole number from 1 to 1000"
            );
        }
    }
}
