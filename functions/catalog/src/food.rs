//! What a shopper of food must be told before buying a drink (Food Information Regulations 2014, retained
//! EU 1169/2011 art. 9 and 14): the ingredients with their allergens marked, which of the 14 regulated
//! allergens the drink contains, the nutrition declaration per 100 ml, caffeine for the high-caffeine
//! warning, and how to store it. The producer's name and address are the site info's, shown beside these.
//!
//! Grams are kept as whole tenths (one decimal, as a label prints them), so the checks between fields
//! (sugars within carbohydrate, saturates within fat) compare integers.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize, Serializer};
use shared::dynamo::{get_n, n, Item, ItemError};
use shared::validation::bounded_lines;
use shared::ApiError;

/// The 14 allergens the regulations name (Annex II), as the API spells them.
pub const ALLERGENS: [&str; 14] = [
    "celery",
    "gluten",
    "crustaceans",
    "eggs",
    "fish",
    "lupin",
    "milk",
    "molluscs",
    "mustard",
    "nuts",
    "peanuts",
    "sesame",
    "soya",
    "sulphites",
];

/// Above this a drink must carry the high-caffeine warning (150 mg per litre).
pub const HIGH_CAFFEINE_MG_PER_LITRE: u32 = 150;
const MAX_CAFFEINE: u32 = 2_000;
const MAX_KJ: u32 = 4_000;
const MAX_KCAL: u32 = 1_000;
pub const MAX_INGREDIENTS: usize = 2_000;
pub const MAX_STORAGE: usize = 300;

/// Grams per 100 ml in tenths of a gram.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tenths(u32);

impl Tenths {
    const MAX: u32 = 1_000;

    /// Grams from 0 to 100 with at most one decimal.
    fn parse(field: &str, grams: f64) -> Result<Tenths, ApiError> {
        let tenths = grams * 10.0;
        let whole = tenths.round();
        if !grams.is_finite() || whole < 0.0 || whole > f64::from(Self::MAX) {
            return Err(ApiError::invalid(format!(
                "nutrition.{field} must be grams from 0 to 100"
            )));
        }
        if (tenths - whole).abs() > 1e-6 {
            return Err(ApiError::invalid(format!(
                "nutrition.{field} must have at most 1 decimal"
            )));
        }
        Ok(Tenths(whole as u32))
    }

    pub fn grams(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl Serialize for Tenths {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.grams())
    }
}

impl schemars::JsonSchema for Tenths {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Grams".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Grams per 100 ml, one decimal.",
            "type": "number", "minimum": 0, "maximum": 100
        })
    }
}

/// The nutrition declaration per 100 ml, in the order the regulations list it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nutrition {
    pub energy_kj: u32,
    pub energy_kcal: u32,
    pub fat: Tenths,
    pub saturates: Tenths,
    pub carbohydrate: Tenths,
    pub sugars: Tenths,
    pub protein: Tenths,
    pub salt: Tenths,
}

const GRAMS: [&str; 6] = [
    "fat",
    "saturates",
    "carbohydrate",
    "sugars",
    "protein",
    "salt",
];

impl Nutrition {
    fn grams(&self) -> [Tenths; 6] {
        [
            self.fat,
            self.saturates,
            self.carbohydrate,
            self.sugars,
            self.protein,
            self.salt,
        ]
    }

    fn to_attribute(&self) -> AttributeValue {
        let mut map = Item::from([
            ("energyKj".to_owned(), n(self.energy_kj)),
            ("energyKcal".to_owned(), n(self.energy_kcal)),
        ]);
        for (name, value) in GRAMS.iter().zip(self.grams()) {
            map.insert((*name).to_owned(), n(value.0));
        }
        AttributeValue::M(map)
    }

    fn from_attribute(map: &Item) -> Result<Nutrition, ItemError> {
        let tenths = |key| get_n(map, key).map(Tenths);
        Ok(Nutrition {
            energy_kj: get_n(map, "energyKj")?,
            energy_kcal: get_n(map, "energyKcal")?,
            fat: tenths("fat")?,
            saturates: tenths("saturates")?,
            carbohydrate: tenths("carbohydrate")?,
            sugars: tenths("sugars")?,
            protein: tenths("protein")?,
            salt: tenths("salt")?,
        })
    }
}

/// A drink's food information, as stored and answered (its fields sit beside the drink's own).
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FoodInfo {
    /// The ingredients in descending order of weight; allergens marked `*like this*` so they print in bold.
    pub ingredients: String,
    /// Which of the 14 regulated allergens the drink contains, in the regulations' order.
    pub allergens: Vec<String>,
    /// Per 100 ml; `null` until the admin enters it.
    pub nutrition: Option<Nutrition>,
    /// Milligrams of caffeine per litre; `null` for a drink without added caffeine.
    pub caffeine_mg_per_litre: Option<u32>,
    /// How to keep it, e.g. "Store in a cool, dry place. Once opened, keep refrigerated."
    pub storage: String,
}

