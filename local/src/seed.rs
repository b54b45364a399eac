//! The demo shop a newcomer sees after `make run`: drinks with generated pictures, categories, site info,
//! a few customer reviews and the admin account. Drinks, categories and reviews go in through their
//! functions' own APIs, so seeded data passes the same rules as anything an admin or shopper types.

use crate::functions::LocalEnv;
use aws_sdk_dynamodb::types::AttributeValue;
use axum::body::Body;
use axum::Router;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use shared::auth::{AuthKeys, Role};
use shared::config::Lookup;
use shared::dynamo::{s, Item};
use testkit::emulator::BoxError;
use tower::ServiceExt;

pub const ADMIN_EMAIL: &str = "admin@example.com";

/// A demo drink: name, pack label, price, stock, discount, category, colours of its can.
struct Demo {
    name: &'static str,
    des: &'static str,
    qty: &'static str,
    price: f64,
    stock: u32,
    discount: u8,
    featured: bool,
    category: usize,
    colours: [[u8; 3]; 2],
    food: Food,
}

/// A demo drink's food information: ingredients (allergens marked `*so*`), allergens, nutrition per 100 ml
/// (kJ, kcal, then grams of fat, saturates, carbohydrate, sugars, protein, salt) and caffeine in mg/l.
struct Food {
    ingredients: &'static str,
    allergens: &'static [&'static str],
    nutrition: [f64; 8],
    caffeine: Option<u32>,
    storage: &'static str,
    /// The Annex III statements its label carries (catalog's `statements`).
    statements: &'static [&'static str],
}

const CANS: &str = "Store in a cool, dry place away from direct sunlight. Once opened, keep refrigerated and drink within 2 days.";
const COLA: &str = "Carbonated water, cane sugar, colour (caramel E150d), acid (phosphoric acid), natural flavourings, caffeine.";

const CATEGORIES: &[(&str, &str)] = &[
    (
        "Colas",
        "Our classic colas, made with cane sugar or none at all.",
    ),
    ("Fruit sodas", "Sparkling drinks with real fruit juice."),
    ("Waters", "Spring water, still and sparkling."),
];

const DRINKS: &[Demo] = &[
    Demo {
        name: "Classic Cola",
        des: "Our original cola: cane sugar, a hint of citrus and a proper fizz.",
        qty: "24 x 330ml",
        price: 17.99,
        stock: 120,
        discount: 0,
        featured: true,
        category: 0,
        colours: [[178, 34, 34], [250, 235, 215]],
        food: Food { ingredients: COLA, allergens: &[], nutrition: [180.0, 42.0, 0.0, 0.0, 10.6, 10.6, 0.0, 0.0], caffeine: Some(100), storage: CANS, statements: &[] },
    },
    Demo {
        name: "Zero Sugar Cola",
        des: "All the taste of the classic, no sugar.",
        qty: "24 x 330ml",
        price: 17.99,
        stock: 90,
        discount: 10,
        featured: true,
        category: 0,
        colours: [[25, 25, 25], [220, 20, 60]],
        food: Food {
            ingredients: "Carbonated water, colour (caramel E150d), acids (phosphoric acid, citric acid), sweeteners (aspartame, acesulfame K), natural flavourings, caffeine.",
            allergens: &[], nutrition: [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], caffeine: Some(120), storage: CANS,
            statements: &["with-sweeteners", "phenylalanine"],
        },
    },
    Demo {
        name: "Orange Sparkle",
        des: "Sicilian orange juice with sparkling spring water.",
        qty: "12 x 330ml",
        price: 9.49,
        stock: 60,
        discount: 0,
        featured: true,
        category: 1,
        colours: [[255, 140, 0], [255, 248, 220]],
        food: Food {
            ingredients: "Sparkling spring water, orange juice from concentrate (20%), cane sugar, citric acid, natural orange flavouring, antioxidant (ascorbic acid).",
            allergens: &[], nutrition: [150.0, 35.0, 0.0, 0.0, 8.4, 8.4, 0.1, 0.0], caffeine: None, storage: CANS,
            statements: &[],
        },
    },
    Demo {
        name: "Lemon & Lime",
        des: "Zesty lemons and limes, lightly sparkling.",
        qty: "12 x 330ml",
        price: 9.49,
        stock: 45,
        discount: 0,
        featured: false,
        category: 1,
        colours: [[154, 205, 50], [255, 250, 205]],
        food: Food {
            ingredients: "Carbonated water, sugar, lemon juice from concentrate (5%), lime juice from concentrate (2%), citric acid, natural lemon and lime flavourings, preservative (*potassium metabisulphite*).",
            allergens: &["sulphites"], nutrition: [120.0, 28.0, 0.0, 0.0, 6.9, 6.9, 0.0, 0.0], caffeine: None, storage: CANS,
            statements: &[],
        },
    },
    Demo {
        name: "Mango Passion",
        des: "Alphonso mango and passion fruit, bright and tropical.",
        qty: "12 x 330ml",
        price: 10.49,
        stock: 30,
        discount: 15,
        featured: true,
        category: 1,
        colours: [[255, 179, 71], [128, 0, 64]],
        food: Food {
            ingredients: "Carbonated water, mango purée (15%), cane sugar, passion fruit juice from concentrate (4%), citric acid, natural flavourings.",
            allergens: &[], nutrition: [170.0, 40.0, 0.0, 0.0, 9.6, 9.2, 0.1, 0.0], caffeine: None, storage: CANS,
            statements: &[],
        },
    },
    Demo {
        name: "Sparkling Spring Water",
        des: "Spring water from the Pennines with fine bubbles.",
        qty: "24 x 500ml",
        price: 12.99,
        stock: 200,
        discount: 0,
        featured: false,
        category: 2,
        colours: [[70, 130, 180], [240, 248, 255]],
        food: Food {
            ingredients: "Sparkling natural spring water.",
            allergens: &[], nutrition: [0.0; 8], caffeine: None,
            storage: "Store in a cool, dry place away from direct sunlight and strong smells.",
            statements: &[],
        },
    },
    Demo {
        name: "Cherry Cola",
        des: "Classic cola with dark cherries and an extra lift of caffeine from guarana.",
        qty: "24 x 330ml",
        price: 18.49,
        stock: 8,
        discount: 0,
        featured: false,
        category: 0,
        colours: [[110, 14, 40], [255, 182, 193]],
        food: Food {
            ingredients: "Carbonated water, cane sugar, cherry juice from concentrate (3%), colour (caramel E150d), acid (phosphoric acid), natural flavourings, caffeine (from guarana).",
            allergens: &[], nutrition: [190.0, 45.0, 0.0, 0.0, 11.2, 11.0, 0.0, 0.0], caffeine: Some(160), storage: CANS,
            statements: &[],
        },
    },
];

