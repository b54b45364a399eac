//! A drink as stored. Below the drinks' routes, the back-in-stock alerts, the categories and the catalogue
//! snapshot, so none of them imports another for it; what other functions may read and write of it is in
//! `store`.

use crate::food::FoodInfo;
use crate::pricing::{self, PriceChange, Promotion};
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Serialize, Serializer};
use shared::dynamo::{
    b, get_bool, get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item,
    ItemError,
};
use shared::money::{Pence, Percent};
use shared::store::{version_of, Entity};

#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub id: String,
    pub name: String,
    pub des: String,
    pub des2: String,
    pub sort: u32,
    pub is_default: bool,
    pub price: Pence,
    /// The pack label shown on cart lines, e.g. "24 x 330ml".
    pub qty: String,
    /// Units in stock (`TheNumber`).
    pub stock: u32,
    pub image: Vec<String>,
    pub discount: Percent,
    pub category: Option<String>,
    /// What the food regulations ask a shopper be shown before buying.
    pub food: FoodInfo,
    /// The Annex III statements the admin picked (`statements.rs`), without the derived high-caffeine one.
    pub statements: Vec<String>,
    /// The days the discount runs (`discount` 0: none).
    pub promotion: Promotion,
    /// Every change of the price, the discount or the promotion's days, oldest first (`pricing.rs`).
    pub price_history: Vec<PriceChange>,
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
}

/// The age from which a drink over the high-caffeine threshold is sold: the age England proposed in 2025
/// for a ban on sales to children, and that most UK retailers already keep.
pub const HIGH_CAFFEINE_MINIMUM_AGE: u32 = 16;

impl Product {
    /// What a shopper pays now: the price less the discount while its promotion runs, rounded half-up to
    /// the penny. Checkout charges this.
    pub fn discount_price(&self) -> Pence {
        self.price_at(shared::time::now_unix())
    }

    /// What a shopper pays at `at` (unix seconds) as the drink is priced now.
    pub fn price_at(&self, at: i64) -> Pence {
        self.pricing_from(at).price_at(at)
    }

    /// The drink's pricing now, as a price history records it from `at`.
    pub fn pricing_from(&self, at: i64) -> PriceChange {
        PriceChange {
            at,
            price: self.price,
            discount: self.discount,
            promotion: self.promotion,
        }
    }

    /// The genuine "was" price at `now`, and why (or why none).
    pub fn was_price(&self, now: i64) -> pricing::WasPrice {
        pricing::was_price(&self.price_history, now)
    }

    /// The age a buyer must have, for a drink over 150 mg of caffeine a litre; `None` for any other. The
    /// shop's site info may turn the check off, or ask a higher age, at checkout.
    pub fn minimum_age(&self) -> Option<u32> {
        self.food
            .high_caffeine()
            .then_some(HIGH_CAFFEINE_MINIMUM_AGE)
    }
}

/// A drink as the API answers it.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Product")]
struct ProductJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    name: &'a str,
    des: &'a str,
    des2: &'a str,
    sort: u32,
    #[serde(rename = "Isdefault")]
    is_default: bool,
    price: Pence,
    qty: &'a str,
    #[serde(rename = "TheNumber")]
    stock: u32,
    image: &'a [String],
    discount: Percent,
    #[serde(rename = "Discountprice")]
    discount_price: Pence,
    category: Option<&'a str>,
    #[serde(flatten)]
    food: &'a FoodInfo,
    /// The Annex III statements the label carries (`with-sweeteners`, `with-sugar-and-sweeteners`,
    /// `phenylalanine`, `polyols`, `liquorice`, `liquorice-hypertension`, `high-caffeine`), in that order.
    #[schemars(with = "Vec<crate::statements::StatementId>")]
    statements: Vec<String>,
    /// The price of a litre at the price paid now, in pounds, from the pack label's size; `null` when the
    /// label names no size.
    #[serde(rename = "pricePerLitre")]
    price_per_litre: Option<Pence>,
    /// The price the drink genuinely sold at before its current reduction (28 days or more, within the last
    /// six months), in pounds; `null` when there is none.
    #[serde(rename = "wasPrice")]
    was_price: Option<Pence>,
    /// The first day of the discount's promotion (`YYYY-MM-DD`, UK days), or `null`.
    #[serde(rename = "promotionStart")]
    promotion_start: Option<String>,
    /// Its last day, or `null` while it runs until changed.
    #[serde(rename = "promotionEnd")]
    promotion_end: Option<String>,
    /// 16 for a drink over 150 mg of caffeine a litre (sold only to buyers of that age), else `null`.
    #[serde(rename = "minimumAge")]
    minimum_age: Option<u32>,
    #[serde(rename = "createdAt")]
    created_at: &'a str,
    #[serde(rename = "updatedAt")]
    updated_at: &'a str,
}