impl FoodInfo {
    pub fn high_caffeine(&self) -> bool {
        self.caffeine_mg_per_litre
            .is_some_and(|mg| mg > HIGH_CAFFEINE_MG_PER_LITRE)
    }

    pub fn write_attributes(&self, item: &mut Item) {
        item.insert(
            "ingredients".to_owned(),
            shared::dynamo::s(&self.ingredients),
        );
        item.insert(
            "allergens".to_owned(),
            shared::dynamo::string_list(&self.allergens),
        );
        if let Some(nutrition) = &self.nutrition {
            item.insert("nutrition".to_owned(), nutrition.to_attribute());
        }
        if let Some(mg) = self.caffeine_mg_per_litre {
            item.insert("caffeineMgPerLitre".to_owned(), n(mg));
        }
        item.insert("storage".to_owned(), shared::dynamo::s(&self.storage));
    }

    /// Reads what `write_attributes` wrote; a drink stored before these fields existed has none of them.
    pub fn from_item(item: &Item) -> Result<FoodInfo, ItemError> {
        let nutrition = match item.get("nutrition") {
            Some(AttributeValue::M(map)) => Some(Nutrition::from_attribute(map)?),
            _ => None,
        };
        let caffeine = match item.get("caffeineMgPerLitre") {
            Some(_) => Some(get_n(item, "caffeineMgPerLitre")?),
            None => None,
        };
        Ok(FoodInfo {
            ingredients: shared::dynamo::get_s_or_default(item, "ingredients"),
            allergens: shared::dynamo::get_string_list(item, "allergens"),
            nutrition,
            caffeine_mg_per_litre: caffeine,
            storage: shared::dynamo::get_s_or_default(item, "storage"),
        })
    }
}

/// The nutrition declaration as an admin sends it: every value required.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NutritionInput {
    #[schemars(range(min = 0, max = MAX_KJ))]
    energy_kj: f64,
    #[schemars(range(min = 0, max = MAX_KCAL))]
    energy_kcal: f64,
    #[schemars(with = "Tenths")]
    fat: f64,
    #[schemars(with = "Tenths")]
    saturates: f64,
    #[schemars(with = "Tenths")]
    carbohydrate: f64,
    #[schemars(with = "Tenths")]
    sugars: f64,
    #[schemars(with = "Tenths")]
    protein: f64,
    #[schemars(with = "Tenths")]
    salt: f64,
}

fn whole(field: &str, value: f64, max: u32) -> Result<u32, ApiError> {
    if !value.is_finite() || value.fract() != 0.0 || value < 0.0 || value > f64::from(max) {
        return Err(ApiError::invalid(format!(
            "{field} must be a whole number from 0 to {max}"
        )));
    }
    Ok(value as u32)
}

impl NutritionInput {
    pub fn parse(&self) -> Result<Nutrition, ApiError> {
        let nutrition = Nutrition {
            energy_kj: whole("nutrition.energyKj", self.energy_kj, MAX_KJ)?,
            energy_kcal: whole("nutrition.energyKcal", self.energy_kcal, MAX_KCAL)?,
            fat: Tenths::parse("fat", self.fat)?,
            saturates: Tenths::parse("saturates", self.saturates)?,
            carbohydrate: Tenths::parse("carbohydrate", self.carbohydrate)?,
            sugars: Tenths::parse("sugars", self.sugars)?,
            protein: Tenths::parse("protein", self.protein)?,
            salt: Tenths::parse("salt", self.salt)?,
        };
        if nutrition.saturates > nutrition.fat {
            return Err(ApiError::invalid(
                "nutrition.saturates cannot be more than nutrition.fat",
            ));
        }
        if nutrition.sugars > nutrition.carbohydrate {
            return Err(ApiError::invalid(
                "nutrition.sugars cannot be more than nutrition.carbohydrate",
            ));
        }
        Ok(nutrition)
    }
}

/// One allergen's name, as the document lists them.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct AllergenInput(#[schemars(extend("enum" = ALLERGENS))] pub String);