/// Demo reviews: stars, drink (index into `DRINKS`), name, comment. Mostly happy, as a real shop's are.
const REVIEWS: &[(u8, usize, &str, &str)] = &[
    (
        5,
        0,
        "Hannah Whitfield",
        "Proper cola, like the ones we had as kids. The case arrived the next day.",
    ),
    (
        4,
        4,
        "Omar Saleh",
        "Lovely mango flavour, not too sweet. I would buy a bigger case.",
    ),
    (
        5,
        2,
        "Grace O'Connell",
        "Tastes of real oranges. Our office goes through a case a week.",
    ),
    (
        3,
        1,
        "Daniel Price",
        "Good for a zero sugar drink, though I prefer the classic.",
    ),
    (
        5,
        5,
        "Aisha Rahman",
        "Fine bubbles and a clean taste: the best sparkling water we have tried.",
    ),
];

/// The demo reviews, written through the reviews API so they pass its rules and move its counters.
async fn seed_reviews(api: &Router, token: &str, drink_ids: &[String]) -> Result<(), BoxError> {
    for (n, (rating, drink, fullname, comment)) in REVIEWS.iter().enumerate() {
        let body = json!({
            "rating": rating, "comment": comment, "fullname": fullname,
            "email": format!("reviewer{}@example.com", n + 1),
            "products": drink_ids.get(*drink).cloned().unwrap_or_default(),
        });
        call(api, Method::POST, "/api/reviews/create/", token, Some(body)).await?;
    }
    Ok(())
}

/// Demo subscribers on the two configured mail lists, signed up through the public API as shoppers would.
const SUBSCRIBERS: &[(&str, &str, &[&str])] = &[
    (
        "layla.subscriber@example.com",
        "Layla Haddad",
        &["Newsletter"],
    ),
    (
        "sami.subscriber@example.com",
        "Sami Khalil",
        &["Newsletter", "Offers and new drinks"],
    ),
    (
        "noor.subscriber@example.com",
        "",
        &["Offers and new drinks"],
    ),
];

/// The demo subscribers sign up through the API and follow their confirmation links (double opt-in), as
/// readers would.
async fn seed_subscribers(env: &LocalEnv, api: &Router, token: &str) -> Result<(), BoxError> {
    let state = newsletter::AppState::new(
        newsletter::Config::from_env(&env.lookup("NewsletterFunction"))?,
        env.dynamodb.clone(),
        env.ses.clone(),
        env.sqs.clone(),
    );
    for (email, fullname, lists) in SUBSCRIBERS {
        let body = json!({"email": email, "fullname": fullname, "lists": lists});
        call(
            api,
            Method::POST,
            "/api/subscription/create/",
            token,
            Some(body),
        )
        .await?;
        let waiting = newsletter::signup::confirmation_token(&state, email)
            .await
            .map_err(|e| e.message().to_owned())?;
        if let Some(confirm) = waiting {
            let body = serde_json::json!({ "token": confirm });
            call(
                api,
                Method::POST,
                "/api/subscription/confirm/",
                token,
                Some(body),
            )
            .await?;
        }
    }
    Ok(())
}

