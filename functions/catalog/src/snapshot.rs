//! The catalogue as the shop's lists and search read it: the drinks (in the admin's order) with their
//! category's name and rating, and the search index over their words, read from the tables at most once per
//! `TTL` and kept in the Lambda's memory between requests. The function's own writes to drinks and
//! categories drop the copy at once; other functions' writes (an order taking stock, a new review) show
//! within `TTL`. The product pages, the admin's list and checkout read the table itself.

use crate::category::Category;
use crate::product::Product;
use crate::search::Index;
use aws_sdk_dynamodb::types::KeysAndAttributes;
use serde::Serialize;
use shared::dynamo::{get_s, Item};
use shared::store::Store;
use shared::ApiError;
use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

/// How long a copy serves before the next request reads the tables again.
pub const TTL: Duration = Duration::from_secs(30);
/// BatchGetItem's limit of keys per call.
const BATCH: usize = 100;
/// Rounds of unprocessed keys (throttling) before a read of ratings gives up.
const ROUNDS: usize = 5;

/// A drink's reviews: their average to a tenth (0 without any) and their number.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DrinkRating {
    pub average: f64,
    pub count: u64,
}

/// A drink as the shop lists it: the drink with its rating, when the ratings are known.
#[derive(Debug, Clone)]
pub struct Listed {
    pub product: Product,
    pub rating: Option<DrinkRating>,
    /// Name, pack label, descriptions and category name, lower case: what a search looks in.
    pub(crate) text: String,
}

impl Listed {
    /// Whether every word of a search (lower case) appears in what a search looks in.
    pub fn matches(&self, terms: &[String]) -> bool {
        terms.iter().all(|term| self.text.contains(term.as_str()))
    }
}

/// `Product` with `avgRating` (to a tenth, 0 without reviews) and `totalComments`, as the shop's lists and
/// search answer a drink; both are left out when the ratings are not known.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "ListedDrink")]
struct ListedJson<'a> {
    #[serde(flatten)]
    product: &'a Product,
    #[serde(rename = "avgRating", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "f64", range(min = 0, max = 5))]
    avg_rating: Option<f64>,
    #[serde(rename = "totalComments", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    total_comments: Option<u64>,
}

impl Serialize for Listed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ListedJson {
            product: &self.product,
            avg_rating: self.rating.map(|r| r.average),
            total_comments: self.rating.map(|r| r.count),
        }
        .serialize(serializer)
    }
}

impl schemars::JsonSchema for Listed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        ListedJson::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        ListedJson::json_schema(generator)
    }
}

/// One read of the catalogue.
pub struct Catalogue {
    pub drinks: Vec<Listed>,
    pub categories: Vec<Category>,
    pub index: Index,
}

impl Catalogue {
    fn new(
        products: Vec<Product>,
        categories: Vec<Category>,
        ratings: Option<HashMap<String, DrinkRating>>,
    ) -> Self {
        let names: HashMap<&str, &str> = categories
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str()))
            .collect();
        let drinks: Vec<Listed> = products
            .into_iter()
            .map(|product| {
                let category = product
                    .category
                    .as_deref()
                    .and_then(|id| names.get(id))
                    .copied()
                    .unwrap_or_default();
                let text = format!(
                    "{} {} {} {} {}",
                    product.name, product.qty, product.des, product.des2, category
                )
                .to_lowercase();
                let rating = ratings
                    .as_ref()
                    .map(|known| known.get(&product.id).copied().unwrap_or_default());
                Listed {
                    product,
                    rating,
                    text,
                }
            })
            .collect();
        let index = Index::new(drinks.iter().map(|d| d.text.as_str()));
        Catalogue {
            drinks,
            categories,
            index,
        }
    }
}

/// Where the drinks' rating counters are read: the reviews function's table.
pub struct RatingsSource {
    db: aws_sdk_dynamodb::Client,
    table: String,
}

impl RatingsSource {
    pub fn new(db: aws_sdk_dynamodb::Client, table: String) -> Self {
        RatingsSource { db, table }
    }

    /// Every listed drink's rating: one BatchGetItem per hundred drinks (no Scan); a drink without a
    /// summary item has no reviews.
    async fn load(&self, ids: &[&str]) -> Result<HashMap<String, DrinkRating>, ApiError> {
        let mut found = HashMap::new();
        for chunk in ids.chunks(BATCH) {
            let mut keys: Vec<Item> = chunk
                .iter()
                .map(|id| shared::ratings::summary_key(Some(id)))
                .collect();
            for _ in 0..ROUNDS {
                if keys.is_empty() {
                    break;
                }
                let wanted = KeysAndAttributes::builder()
                    .set_keys(Some(std::mem::take(&mut keys)))
                    .projection_expression("pk, #total, #sum")
                    .expression_attribute_names("#total", shared::ratings::TOTAL)
                    .expression_attribute_names("#sum", shared::ratings::STAR_SUM)
                    .build()
                    .map_err(ApiError::internal)?;
                let answer = self
                    .db
                    .batch_get_item()
                    .request_items(&self.table, wanted)
                    .send()
                    .await?;
                for item in answer
                    .responses()
                    .and_then(|r| r.get(&self.table))
                    .into_iter()
                    .flatten()
                {
                    let pk = get_s(item, "pk")?;
                    let Some(id) = shared::ratings::product_of(&pk) else {
                        continue;
                    };
                    let (count, sum) = shared::ratings::counts(item);
                    let average = shared::ratings::average(sum, count);
                    found.insert(id.to_owned(), DrinkRating { average, count });
                }
                if let Some(left) = answer.unprocessed_keys().and_then(|u| u.get(&self.table)) {
                    keys = left.keys().to_vec();
                }
            }
            if !keys.is_empty() {
                return Err(ApiError::internal(
                    "the ratings were not all read: the reviews table keeps throttling",
                ));
            }
        }
        Ok(found)
    }
}

