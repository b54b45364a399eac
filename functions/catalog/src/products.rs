//! The drinks' routes: the admin's form, checked here before it is stored (the server owns `_id`,
//! `Discountprice` and the timestamps), and the shop's reads. The stored drink is product.rs's.

use crate::food::{self, AllergenInput, FoodInfo, NutritionInput};
use crate::pricing::{self, parse_date, Promotion};
use crate::product::Product;
use crate::statements::{self, StatementId};
use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::extract::Path;
use shared::json::{Created, Message, NumberField, Object, PriceField, WholeNumber};
use shared::money::{Pence, Percent};
use shared::store::{new_id, not_found};
use shared::text_schema::{text, text_or_blank, Lines};
use shared::validation::{bounded_lines, bounded_text, without_controls, Name, UploadName};
use shared::{ApiError, ApiResult, Json};

const MAX_SORT: u32 = 1_000_000;
const MAX_STOCK: u32 = 1_000_000;
const MAX_IMAGES: usize = 20;

/// What the admin sends to create or update a drink. Every field is optional here so an update can send
/// just what changed; create insists on the essentials. Fields the server owns are ignored if sent.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ProductInput {
    /// Required on create.
    #[schemars(regex(pattern = text(Lines::One, 3, None)), length(max = 120))]
    name: Option<String>,
    #[schemars(regex(pattern = text_or_blank(Lines::Many, 1, None)), length(max = 2_000))]
    des: Option<String>,
    #[schemars(regex(pattern = text_or_blank(Lines::Many, 1, None)), length(max = 10_000))]
    des2: Option<String>,
    #[schemars(with = "Option<WholeNumber<0, MAX_SORT>>")]
    sort: Option<NumberField>,
    #[serde(rename = "Isdefault")]
    is_default: Option<bool>,
    /// Pounds, above 0, at most two decimals. Required on create.
    #[schemars(with = "Option<PriceField>")]
    price: Option<NumberField>,
    /// The pack label, e.g. "24 x 330ml". Required on create.
    #[schemars(regex(pattern = text(Lines::One, 1, None)), length(max = 60))]
    qty: Option<String>,
    #[serde(rename = "TheNumber")]
    #[schemars(with = "Option<WholeNumber<0, MAX_STOCK>>")]
    stock: Option<NumberField>,
    #[schemars(length(max = MAX_IMAGES))]
    image: Option<Vec<UploadNameInput>>,
    /// A whole percentage.
    #[schemars(with = "Option<WholeNumber<0, 100>>")]
    discount: Option<NumberField>,
    /// A category's `_id`, or empty for none.
    #[schemars(regex(pattern = text_or_blank(Lines::One, 1, None)))]
    category: Option<String>,
    /// The ingredients, allergens marked `*like this*`.
    #[schemars(regex(pattern = text_or_blank(Lines::Many, 1, None)), length(max = food::MAX_INGREDIENTS))]
    ingredients: Option<String>,
    /// Of the 14 regulated allergens, those the drink contains.
    #[schemars(length(max = 14))]
    allergens: Option<Vec<AllergenInput>>,
    /// Per 100 ml, every value required; `null` clears it.
    #[serde(default, deserialize_with = "shared::json::present")]
    nutrition: Option<Option<Object<NutritionInput>>>,
    /// Milligrams per litre, a whole number; `null` for a drink without added caffeine.
    #[serde(
        rename = "caffeineMgPerLitre",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(range(min = 0, max = 2_000))]
    caffeine_mg_per_litre: Option<Option<f64>>,
    #[schemars(regex(pattern = text_or_blank(Lines::One, 1, None)), length(max = food::MAX_STORAGE))]
    storage: Option<String>,
    /// The Annex III statements the label carries; `high-caffeine` follows `caffeineMgPerLitre` whatever
    /// is sent.
    #[schemars(length(max = 7))]
    statements: Option<Vec<StatementId>>,
    /// The discount's first day, `YYYY-MM-DD` (UK days); the day it is saved when a discount is given
    /// without one; `null` clears it.
    #[serde(
        rename = "promotionStart",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(regex(pattern = DATE_PATTERN))]
    promotion_start: Option<Option<String>>,
    /// The discount's last day, `YYYY-MM-DD`, not before the first; `null` runs it until changed.
    #[serde(
        rename = "promotionEnd",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(regex(pattern = DATE_PATTERN))]
    promotion_end: Option<Option<String>>,
}

/// A calendar day as the API writes it.
const DATE_PATTERN: &str = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