/// Lets the emulator's SES send from the shop's address (a domain identity covers the whole domain).
pub async fn verify_sender(env: &LocalEnv) -> Result<(), BoxError> {
    let from = env
        .lookup("CatalogFunction")
        .get("MAIL_FROM")
        .unwrap_or_else(|| "shop@example.com".to_owned());
    let domain = from.rsplit('@').next().unwrap_or("example.com").to_owned();
    let exists = env
        .ses
        .get_email_identity()
        .email_identity(&domain)
        .send()
        .await
        .is_ok();
    if !exists {
        env.ses
            .create_email_identity()
            .email_identity(&domain)
            .send()
            .await?;
    }
    Ok(())
}

async fn call(
    api: &Router,
    method: Method,
    uri: &str,
    token: &str,
    body: Option<Value>,
) -> Result<Value, BoxError> {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(
            body.map(|b| Body::from(b.to_string()))
                .unwrap_or_else(Body::empty),
        )?;
    let response = api.clone().oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status != StatusCode::OK && status != StatusCode::CREATED {
        return Err(format!("seeding {uri}: {status} {value}").into());
    }
    Ok(value)
}

/// The demo drinks, categories, site info and reviews, for a store that was empty. The admin must exist
/// first ([`seed_admin`]): seeding goes through admin routes, which check that the caller does.
pub async fn seed_demo_shop(env: &LocalEnv, api: &Router) -> Result<(), BoxError> {
    // Only the auth function holds the signing key.
    let keys = AuthKeys::from_env(&env.lookup("AuthFunction"))?;
    let token = keys
        .issue(ADMIN_EMAIL, Role::Admin, 300)
        .map_err(|e| e.to_string())?;
    let mut category_ids = Vec::new();
    for (name, des) in CATEGORIES {
        let created = call(
            api,
            Method::POST,
            "/api/category/create/",
            &token,
            Some(json!({"name": name, "des": des})),
        )
        .await?;
        category_ids.push(created["_id"].as_str().unwrap_or_default().to_owned());
    }
    let mut drink_ids = Vec::new();
    for (sort, drink) in DRINKS.iter().enumerate() {
        let image = format!("{}.png", slug(drink.name));
        env.s3
            .put_object()
            .bucket(&env.images_bucket)
            .key(format!("uploads/{image}"))
            .content_type("image/png")
            .body(pictures::can(drink.colours[0], drink.colours[1]).into())
            .send()
            .await?;
        let body = json!({
            "name": drink.name, "des": drink.des,
            "des2": format!("{} Made in small batches in the UK and delivered across the UK.", drink.des),
            "qty": drink.qty, "price": drink.price, "TheNumber": drink.stock, "discount": drink.discount,
            "Isdefault": drink.featured, "sort": sort + 1, "image": [image],
            "category": category_ids[drink.category],
            "ingredients": drink.food.ingredients, "allergens": drink.food.allergens,
            "nutrition": nutrition(&drink.food.nutrition),
            "caffeineMgPerLitre": drink.food.caffeine, "storage": drink.food.storage,
            "statements": drink.food.statements,
        });
        let created = call(
            api,
            Method::POST,
            "/api/product/create/",
            &token,
            Some(body),
        )
        .await?;
        drink_ids.push(created["_id"].as_str().unwrap_or_default().to_owned());
    }
    seed_price_history(env, &drink_ids).await?;
    seed_site_info(env).await?;
    seed_reviews(api, &token, &drink_ids).await?;
    seed_subscribers(env, api, &token).await?;
    tracing::info!(
        drinks = DRINKS.len(),
        reviews = REVIEWS.len(),
        subscribers = SUBSCRIBERS.len(),
        "seeded the demo shop"
    );
    Ok(())
}