struct Held {
    /// Moves on every drop, so a read that began before a write cannot store what it read.
    generation: u64,
    copy: Option<(Instant, Arc<Catalogue>)>,
}

/// The kept copy of the catalogue.
pub struct Snapshots {
    store: Store,
    ratings: Option<RatingsSource>,
    held: RwLock<Held>,
}

impl Snapshots {
    pub fn new(store: Store, ratings: Option<RatingsSource>) -> Self {
        Snapshots {
            store,
            ratings,
            held: RwLock::new(Held {
                generation: 0,
                copy: None,
            }),
        }
    }

    /// The kept copy while it is younger than `TTL`, else a fresh read (kept unless a write came since).
    pub async fn current(&self) -> Result<Arc<Catalogue>, ApiError> {
        let generation = {
            let held = self.held.read().unwrap_or_else(PoisonError::into_inner);
            if let Some((at, copy)) = &held.copy {
                if at.elapsed() < TTL {
                    return Ok(copy.clone());
                }
            }
            held.generation
        };
        let fresh = Arc::new(self.read().await?);
        let mut held = self.held.write().unwrap_or_else(PoisonError::into_inner);
        if held.generation == generation {
            held.copy = Some((Instant::now(), fresh.clone()));
        }
        Ok(fresh)
    }

    /// Drops the copy: the function changed a drink or a category.
    pub fn invalidate(&self) {
        let mut held = self.held.write().unwrap_or_else(PoisonError::into_inner);
        held.generation += 1;
        held.copy = None;
    }

    async fn read(&self) -> Result<Catalogue, ApiError> {
        let (products, categories) =
            tokio::join!(self.store.list::<Product>(), self.store.list::<Category>());
        let products = products?;
        let ratings = match &self.ratings {
            Some(source) => {
                let ids: Vec<&str> = products.iter().map(|p| p.id.as_str()).collect();
                Some(source.load(&ids).await?)
            }
            None => None,
        };
        Ok(Catalogue::new(products, categories?, ratings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drink(id: &str, name: &str, category: Option<&str>) -> Product {
        Product {
            id: id.to_owned(),
            name: name.to_owned(),
            des: "Made in small batches".to_owned(),
            des2: String::new(),
            sort: 0,
            is_default: false,
            price: shared::money::Pence::new(199).unwrap(),
            qty: "24 x 330ml".to_owned(),
            stock: 1,
            image: Vec::new(),
            discount: shared::money::Percent::ZERO,
            category: category.map(str::to_owned),
            food: Default::default(),
            statements: Vec::new(),
            promotion: Default::default(),
            price_history: Vec::new(),
            created_at: "2026-01-01T00:00:00Z".to_owned(),
            updated_at: "2026-01-01T00:00:00Z".to_owned(),
            version: 1,
        }
    }

    fn category(id: &str, name: &str) -> Category {
        Category {
            id: id.to_owned(),
            name: name.to_owned(),
            des: String::new(),
            image: Vec::new(),
            created_at: String::new(),
            updated_at: String::new(),
            version: 1,
        }
    }

    #[test]
    fn a_search_needs_every_word_and_reads_the_category_name() {
        let catalogue = Catalogue::new(
            vec![
                drink("1", "Mango Fizz", Some("c1")),
                drink("2", "Still Water", None),
            ],
            vec![category("c1", "Fruit Sodas")],
            None,
        );
        let [mango, water] = &catalogue.drinks[..] else {
            panic!("two drinks")
        };
        assert!(mango.matches(&["mango".into(), "330ml".into()]));
        assert!(mango.matches(&["sodas".into()]));
        assert!(!mango.matches(&["mango".into(), "lemon".into()]));
        assert!(!water.matches(&["sodas".into()]));
        assert_eq!(catalogue.index.suggest("sodaz"), Some("sodas"));
    }

    #[test]
    fn ratings_are_left_out_when_unknown_and_zero_without_reviews() {
        let unknown = Catalogue::new(vec![drink("1", "Cola", None)], vec![], None);
        let json = serde_json::to_value(&unknown.drinks[0]).unwrap();
        assert!(json.get("avgRating").is_none() && json.get("totalComments").is_none());
        assert_eq!(json["name"], "Cola");
        let known = Catalogue::new(
            vec![drink("1", "Cola", None), drink("2", "Lime", None)],
            vec![],
            Some(HashMap::from([(
                "1".to_owned(),
                DrinkRating {
                    average: 4.5,
                    count: 2,
                },
            )])),
        );
        let json = serde_json::to_value(&known.drinks).unwrap();
        assert_eq!(
            (&json[0]["avgRating"], &json[0]["totalComments"]),
            (&serde_json::json!(4.5), &serde_json::json!(2))
        );
        assert_eq!(
            (&json[1]["avgRating"], &json[1]["totalComments"]),
            (&serde_json::json!(0.0), &serde_json::json!(0))
        );
    }
}
