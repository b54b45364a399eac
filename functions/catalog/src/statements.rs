//! The mandatory label statements of Annex III (retained Regulation 1169/2011, Food Information Regulations
//! 2014) that a soft drink can need, as structured ids the admin picks and the storefront prints where the
//! law puts them (the sweetener statements beside the drink's name). The high-caffeine statement follows
//! from the caffeine content itself, so it is never forgotten: a drink over 150 mg/l carries it whatever was
//! picked. A drink whose ingredients name a sweetener without the sweetener statement is refused, and so is
//! aspartame without the phenylalanine statement.

use serde::Deserialize;
use shared::ApiError;

/// "with sweetener(s)": a drink with sweeteners and no added sugar (Annex III 2.1, with the name).
pub const WITH_SWEETENERS: &str = "with-sweeteners";
/// "with sugar(s) and sweetener(s)" (Annex III 2.2, with the name).
pub const WITH_SUGAR_AND_SWEETENERS: &str = "with-sugar-and-sweeteners";
/// "Contains a source of phenylalanine": aspartame or aspartame-acesulfame salt (Annex III 2.3).
pub const PHENYLALANINE: &str = "phenylalanine";
/// "excessive consumption may produce laxative effects": more than 10% added polyols (Annex III 2.4).
pub const POLYOLS: &str = "polyols";
/// "contains liquorice": glycyrrhizinic acid of 10 mg/l or more (Annex III 3.1).
pub const LIQUORICE: &str = "liquorice";
/// "contains liquorice — people suffering from hypertension should avoid excessive consumption": 50 mg/l
/// or more in a drink (Annex III 3.3).
pub const LIQUORICE_HYPERTENSION: &str = "liquorice-hypertension";
/// "High caffeine content. Not recommended for children or pregnant or breast-feeding women" with the mg per
/// 100 ml: over 150 mg/l (Annex III 4.1). Derived from `caffeineMgPerLitre`.
pub const HIGH_CAFFEINE: &str = "high-caffeine";

/// Every statement id, in the order a label prints them.
pub const STATEMENTS: [&str; 7] = [
    WITH_SWEETENERS,
    WITH_SUGAR_AND_SWEETENERS,
    PHENYLALANINE,
    POLYOLS,
    LIQUORICE,
    LIQUORICE_HYPERTENSION,
    HIGH_CAFFEINE,
];

/// One statement's id, as the document lists them.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct StatementId(#[schemars(extend("enum" = STATEMENTS))] pub String);

/// Sweeteners a soft drink may name, by name or E number (retained Regulation 1333/2008, Annex II).
const SWEETENERS: &[&str] = &[
    "acesulfame k",
    "acesulfame potassium",
    "acesulfame",
    "advantame",
    "aspartame",
    "cyclamate",
    "cyclamic acid",
    "erythritol",
    "isomalt",
    "lactitol",
    "maltitol",
    "mannitol",
    "neohesperidine dc",
    "neohesperidine dihydrochalcone",
    "neotame",
    "saccharin",
    "sorbitol",
    "steviol glycosides",
    "stevia glycosides",
    "stevia",
    "sucralose",
    "thaumatin",
    "xylitol",
    "e420",
    "e421",
    "e950",
    "e951",
    "e952",
    "e953",
    "e954",
    "e955",
    "e957",
    "e959",
    "e960",
    "e961",
    "e962",
    "e965",
    "e966",
    "e967",
    "e968",
    "e969",
];

/// Sweeteners that are a source of phenylalanine.
const PHENYLALANINE_SOURCES: &[&str] = &["aspartame", "e951", "e962"];

/// Added sugars, as an ingredients list names them.
const SUGARS: &[&str] = &["sugar", "glucose", "fructose", "sucrose", "dextrose"];

/// The ingredients as words: lower case, allergen marks dropped, every run of other characters (hyphens
/// too: "glucose-fructose syrup" names glucose) one space.
fn words(ingredients: &str) -> String {
    let mut text = String::with_capacity(ingredients.len() + 2);
    text.push(' ');
    let mut gap = false;
    for c in ingredients.to_lowercase().chars() {
        if c.is_alphanumeric() {
            if gap {
                text.push(' ');
                gap = false;
            }
            text.push(c);
        } else {
            gap = true;
        }
    }
    text.push(' ');
    text
}

/// Which of `names` the ingredients name first, as a whole word (or words); a plural `s` still counts.
fn first_named<'a>(text: &str, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .filter_map(|name| {
            [format!(" {name} "), format!(" {name}s ")]
                .iter()
                .filter_map(|word| text.find(word.as_str()))
                .min()
                .map(|at| (at, *name))
        })
        .min_by_key(|(at, name)| (*at, std::cmp::Reverse(name.len())))
        .map(|(_, name)| name)
}

/// The admin's picks as stored: each a known id, once, in the label's order, `high-caffeine` left out
/// (it follows the caffeine). 422 naming an unknown id.
pub fn parse(picked: &[String], high_caffeine: bool) -> Result<Vec<String>, ApiError> {
    // Each statement once: a list longer than the statements there are repeats one.
    if picked.len() > STATEMENTS.len() {
        return Err(ApiError::invalid(format!(
            "statements: at most {} statements, each once",
            STATEMENTS.len()
        )));
    }
    for id in picked {
        if !STATEMENTS.contains(&id.as_str()) {
            return Err(ApiError::invalid(format!(
                "statements: {id:?} is not a statement id (one of {})",
                STATEMENTS.join(", ")
            )));
        }
    }
    if picked.iter().any(|id| id == HIGH_CAFFEINE) && !high_caffeine {
        return Err(ApiError::invalid(
            "statements: high-caffeine is for a drink over 150 mg of caffeine a litre: set caffeineMgPerLitre",
        ));
    }
    Ok(STATEMENTS
        .iter()
        .filter(|id| **id != HIGH_CAFFEINE && picked.iter().any(|p| p == *id))
        .map(|id| (*id).to_owned())
        .collect())
}