fn day(field: &str, text: &str) -> Result<time::Date, ApiError> {
    parse_date(text).ok_or_else(|| {
        ApiError::invalid(format!(
            "{field} must be a day written YYYY-MM-DD, e.g. 2026-04-01"
        ))
    })
}

/// The body of `POST /api/product/create/`: a `ProductInput` with the essentials required (the document's
/// view of what `missing_for_create` checks).
pub struct NewProductInput;

impl schemars::JsonSchema for NewProductInput {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NewProductInput".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        shared::openapi::requiring::<ProductInput>(
            generator,
            "A new drink: name, price and pack label required, the rest as on update.",
            &["name", "price", "qty"],
        )
    }
}

/// An uploaded image's name, as `POST /api/upload/` answered it.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct UploadNameInput(
    #[schemars(regex(pattern = shared::validation::UPLOAD_NAME_PATTERN))] String,
);

impl UploadNameInput {
    pub fn parse_all(names: &[UploadNameInput]) -> Result<Vec<String>, ApiError> {
        names
            .iter()
            .map(|name| UploadName::parse(&name.0).map(|n| n.as_str().to_owned()))
            .collect()
    }
}

impl ProductInput {
    /// Applies this input over `base` (a new blank drink, or the stored one), checking every field given.
    pub fn apply(self, mut product: Product) -> Result<Product, ApiError> {
        if let Some(name) = &self.name {
            product.name = Name::parse(&bounded_text("name", name, 120)?)?.into_inner();
        }
        if let Some(des) = &self.des {
            product.des = bounded_lines("des", des, 2_000)?;
        }
        if let Some(des2) = &self.des2 {
            product.des2 = bounded_lines("des2", des2, 10_000)?;
        }
        if let Some(sort) = &self.sort {
            product.sort = sort.whole("sort", MAX_SORT)?;
        }
        if let Some(is_default) = self.is_default {
            product.is_default = is_default;
        }
        if let Some(price) = &self.price {
            let pounds = price.value("price")?;
            product.price =
                Pence::from_pounds(pounds).map_err(|e| ApiError::invalid(format!("price {e}")))?;
            if product.price == Pence::ZERO {
                return Err(ApiError::invalid("price must be above 0"));
            }
        }
        if let Some(qty) = &self.qty {
            product.qty = bounded_text("qty", qty, 60)?;
            if product.qty.is_empty() {
                return Err(ApiError::invalid("qty (the pack label) must not be empty"));
            }
        }
        if let Some(stock) = &self.stock {
            product.stock = stock.whole("TheNumber", MAX_STOCK)?;
        }
        if let Some(images) = &self.image {
            if images.len() > MAX_IMAGES {
                return Err(ApiError::invalid(format!(
                    "image holds at most {MAX_IMAGES} names"
                )));
            }
            product.image = UploadNameInput::parse_all(images)?;
        }
        if let Some(discount) = &self.discount {
            product.discount = Percent::new(discount.value("discount")?)
                .map_err(|e| ApiError::invalid(format!("discount {e}")))?;
        }
        if let Some(category) = &self.category {
            let category = without_controls("category", category, Lines::One)?.trim();
            product.category = (!category.is_empty()).then(|| category.to_owned());
        }
        self.apply_food(&mut product.food)?;
        if let Some(picked) = &self.statements {
            let picked: Vec<String> = picked.iter().map(|id| id.0.clone()).collect();
            product.statements = statements::parse(&picked, product.food.high_caffeine())?;
        }
        statements::check(&product.food.ingredients, &product.statements)?;
        self.apply_promotion(&mut product)?;
        Ok(product)
    }

    /// The promotion's days: cleared with the discount, the first day defaulting to today's.
    fn apply_promotion(&self, product: &mut Product) -> Result<(), ApiError> {
        if let Some(start) = &self.promotion_start {
            product.promotion.start = start
                .as_deref()
                .map(|text| day("promotionStart", text))
                .transpose()?;
        }
        if let Some(end) = &self.promotion_end {
            product.promotion.end = end
                .as_deref()
                .map(|text| day("promotionEnd", text))
                .transpose()?;
        }
        if product.discount == Percent::ZERO {
            product.promotion = Promotion::default();
            return Ok(());
        }
        let start = *product
            .promotion
            .start
            .get_or_insert_with(|| pricing::uk_day(shared::time::now_unix()));
        if product.promotion.end.is_some_and(|end| end < start) {
            return Err(ApiError::invalid(
                "promotionEnd must not be before promotionStart",
            ));
        }
        Ok(())
    }

