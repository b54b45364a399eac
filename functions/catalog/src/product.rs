//! A drink as stored, and the stock updates an order's transaction makes to it. Below the drinks' routes,
//! the back-in-stock alerts, the categories and the catalogue snapshot, so none of them imports another for it.

use crate::food::FoodInfo;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use serde::{Serialize, Serializer};
use shared::dynamo::{
    b, get_bool, get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item,
    ItemError,
};
use shared::money::{Pence, Percent};
use shared::store::{version_of, Entity};
use shared::ApiError;

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
    pub created_at: String,
    pub updated_at: String,
    pub version: u64,
}

/// The age from which a drink over the high-caffeine threshold is sold: the age England proposed in 2025
/// for a ban on sales to children, and that most UK retailers already keep.
pub const HIGH_CAFFEINE_MINIMUM_AGE: u32 = 16;

impl Product {
    /// The price after the product's own discount, rounded half-up to the penny.
    pub fn discount_price(&self) -> Pence {
        self.price.less_percent(self.discount)
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
            discount_price: self.discount_price(),
            category: self.category.as_deref(),
            food: &self.food,
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
            created_at: get_s(item, "createdAt")?,
            updated_at: get_s(item, "updatedAt")?,
            version: version_of(item)?,
        })
    }
}

/// The write that takes `qty` units of a drink out of stock in an order transaction: never below zero.
/// The version moves too, so an admin's stale edit of the drink cannot put the units back.
pub fn take_stock(table: &str, id: &str, qty: u32) -> Result<TransactWriteItem, ApiError> {
    stock_update(
        table,
        id,
        "SET stock = stock - :qty ADD version :one",
        Some("stock >= :qty"),
        qty,
    )
}

/// Puts `qty` units back (a cancelled order).
pub fn return_stock(table: &str, id: &str, qty: u32) -> Result<TransactWriteItem, ApiError> {
    stock_update(
        table,
        id,
        "SET stock = stock + :qty ADD version :one",
        None,
        qty,
    )
}

fn stock_update(
    table: &str,
    id: &str,
    expression: &str,
    condition: Option<&str>,
    qty: u32,
) -> Result<TransactWriteItem, ApiError> {
    let condition = match condition {
        Some(extra) => format!("attribute_exists(pk) AND {extra}"),
        None => "attribute_exists(pk)".to_owned(),
    };
    let update = Update::builder()
        .table_name(table)
        .key("pk", s(format!("{}#{id}", Product::KIND)))
        .key("sk", s(Product::KIND))
        .update_expression(expression)
        .condition_expression(condition)
        .expression_attribute_values(":qty", n(qty))
        .expression_attribute_values(":one", n(1))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}