/// Backdates the price history of the demo drinks on promotion, so the demo shows both sides of the "was"
/// price rule (catalog's `pricing`): Mango Passion sold at its full price for 60 days before its promotion
/// began 10 days ago (a genuine was price), while Zero Sugar Cola's promotion began when it was added (no
/// earlier price to show, and the admin's price history says why). An admin cannot backdate a price, so
/// this one write goes to the table itself, on the drink's key as the catalogue's store spells it.
async fn seed_price_history(env: &LocalEnv, drink_ids: &[String]) -> Result<(), BoxError> {
    use catalog::pricing::{days, format_date, uk_day};
    let Some((index, drink)) = DRINKS
        .iter()
        .enumerate()
        .find(|(_, drink)| drink.name == "Mango Passion")
    else {
        return Ok(());
    };
    let now = shared::time::now_unix();
    let start = format_date(uk_day(now - days(10)));
    let pence = AttributeValue::N(format!("{}", (drink.price * 100.0).round() as i64));
    let change = |at: i64, discount: u8, start: Option<&str>| {
        let mut map = Item::from([
            ("at".to_owned(), AttributeValue::N(at.to_string())),
            ("pricePence".to_owned(), pence.clone()),
            (
                "discount".to_owned(),
                AttributeValue::N(discount.to_string()),
            ),
        ]);
        if let Some(start) = start {
            map.insert("promotionStart".to_owned(), s(start));
        }
        AttributeValue::M(map)
    };
    env.dynamodb
        .update_item()
        .table_name(env.names.table("CatalogTable"))
        .set_key(Some(catalog::store::product_key(&drink_ids[index])))
        .update_expression("SET priceHistory = :history, promotionStart = :start")
        .expression_attribute_values(
            ":history",
            AttributeValue::L(vec![
                change(now - days(70), 0, None),
                change(now - days(10), drink.discount, Some(&start)),
            ]),
        )
        .expression_attribute_values(":start", s(&start))
        .send()
        .await?;
    Ok(())
}

fn nutrition(values: &[f64; 8]) -> Value {
    let [energy_kj, energy_kcal, fat, saturates, carbohydrate, sugars, protein, salt] = *values;
    json!({
        "energyKj": energy_kj, "energyKcal": energy_kcal, "fat": fat, "saturates": saturates,
        "carbohydrate": carbohydrate, "sugars": sugars, "protein": protein, "salt": salt,
    })
}

fn slug(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// The site-info record the content function serves (spec: Site info entity), on the key the content's
/// store spells: the demo's facts written whole, as that function stores them.
async fn seed_site_info(env: &LocalEnv) -> Result<(), BoxError> {
    let social = AttributeValue::M(Item::from([
        ("facebook".to_owned(), s("https://facebook.com/")),
        ("instagram".to_owned(), s("https://instagram.com/")),
        ("x".to_owned(), s("https://x.com/")),
        ("tiktok".to_owned(), s("https://tiktok.com/")),
        ("youtube".to_owned(), s("https://youtube.com/")),
    ]));
    let now = shared::time::now_iso();
    let mut item = content::store::site_key();
    item.extend([
        ("id".to_owned(), s(content::SITE_ID)),
        ("name".to_owned(), s("Palestine Drinks")),
        (
            "des".to_owned(),
            s("Soft drinks made in small batches, delivered across the UK."),
        ),
        (
            "cover_des".to_owned(),
            s("Colas, fruit sodas and spring water with real ingredients."),
        ),
        ("phone".to_owned(), s("0113 496 0000")),
        ("email".to_owned(), s("hello@example.com")),
        ("open".to_owned(), s("Mon-Fri 09:00-18:00, Sat 10:00-18:00")),
        ("close".to_owned(), s("Sunday")),
        ("address".to_owned(), s("1 Mill Yard, Leeds LS1 1AA")),
        ("vatRate".to_owned(), AttributeValue::N("20".into())),
        ("vatNumber".to_owned(), s("GB123456789")),
        ("deliveryEstimate".to_owned(), s("2 to 4 working days")),
        ("companyName".to_owned(), s("Palestine Drinks Ltd")),
        ("companyNumber".to_owned(), s("12345678")),
        (
            "registeredOffice".to_owned(),
            s("1 Mill Yard, Leeds LS1 1AA"),
        ),
        ("Social".to_owned(), social),
        ("createdAt".to_owned(), s(&now)),
        ("updatedAt".to_owned(), s(&now)),
        ("version".to_owned(), AttributeValue::N("1".into())),
    ]);
    env.dynamodb
        .put_item()
        .table_name(env.names.table("ContentTable"))
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

/// The admin account (the auth function also promotes `ADMIN_EMAILS` on first login), written by the auth
/// crate as it writes every user; kept if it exists.
pub async fn seed_admin(env: &LocalEnv) -> Result<(), BoxError> {
    auth::ensure_admin(
        &env.dynamodb,
        &env.names.table("UsersTable"),
        ADMIN_EMAIL,
        "Shop Admin",
    )
    .await
    .map_err(|error| error.to_string().into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn slugs_are_upload_names() {
        assert_eq!(super::slug("Lemon & Lime"), "lemon-lime");
        assert!(shared::validation::UploadName::parse(&format!(
            "{}.png",
            super::slug("Lemon & Lime")
        ))
        .is_ok());
    }
}