    fn apply_food(&self, food: &mut FoodInfo) -> Result<(), ApiError> {
        if let Some(ingredients) = &self.ingredients {
            food.ingredients = food::parse_ingredients(ingredients)?;
        }
        if let Some(allergens) = &self.allergens {
            food.allergens = food::parse_allergens(allergens)?;
        }
        if let Some(nutrition) = &self.nutrition {
            food.nutrition = nutrition.as_ref().map(|n| n.0.parse()).transpose()?;
        }
        if let Some(caffeine) = self.caffeine_mg_per_litre {
            food.caffeine_mg_per_litre = caffeine.map(food::parse_caffeine).transpose()?;
        }
        if let Some(storage) = &self.storage {
            food.storage = bounded_text("storage", storage, food::MAX_STORAGE)?;
        }
        Ok(())
    }

    fn missing_for_create(&self) -> Option<&'static str> {
        if self.name.is_none() {
            Some("name")
        } else if self.price.is_none() {
            Some("price")
        } else if self.qty.is_none() {
            Some("qty")
        } else {
            None
        }
    }
}

fn blank_product(now: &str) -> Product {
    Product {
        id: new_id(),
        name: String::new(),
        des: String::new(),
        des2: String::new(),
        sort: 0,
        is_default: false,
        price: Pence::ZERO,
        qty: String::new(),
        stock: 0,
        image: Vec::new(),
        discount: Percent::ZERO,
        category: None,
        food: FoodInfo::default(),
        statements: Vec::new(),
        promotion: Promotion::default(),
        price_history: Vec::new(),
        created_at: now.to_owned(),
        updated_at: now.to_owned(),
        version: 1,
    }
}

/// Records the drink's pricing in its history when this save changes it.
fn record_pricing(product: &mut Product) {
    let change = product.pricing_from(shared::time::now_unix());
    pricing::record(&mut product.price_history, change);
}

pub async fn list_products(State(state): State<AppState>) -> ApiResult<Json<Vec<Product>>> {
    Ok(Json(state.store.list::<Product>().await?))
}

pub async fn get_product(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Product>> {
    state
        .store
        .get::<Product>(&id)
        .await?
        .map(Json)
        .ok_or_else(not_found::<Product>)
}

pub async fn create_product(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<ProductInput>,
) -> ApiResult<Created<Product>> {
    if let Some(field) = input.missing_for_create() {
        return Err(ApiError::invalid(format!("{field} is required")));
    }
    let mut product = input.apply(blank_product(&shared::time::now_iso()))?;
    crate::category::check_exists(&state, product.category.as_deref()).await?;
    record_pricing(&mut product);
    state.store.insert(&product).await?;
    state.catalogue.invalidate();
    Ok(Created(product))
}

pub async fn update_product(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<ProductInput>,
) -> ApiResult<Json<Product>> {
    let stored = state
        .store
        .get::<Product>(&id)
        .await?
        .ok_or_else(not_found::<Product>)?;
    let mut product = input.apply(stored)?;
    crate::category::check_exists(&state, product.category.as_deref()).await?;
    record_pricing(&mut product);
    product.updated_at = shared::time::now_iso();
    state.store.replace(&product).await?;
    state.catalogue.invalidate();
    product.version += 1;
    if product.stock > 0 {
        if let Some(alerts) = &state.alerts {
            let how = crate::alerts::AlertMail {
                shop: &alerts.shop_name,
                site_url: &alerts.site_url,
                links: &alerts.links,
            };
            // The drink is saved either way; a failure here is the next release's to finish.
            if let Err(error) = crate::alerts::release(
                state.store.client(),
                state.store.table(),
                &alerts.outbox,
                &how,
                &product.id,
            )
            .await
            {
                tracing::error!(product = %product.id, %error, "back-in-stock alerts not sent");
            }
        }
    }
    Ok(Json(product))
}

/// One recorded state of a drink's pricing.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PriceChangeJson {
    /// When it took effect (ISO 8601 UTC).
    at: String,
    price: Pence,
    discount: Percent,
    #[serde(rename = "promotionStart")]
    promotion_start: Option<String>,
    #[serde(rename = "promotionEnd")]
    promotion_end: Option<String>,
}

/// A drink's recorded prices, newest first, and whether a "was" price shows, with the reason in words.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PriceRecord {
    #[serde(rename = "_id")]
    id: String,
    #[serde(flatten)]
    was: pricing::WasPrice,
    history: Vec<PriceChangeJson>,
}

