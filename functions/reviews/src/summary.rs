//! The rating summary: how many reviews gave each number of stars, their count and the sum of their stars,
//! kept on one item for the whole shop (`SUMMARY#ALL`) and one per drink (`SUMMARY#PRODUCT#id`). The
//! writes that move them go into the same transaction as the review's put or delete, so a summary always
//! equals what a count over the reviews would give; reading it is one GetItem, and it gives the paged
//! lists their page count without reading every review.

use aws_sdk_dynamodb::types::{TransactWriteItem, Update};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use shared::dynamo::{get_n, n, Item};
use shared::ApiError;

/// Which reviews a summary counts.
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    All,
    Product(&'a str),
}

impl Scope<'_> {
    fn key(self) -> Item {
        // The catalogue reads the drinks' summaries for its cards: the layout lives in shared.
        shared::ratings::summary_key(match self {
            Scope::All => None,
            Scope::Product(id) => Some(id),
        })
    }
}

fn stars_attribute(rating: u8) -> String {
    format!("stars{rating}")
}

/// The write that counts one review of `rating` stars in (`delta` 1) or out (`delta` -1).
pub fn change(
    table: &str,
    scope: Scope<'_>,
    rating: u8,
    delta: i64,
) -> Result<TransactWriteItem, ApiError> {
    counted(table, scope, rating, delta, 0)
}

/// The write that counts a review out of the shown ones and into the hidden (`delta` -1), or back.
pub fn hiding(table: &str, rating: u8, delta: i64) -> Result<TransactWriteItem, ApiError> {
    counted(table, Scope::All, rating, delta, -delta)
}

/// The write that counts a hidden review in (`delta` 1) or out (`delta` -1) of the hidden ones alone.
pub fn hidden(table: &str, delta: i64) -> Result<TransactWriteItem, ApiError> {
    counted(table, Scope::All, 1, 0, delta)
}

fn counted(
    table: &str,
    scope: Scope<'_>,
    rating: u8,
    delta: i64,
    hidden: i64,
) -> Result<TransactWriteItem, ApiError> {
    let update = Update::builder()
        .table_name(table)
        .set_key(Some(scope.key()))
        .update_expression("ADD #stars :delta, #total :delta, #sum :stars, #hidden :hidden")
        .expression_attribute_names("#stars", stars_attribute(rating))
        .expression_attribute_names("#total", shared::ratings::TOTAL)
        .expression_attribute_names("#sum", shared::ratings::STAR_SUM)
        .expression_attribute_names("#hidden", HIDDEN)
        .expression_attribute_values(":delta", n(delta))
        .expression_attribute_values(":stars", n(delta * i64::from(rating)))
        .expression_attribute_values(":hidden", n(hidden))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// How many reviews the admin hid (on the whole shop's summary only).
const HIDDEN: &str = "hiddenTotal";

/// Counts by star (index 0 is one star), the number of shown reviews and the sum of their stars, and how
/// many are hidden (not in the other counts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ratings {
    pub stars: [u64; 5],
    pub total: u64,
    pub sum: u64,
    pub hidden: u64,
}

impl Ratings {
    fn from_item(item: &Item) -> Self {
        let count = |name: &str| get_n::<i64>(item, name).unwrap_or(0).max(0) as u64;
        let (total, sum) = shared::ratings::counts(item);
        Ratings {
            stars: [1, 2, 3, 4, 5].map(|r| count(&stars_attribute(r))),
            total,
            sum,
            hidden: count(HIDDEN),
        }
    }

    /// The average to one decimal, half-up; 0 without reviews.
    pub fn average(&self) -> f64 {
        shared::ratings::average(self.sum, self.total)
    }
}

/// `{"5": n, "4": n, "3": n, "2": n, "1": n, "avgRating": 4.3, "totalComments": n}`.
impl Serialize for Ratings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(7))?;
        for rating in (1..=5).rev() {
            map.serialize_entry(&rating.to_string(), &self.stars[rating - 1])?;
        }
        map.serialize_entry("avgRating", &self.average())?;
        map.serialize_entry("totalComments", &self.total)?;
        map.end()
    }
}

impl JsonSchema for Ratings {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ratings".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let count = schemars::json_schema!({ "type": "integer", "minimum": 0 });
        schemars::json_schema!({
            "type": "object",
            "description": "How many reviews gave each number of stars, their average (to a tenth, 0 without reviews) and their count.",
            "properties": {
                "5": count, "4": count, "3": count, "2": count, "1": count,
                "avgRating": { "type": "number", "minimum": 0, "maximum": 5 },
                "totalComments": count
            },
            "required": ["5", "4", "3", "2", "1", "avgRating", "totalComments"]
        })
    }
}

/// The summary of `scope`; all zeros before the first review.
pub async fn load(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    scope: Scope<'_>,
) -> Result<Ratings, ApiError> {
    let found = db
        .get_item()
        .table_name(table)
        .set_key(Some(scope.key()))
        .consistent_read(true)
        .send()
        .await?;
    Ok(found.item().map(Ratings::from_item).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_rounds_half_up_to_a_tenth() {
        let of = |sum, total| Ratings {
            stars: [0; 5],
            total,
            sum,
            hidden: 0,
        };
        assert_eq!(of(0, 0).average(), 0.0);
        assert_eq!(of(17, 4).average(), 4.3); // 4.25
        assert_eq!(of(13, 3).average(), 4.3); // 4.333
        assert_eq!(of(14, 3).average(), 4.7); // 4.666
        assert_eq!(of(10, 2).average(), 5.0);
    }

    #[test]
    fn ratings_serialize_by_star_with_the_average_and_count() {
        let ratings = Ratings {
            stars: [1, 0, 0, 2, 1],
            total: 4,
            sum: 1 + 4 + 4 + 5,
            hidden: 2,
        };
        assert_eq!(
            serde_json::to_value(ratings).unwrap(),
            serde_json::json!({"5": 1, "4": 2, "3": 0, "2": 0, "1": 1, "avgRating": 3.5, "totalComments": 4})
        );
    }
}