/// The statements a drink answers: the picked ones with `high-caffeine` where its caffeine asks for it.
pub fn answered(picked: &[String], high_caffeine: bool) -> Vec<String> {
    STATEMENTS
        .iter()
        .filter(|id| {
            if **id == HIGH_CAFFEINE {
                high_caffeine
            } else {
                picked.iter().any(|p| p == *id)
            }
        })
        .map(|id| (*id).to_owned())
        .collect()
}

/// Refuses a drink whose statements do not fit its ingredients, saying what to pick.
pub fn check(ingredients: &str, picked: &[String]) -> Result<(), ApiError> {
    let has = |id: &str| picked.iter().any(|p| p == id);
    if has(WITH_SWEETENERS) && has(WITH_SUGAR_AND_SWEETENERS) {
        return Err(ApiError::invalid(format!(
            "statements: pick {WITH_SWEETENERS} or {WITH_SUGAR_AND_SWEETENERS}, not both"
        )));
    }
    let text = words(ingredients);
    if let Some(sweetener) = first_named(&text, SWEETENERS) {
        let sugar = first_named(&text, SUGARS);
        match sugar {
            Some(sugar) if !has(WITH_SUGAR_AND_SWEETENERS) => {
                return Err(ApiError::invalid(format!(
                    "statements: the ingredients name {sugar} and a sweetener ({sweetener}), so the label must \
                     say \"with sugar and sweeteners\": pick {WITH_SUGAR_AND_SWEETENERS}"
                )))
            }
            None if !has(WITH_SWEETENERS) && !has(WITH_SUGAR_AND_SWEETENERS) => {
                return Err(ApiError::invalid(format!(
                    "statements: the ingredients name a sweetener ({sweetener}), so the label must say \"with \
                     sweeteners\": pick {WITH_SWEETENERS} (or {WITH_SUGAR_AND_SWEETENERS} if it also has \
                     added sugar)"
                )))
            }
            _ => {}
        }
    }
    if let Some(source) = first_named(&text, PHENYLALANINE_SOURCES) {
        if !has(PHENYLALANINE) {
            return Err(ApiError::invalid(format!(
                "statements: the ingredients name {source}, so the label must say \"contains a source of \
                 phenylalanine\": pick {PHENYLALANINE}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn picks_are_known_ids_in_the_labels_order_and_caffeine_follows_the_drink() {
        assert_eq!(
            parse(
                &ids(&["phenylalanine", "with-sweeteners", "phenylalanine"]),
                false
            )
            .unwrap(),
            ids(&["with-sweeteners", "phenylalanine"])
        );
        let unknown = parse(&ids(&["sugar-free"]), false).unwrap_err();
        assert_eq!(unknown.status(), 422);
        assert!(unknown
            .message()
            .starts_with("statements: \"sugar-free\" is not a statement id"));
        assert!(parse(&ids(&["high-caffeine"]), false).is_err());
        assert_eq!(
            parse(&ids(&["high-caffeine"]), true).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(
            answered(&ids(&["with-sweeteners"]), true),
            ids(&["with-sweeteners", "high-caffeine"])
        );
    }

    #[test]
    fn a_named_sweetener_needs_its_statement() {
        let zero = "Carbonated water, acid (citric acid), sweeteners (sucralose, acesulfame K), flavourings.";
        let err = check(zero, &[]).unwrap_err();
        assert_eq!(err.status(), 422);
        assert!(
            err.message().contains("(sucralose)") && err.message().contains("pick with-sweeteners"),
            "{}",
            err.message()
        );
        assert!(check(zero, &ids(&["with-sweeteners"])).is_ok());
        // E numbers and capitals count; so does a sweetener next to sugar.
        let light = "Water, SUGAR, sweetener (E955).";
        let err = check(light, &ids(&["with-sweeteners"])).unwrap_err();
        assert!(
            err.message().contains("pick with-sugar-and-sweeteners"),
            "{}",
            err.message()
        );
        assert!(check(light, &ids(&["with-sugar-and-sweeteners"])).is_ok());
        assert!(check("Water, stevia glycosides.", &ids(&["with-sweeteners"])).is_ok());
        assert!(check(
            "Water, glucose-fructose syrup, acesulfame-K.",
            &ids(&["with-sweeteners"])
        )
        .is_err());
        assert!(check("Water, steviol glycosides.", &[]).is_err());
        // Aspartame also needs the phenylalanine statement.
        let diet = "Water, sweeteners (aspartame, acesulfame K).";
        let err = check(diet, &ids(&["with-sweeteners"])).unwrap_err();
        assert!(
            err.message().contains("pick phenylalanine"),
            "{}",
            err.message()
        );
        assert!(check(diet, &ids(&["with-sweeteners", "phenylalanine"])).is_ok());
        // No sweetener, no statement needed; words that merely contain one do not count.
        assert!(check("Carbonated water, cane sugar, caffeine.", &[]).is_ok());
        assert!(check("Water, isomaltulose.", &[]).is_ok());
        assert!(check("", &[]).is_ok());
        assert!(check(
            "Water",
            &ids(&["with-sweeteners", "with-sugar-and-sweeteners"])
        )
        .is_err());
    }
}