/// GET /api/product/prices/{_id}: why the drink shows a "was" price or not, and its price history.
pub async fn show_price_history(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<PriceRecord>> {
    let product = state
        .store
        .get::<Product>(&id)
        .await?
        .ok_or_else(not_found::<Product>)?;
    let at = |unix: i64| {
        time::OffsetDateTime::from_unix_timestamp(unix)
            .map(shared::time::iso)
            .unwrap_or_default()
    };
    Ok(Json(PriceRecord {
        was: product.was_price(shared::time::now_unix()),
        history: product
            .price_history
            .iter()
            .rev()
            .map(|change| PriceChangeJson {
                at: at(change.at),
                price: change.price,
                discount: change.discount,
                promotion_start: change.promotion.start.map(pricing::format_date),
                promotion_end: change.promotion.end.map(pricing::format_date),
            })
            .collect(),
        id: product.id,
    }))
}

pub async fn delete_product(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    // Into the bin for 30 days, from which an admin can restore it (`shared::recycle_bin`).
    state
        .store
        .bin::<Product>(&id, |product| product.name.clone())
        .await?;
    state.catalogue.invalidate();
    Ok(Message::new("The drink was deleted"))
}

/// GET /api/product/bin/: the drinks deleted in the last 30 days, newest first.
pub async fn list_binned_products(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<shared::recycle_bin::Entry>>> {
    Ok(Json(state.store.binned::<Product>().await?))
}

/// POST /api/product/restore/{_id}: a deleted drink back as it was (stock, pictures and all).
pub async fn restore_product(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let product = state.store.restore::<Product>(&id).await?;
    state.catalogue.invalidate();
    Ok(Message::new(format!(
        "{} is back in the shop",
        product.name
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shared::dynamo::n;
    use shared::store::Entity;

    fn input(json: serde_json::Value) -> ProductInput {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn the_discounted_price_is_computed_not_taken() {
        let product = input(
            serde_json::json!({"name": "Cola", "price": 1.99, "qty": "6 x 330ml",
            "discount": 15, "Discountprice": 0.01}),
        )
        .apply(blank_product("2026-01-01T00:00:00Z"))
        .unwrap();
        let json = serde_json::to_value(&product).unwrap();
        assert_eq!(json["Discountprice"], 1.69);
        assert_eq!(json["price"], 1.99);
    }

    #[test]
    fn form_text_numbers_are_read_and_bad_ones_named() {
        let product = input(serde_json::json!({"sort": "3", "TheNumber": "40", "price": "2.50"}))
            .apply(blank_product("now"))
            .unwrap();
        assert_eq!(
            (product.sort, product.stock, product.price.pence()),
            (3, 40, 250)
        );
        for (body, message) in [
            (serde_json::json!({"price": 0}), "price must be above 0"),
            (
                serde_json::json!({"price": 1.999}),
                "price must have at most 2 decimals",
            ),
            (
                serde_json::json!({"TheNumber": -1}),
                "TheNumber must be a whole number from 0 to 1000000",
            ),
            (
                serde_json::json!({"discount": 120}),
                "discount must be from 0 to 100",
            ),
            (
                serde_json::json!({"sort": "first"}),
                "sort must be a number",
            ),
            (
                serde_json::json!({"name": "ab"}),
                "name must be at least 3 characters",
            ),
            (
                serde_json::json!({"qty": "  "}),
                "qty (the pack label) must not be empty",
            ),
        ] {
            let err = input(body).apply(blank_product("now")).unwrap_err();
            assert_eq!((err.status().as_u16(), err.message()), (422, message));
        }
    }

    #[test]
    fn image_names_must_be_upload_names() {
        let err = input(serde_json::json!({"image": ["../secret"]}))
            .apply(blank_product("now"))
            .unwrap_err();
        assert_eq!(err.status(), 422);
    }

    #[test]
    fn items_round_trip() {
        let product = input(
            serde_json::json!({"name": "Mango Fizz", "price": 4.99, "qty": "24 x 330ml",
            "image": ["a.png"], "category": "c1", "TheNumber": 5}),
        )
        .apply(blank_product("2026-01-01T00:00:00Z"))
        .unwrap();
        let mut item = product.to_attributes();
        item.insert("version".into(), n(1));
        assert_eq!(Product::from_item(&item).unwrap(), product);
    }
}