impl Serialize for Product {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let now = shared::time::now_unix();
        let paid = self.price_at(now);
        ProductJson {
            id: &self.id,
            name: &self.name,
            des: &self.des,
            des2: &self.des2,
            sort: self.sort,
            is_default: self.is_default,
            price: self.price,
            qty: &self.qty,
            stock: self.stock,
            image: &self.image,
            discount: self.discount,
            discount_price: paid,
            category: self.category.as_deref(),
            food: &self.food,
            statements: crate::statements::answered(&self.statements, self.food.high_caffeine()),
            price_per_litre: pricing::price_per_litre(paid, &self.qty),
            was_price: self.was_price(now).price,
            promotion_start: self.promotion.start.map(pricing::format_date),
            promotion_end: self.promotion.end.map(pricing::format_date),
            minimum_age: self.minimum_age(),
            created_at: &self.created_at,
            updated_at: &self.updated_at,
        }
        .serialize(serializer)
    }
}

impl schemars::JsonSchema for Product {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        ProductJson::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        ProductJson::json_schema(generator)
    }
}

impl Entity for Product {
    const KIND: &'static str = "PRODUCT";
    const NOUN: &'static str = "drink";

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        shared::store::ordered_by_position(self.sort, &self.name, &self.id)
    }

    fn to_attributes(&self) -> Item {
        let mut item = Item::from([
            ("id".to_owned(), s(&self.id)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("des2".to_owned(), s(&self.des2)),
            ("sort".to_owned(), n(self.sort)),
            ("isDefault".to_owned(), b(self.is_default)),
            ("pricePence".to_owned(), n(self.price.pence())),
            ("qty".to_owned(), s(&self.qty)),
            ("stock".to_owned(), n(self.stock)),
            ("image".to_owned(), string_list(&self.image)),
            ("discount".to_owned(), n(self.discount.value())),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ]);
        if let Some(category) = &self.category {
            item.insert("category".to_owned(), s(category));
        }
        self.food.write_attributes(&mut item);
        item.insert("statements".to_owned(), string_list(&self.statements));
        if let Some(start) = self.promotion.start {
            item.insert("promotionStart".to_owned(), s(pricing::format_date(start)));
        }
        if let Some(end) = self.promotion.end {
            item.insert("promotionEnd".to_owned(), s(pricing::format_date(end)));
        }
        item.insert(
            "priceHistory".to_owned(),
            AttributeValue::L(self.price_history.iter().map(change_to_attribute).collect()),
        );
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let money = |key| {
            get_n::<i64>(item, key)
                .and_then(|p| Pence::new(p).map_err(|e| ItemError(format!("{key} {e}"))))
        };
        let discount = get_n::<f64>(item, "discount")
            .and_then(|d| Percent::new(d).map_err(|e| ItemError(format!("discount {e}"))))?;
        Ok(Product {
            id: get_s(item, "id")?,
            name: get_s(item, "name")?,
            des: get_s_or_default(item, "des"),
            des2: get_s_or_default(item, "des2"),
            sort: get_n(item, "sort")?,
            is_default: get_bool(item, "isDefault"),
            price: money("pricePence")?,
            qty: get_s(item, "qty")?,
            stock: get_n(item, "stock")?,
            image: get_string_list(item, "image"),
            discount,
            category: Some(get_s_or_default(item, "category")).filter(|c| !c.is_empty()),
            food: FoodInfo::from_item(item)?,
            statements: get_string_list(item, "statements"),
            promotion: Promotion {
                start: date(item, "promotionStart")?,
                end: date(item, "promotionEnd")?,
            },
            price_history: match item.get("priceHistory") {
                Some(AttributeValue::L(list)) => list
                    .iter()
                    .map(change_from_attribute)
                    .collect::<Result<_, _>>()?,
                _ => Vec::new(),
            },
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
        })
    }
}

/// A stored `YYYY-MM-DD` day, absent on drinks saved before promotions had days.
fn date(item: &Item, key: &str) -> Result<Option<time::Date>, ItemError> {
    match item.get(key) {
        None => Ok(None),
        Some(_) => pricing::parse_date(&get_s(item, key)?)
            .map(Some)
            .ok_or_else(|| ItemError(format!("{key} is not a date"))),
    }
}

fn change_to_attribute(change: &PriceChange) -> AttributeValue {
    let mut map = Item::from([
        ("at".to_owned(), n(change.at)),
        ("pricePence".to_owned(), n(change.price.pence())),
        ("discount".to_owned(), n(change.discount.value())),
    ]);
    if let Some(start) = change.promotion.start {
        map.insert("promotionStart".to_owned(), s(pricing::format_date(start)));
    }
    if let Some(end) = change.promotion.end {
        map.insert("promotionEnd".to_owned(), s(pricing::format_date(end)));
    }
    AttributeValue::M(map)
}

fn change_from_attribute(value: &AttributeValue) -> Result<PriceChange, ItemError> {
    let map = value
        .as_m()
        .map_err(|_| ItemError("priceHistory holds a non-map".into()))?;
    Ok(PriceChange {
        at: get_n(map, "at")?,
        price: Pence::new(get_n(map, "pricePence")?)
            .map_err(|e| ItemError(format!("priceHistory price {e}")))?,
        discount: Percent::new(get_n::<f64>(map, "discount")?)
            .map_err(|e| ItemError(format!("priceHistory discount {e}")))?,
        promotion: Promotion {
            start: date(map, "promotionStart")?,
            end: date(map, "promotionEnd")?,
        },
    })
}