/// The listed allergens in the regulations' order, each once; a name off the list is refused, and so is a
/// list longer than the regulations' (as the document's maxItems says).
pub fn parse_allergens(names: &[AllergenInput]) -> Result<Vec<String>, ApiError> {
    if names.len() > ALLERGENS.len() {
        return Err(ApiError::invalid(format!(
            "allergens holds at most {} names",
            ALLERGENS.len()
        )));
    }
    for AllergenInput(name) in names {
        if !ALLERGENS.contains(&name.as_str()) {
            return Err(ApiError::invalid(format!(
                "allergens: {name:?} is not one of the 14 allergens ({})",
                ALLERGENS.join(", ")
            )));
        }
    }
    Ok(ALLERGENS
        .iter()
        .filter(|allergen| names.iter().any(|AllergenInput(name)| name == *allergen))
        .map(|allergen| (*allergen).to_owned())
        .collect())
}

/// The ingredients list: at most `MAX_INGREDIENTS` characters, every `*` mark closed.
pub fn parse_ingredients(text: &str) -> Result<String, ApiError> {
    let text = bounded_lines("ingredients", text, MAX_INGREDIENTS)?;
    if text.matches('*').count() % 2 == 1 {
        return Err(ApiError::invalid(
            "ingredients: an allergen mark is not closed (write *barley* to mark barley)",
        ));
    }
    Ok(text)
}

pub fn parse_caffeine(value: f64) -> Result<u32, ApiError> {
    whole("caffeineMgPerLitre", value, MAX_CAFFEINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nutrition(json: serde_json::Value) -> Result<Nutrition, ApiError> {
        serde_json::from_value::<NutritionInput>(json)
            .unwrap()
            .parse()
    }

    fn cola() -> serde_json::Value {
        serde_json::json!({"energyKj": 180, "energyKcal": 42, "fat": 0, "saturates": 0,
            "carbohydrate": 10.6, "sugars": 10.6, "protein": 0, "salt": 0.02})
    }

    #[test]
    fn grams_keep_one_decimal_and_sums_must_fit() {
        let err = nutrition(cola()).unwrap_err();
        assert_eq!(
            (err.status().as_u16(), err.message()),
            (422, "nutrition.salt must have at most 1 decimal")
        );
        let mut ok = cola();
        ok["salt"] = 0.1.into();
        let parsed = nutrition(ok.clone()).unwrap();
        assert_eq!(parsed.sugars, Tenths(106));
        assert_eq!(serde_json::to_value(&parsed).unwrap()["carbohydrate"], 10.6);
        for (field, value, message) in [
            (
                "sugars",
                serde_json::json!(10.7),
                "nutrition.sugars cannot be more than nutrition.carbohydrate",
            ),
            (
                "saturates",
                serde_json::json!(0.1),
                "nutrition.saturates cannot be more than nutrition.fat",
            ),
            (
                "fat",
                serde_json::json!(-0.1),
                "nutrition.fat must be grams from 0 to 100",
            ),
            (
                "energyKj",
                serde_json::json!(12.5),
                "nutrition.energyKj must be a whole number from 0 to 4000",
            ),
        ] {
            let mut body = ok.clone();
            body[field] = value;
            assert_eq!(nutrition(body).unwrap_err().message(), message);
        }
    }

    #[test]
    fn allergens_come_from_the_list_in_its_order() {
        let names = |list: &[&str]| -> Vec<AllergenInput> {
            list.iter()
                .map(|n| AllergenInput((*n).to_owned()))
                .collect()
        };
        assert_eq!(
            parse_allergens(&names(&["sulphites", "gluten", "sulphites"])).unwrap(),
            ["gluten", "sulphites"]
        );
        let err = parse_allergens(&names(&["gluten", "strawberries"])).unwrap_err();
        assert_eq!(err.status(), 422);
        assert!(err.message().starts_with("allergens: \"strawberries\""));
    }

    #[test]
    fn ingredients_marks_must_close_and_info_round_trips() {
        assert!(parse_ingredients("Water, *barley malt").is_err());
        let info = FoodInfo {
            ingredients: parse_ingredients(" Water, *barley* malt ").unwrap(),
            allergens: vec!["gluten".into()],
            nutrition: Some(
                nutrition(serde_json::json!({"energyKj": 180, "energyKcal": 42,
                "fat": 0, "saturates": 0, "carbohydrate": 10.6, "sugars": 10.6, "protein": 0,
                "salt": 0.1}))
                .unwrap(),
            ),
            caffeine_mg_per_litre: Some(320),
            storage: "Cool and dry.".into(),
        };
        let mut item = Item::new();
        info.write_attributes(&mut item);
        assert_eq!(FoodInfo::from_item(&item).unwrap(), info);
        assert!(info.high_caffeine());
        assert_eq!(
            FoodInfo::from_item(&Item::new()).unwrap(),
            FoodInfo::default()
        );
    }
}
