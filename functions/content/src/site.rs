//! The site-info record: the shop's name and texts, contact details, opening hours, social links and the
//! promotion line. One record (`_id` "main"); the contact routes read and write its contact fields, so
//! contact details and site info can never disagree.

use crate::entries::{check_link, About, Entry, WhoWeAre};
use crate::rules;
use crate::AppState;
use aws_sdk_dynamodb::types::AttributeValue;
use axum::extract::State;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::dynamo::{
    get_s, get_s_or_default, get_string_list, n, s, string_list, Item, ItemError,
};
use shared::extract::Path;
use shared::json::{Created, Object};
use shared::store::{version_of, Entity};
use shared::trader::{
    Trader, DEFAULT_DELIVERY_ESTIMATE, DEFAULT_MINIMUM_AGE, DEFAULT_VAT_RATE, MINIMUM_AGES,
};
use shared::validation::{
    bounded_lines, bounded_text, without_controls, Email, Lines, Name, Phone, UploadName,
};
use shared::{ApiError, ApiResult, Json};

pub const SITE_ID: &str = "main";

/// The shop's social links, each a web address or empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct Social {
    pub facebook: String,
    pub instagram: String,
    pub x: String,
    pub tiktok: String,
    pub youtube: String,
}

/// The social links as an admin sends them: a link left out is cleared, like an empty one.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SocialInput {
    #[serde(default)]
    #[schemars(regex(pattern = rules::social_link()), length(max = 500))]
    facebook: String,
    #[serde(default)]
    #[schemars(regex(pattern = rules::social_link()), length(max = 500))]
    instagram: String,
    /// Also read as `twitter`.
    #[serde(default, alias = "twitter")]
    #[schemars(regex(pattern = rules::social_link()), length(max = 500))]
    x: String,
    #[serde(default)]
    #[schemars(regex(pattern = rules::social_link()), length(max = 500))]
    tiktok: String,
    #[serde(default)]
    #[schemars(regex(pattern = rules::social_link()), length(max = 500))]
    youtube: String,
}

/// The site info as the API answers it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SiteInfo {
    /// `null` until an admin (or the seed) creates the record.
    #[serde(rename = "_id")]
    pub id: Option<String>,
    pub name: String,
    pub des: String,
    pub cover_des: String,
    pub image: Vec<String>,
    pub phone: String,
    pub email: String,
    /// Opening hours, e.g. "Mon-Fri 09:00-18:00, Sat 10:00-18:00".
    pub open: String,
    /// When the shop is closed, e.g. "Sunday and bank holidays".
    pub close: String,
    pub address: String,
    #[serde(rename = "Social")]
    pub social: Social,
    /// A promotion line shown across the shop, e.g. "10% off your first order with HELLO10".
    pub discount: String,
    /// The VAT rate prices include, a whole percentage (20 until an admin sets another).
    #[serde(rename = "vatRate")]
    pub vat_rate: u32,
    /// The shop's VAT number for receipts (GB and 9 or 12 digits), or empty.
    #[serde(rename = "vatNumber")]
    pub vat_number: String,
    /// How long delivery takes, shown at checkout and in the confirmation, e.g. "2 to 4 working days".
    #[serde(rename = "deliveryEstimate")]
    pub delivery_estimate: String,
    /// The company's registered name (e.g. "Fizz Drinks Ltd"), shown in the footer, the terms and on
    /// receipts; empty until set.
    #[serde(rename = "companyName")]
    pub company_name: String,
    /// Its Companies House number (8 characters, e.g. 01234567 or SC123456), or empty.
    #[serde(rename = "companyNumber")]
    pub company_number: String,
    /// Its registered office address, or empty.
    #[serde(rename = "registeredOffice")]
    pub registered_office: String,
    /// The age from which drinks over 150 mg of caffeine a litre are sold (asked at checkout, checked by
    /// the carrier on delivery): 16 until an admin sets another, `null` when the check is off.
    #[serde(rename = "minimumAge")]
    pub minimum_age: Option<u32>,
    #[serde(rename = "createdAt", skip_serializing_if = "String::is_empty")]
    pub created_at: String,
    #[serde(rename = "updatedAt", skip_serializing_if = "String::is_empty")]
    pub updated_at: String,
    #[serde(skip)]
    pub version: u64,
}

/// Before an admin creates the record: empty texts, the default VAT rate and delivery estimate.
impl Default for SiteInfo {
    fn default() -> Self {
        SiteInfo {
            id: None,
            name: String::new(),
            des: String::new(),
            cover_des: String::new(),
            image: Vec::new(),
            phone: String::new(),
            email: String::new(),
            open: String::new(),
            close: String::new(),
            address: String::new(),
            social: Social::default(),
            discount: String::new(),
            vat_rate: DEFAULT_VAT_RATE,
            vat_number: String::new(),
            delivery_estimate: DEFAULT_DELIVERY_ESTIMATE.to_owned(),
            company_name: String::new(),
            company_number: String::new(),
            registered_office: String::new(),
            minimum_age: Some(DEFAULT_MINIMUM_AGE),
            created_at: String::new(),
            updated_at: String::new(),
            version: 0,
        }
    }
}

impl Entity for SiteInfo {
    const KIND: &'static str = "SITE";
    const NOUN: &'static str = "site info";

    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or(SITE_ID)
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        SITE_ID.to_owned()
    }

    fn to_attributes(&self) -> Item {
        let social = &self.social;
        Item::from([
            ("id".to_owned(), s(SITE_ID)),
            ("name".to_owned(), s(&self.name)),
            ("des".to_owned(), s(&self.des)),
            ("cover_des".to_owned(), s(&self.cover_des)),
            ("image".to_owned(), string_list(&self.image)),
            ("phone".to_owned(), s(&self.phone)),
            ("email".to_owned(), s(&self.email)),
            ("open".to_owned(), s(&self.open)),
            ("close".to_owned(), s(&self.close)),
            ("address".to_owned(), s(&self.address)),
            ("discount".to_owned(), s(&self.discount)),
            ("vatRate".to_owned(), n(self.vat_rate)),
            ("vatNumber".to_owned(), s(&self.vat_number)),
            ("deliveryEstimate".to_owned(), s(&self.delivery_estimate)),
            ("companyName".to_owned(), s(&self.company_name)),
            ("companyNumber".to_owned(), s(&self.company_number)),
            ("registeredOffice".to_owned(), s(&self.registered_office)),
            ("minimumAge".to_owned(), n(self.minimum_age.unwrap_or(0))),
            (
                "Social".to_owned(),
                AttributeValue::M(Item::from([
                    ("facebook".to_owned(), s(&social.facebook)),
                    ("instagram".to_owned(), s(&social.instagram)),
                    ("x".to_owned(), s(&social.x)),
                    ("tiktok".to_owned(), s(&social.tiktok)),
                    ("youtube".to_owned(), s(&social.youtube)),
                ])),
            ),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ])
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let social = match item.get("Social") {
            Some(AttributeValue::M(map)) => Social {
                facebook: get_s_or_default(map, "facebook"),
                instagram: get_s_or_default(map, "instagram"),
                x: get_s_or_default(map, "x"),
                tiktok: get_s_or_default(map, "tiktok"),
                youtube: get_s_or_default(map, "youtube"),
            },
            _ => Social::default(),
        };
        // The facts checkout reads too, with the same defaults.
        let trader = Trader::from_item(item, "");
        Ok(SiteInfo {
            id: Some(get_s(item, "id")?),
            name: get_s_or_default(item, "name"),
            des: get_s_or_default(item, "des"),
            cover_des: get_s_or_default(item, "cover_des"),
            image: get_string_list(item, "image"),
            phone: get_s_or_default(item, "phone"),
            email: get_s_or_default(item, "email"),
            open: get_s_or_default(item, "open"),
            close: get_s_or_default(item, "close"),
            address: get_s_or_default(item, "address"),
            social,
            discount: get_s_or_default(item, "discount"),
            vat_rate: trader.vat_rate,
            vat_number: trader.vat_number,
            delivery_estimate: trader.delivery_estimate,
            company_name: trader.company_name,
            company_number: trader.company_number,
            registered_office: trader.registered_office,
            minimum_age: trader.minimum_age,
            created_at: get_s_or_default(item, "createdAt"),
            updated_at: get_s_or_default(item, "updatedAt"),
            version: version_of(item)?,
        })
    }
}

/// What an admin sends; every field optional, an empty text clears it.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SiteInput {
    /// Required on create.
    #[schemars(regex(pattern = rules::name()), length(max = 80))]
    name: Option<String>,
    #[schemars(regex(pattern = rules::lines()), length(max = 2_000))]
    des: Option<String>,
    #[schemars(regex(pattern = rules::lines()), length(max = 500))]
    cover_des: Option<String>,
    #[schemars(with = "Option<Vec<UploadName>>")]
    image: Option<Vec<String>>,
    #[schemars(regex(pattern = rules::PHONE_OR_BLANK), length(max = 30))]
    phone: Option<String>,
    #[schemars(regex(pattern = rules::EMAIL_OR_BLANK))]
    email: Option<String>,
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    open: Option<String>,
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    close: Option<String>,
    /// The shop's postal address, on as many lines as it needs.
    #[schemars(regex(pattern = rules::lines()), length(max = 300))]
    address: Option<String>,
    #[serde(rename = "Social")]
    social: Option<Object<SocialInput>>,
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    discount: Option<String>,
    /// The VAT rate prices include, a whole percentage from 0 to 100.
    #[serde(rename = "vatRate")]
    #[schemars(range(max = 100))]
    vat_rate: Option<u32>,
    /// GB and 9 or 12 digits, or empty.
    #[serde(rename = "vatNumber")]
    #[schemars(regex(pattern = rules::VAT_NUMBER_OR_BLANK), length(max = 20))]
    vat_number: Option<String>,
    #[serde(rename = "deliveryEstimate")]
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    delivery_estimate: Option<String>,
    /// The company's registered name, or empty.
    #[serde(rename = "companyName")]
    #[schemars(regex(pattern = rules::one_line()), length(max = 160))]
    company_name: Option<String>,
    /// Companies House number: 8 characters, two letters or digits then six digits, or empty.
    #[serde(rename = "companyNumber")]
    #[schemars(regex(pattern = rules::COMPANY_NUMBER_OR_BLANK), length(max = 20))]
    company_number: Option<String>,
    /// The registered office's address, on as many lines as it needs, or empty.
    #[serde(rename = "registeredOffice")]
    #[schemars(regex(pattern = rules::lines()), length(max = 300))]
    registered_office: Option<String>,
    /// The age from which drinks over 150 mg of caffeine a litre are sold, 16 to 18; `null` turns the age
    /// check off.
    #[serde(
        rename = "minimumAge",
        default,
        deserialize_with = "shared::json::present"
    )]
    #[schemars(range(min = 16, max = 18))]
    minimum_age: Option<Option<u32>>,
}

/// The create route's body: `SiteInput` with `name` required.
pub struct NewSiteInput;

impl JsonSchema for NewSiteInput {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NewSiteInput".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = rules::requiring(SiteInput::json_schema(generator), &["name"]);
        schema.insert(
            "description".to_owned(),
            "The site info as an admin first sends it: `name` is required, any other field optional."
                .into(),
        );
        schema
    }
}

fn social_link(field: &str, value: &str) -> Result<String, ApiError> {
    let trimmed = without_controls(&format!("Social.{field}"), value, Lines::One)?.trim();
    if trimmed.is_empty() {
        return Ok(String::new());
    }
    if !trimmed.starts_with("https://") && !trimmed.starts_with("http://") {
        return Err(ApiError::invalid(format!(
            "Social.{field} must be a web address (https://...)"
        )));
    }
    check_link(value)
}

/// A UK VAT number with its spaces taken out (GB123456789), or empty.
fn vat_number(raw: &str) -> Result<String, ApiError> {
    let pattern = regex_lite::Regex::new(rules::VAT_NUMBER_OR_BLANK).map_err(ApiError::internal)?;
    if !pattern.is_match(raw) {
        return Err(ApiError::invalid(
            "vatNumber must be GB followed by 9 or 12 digits, e.g. GB123456789",
        ));
    }
    Ok(raw.chars().filter(|c| !c.is_whitespace()).collect())
}

/// A Companies House number in capitals (SC123456), or empty.
fn company_number(raw: &str) -> Result<String, ApiError> {
    let pattern =
        regex_lite::Regex::new(rules::COMPANY_NUMBER_OR_BLANK).map_err(ApiError::internal)?;
    if raw.chars().count() > 20 || !pattern.is_match(raw) {
        return Err(ApiError::invalid(
            "companyNumber must be the 8 characters Companies House gives, e.g. 01234567 or SC123456",
        ));
    }
    Ok(raw.trim().to_uppercase())
}

impl SiteInput {
    fn apply(self, mut site: SiteInfo) -> Result<SiteInfo, ApiError> {
        if let Some(name) = &self.name {
            site.name = Name::parse(&bounded_text("name", name, 80)?)?.into_inner();
        }
        if let Some(des) = &self.des {
            site.des = bounded_lines("des", des, 2_000)?;
        }
        if let Some(cover) = &self.cover_des {
            site.cover_des = bounded_lines("cover_des", cover, 500)?;
        }
        if let Some(images) = &self.image {
            site.image = UploadName::parse_all(images)?;
        }
        if let Some(phone) = &self.phone {
            // A phone number's own characters leave out control characters: the white space around it
            // is trimmed, as `Phone::parse` does.
            if phone.chars().count() > 30 {
                return Err(ApiError::invalid("phone must be at most 30 characters"));
            }
            let phone = phone.trim().to_owned();
            site.phone = if phone.is_empty() {
                phone
            } else {
                Phone::parse(&phone)?.into_inner()
            };
        }
        if let Some(email) = &self.email {
            site.email = if email.trim().is_empty() {
                String::new()
            } else {
                Email::parse_normalised(email)?.into_inner()
            };
        }
        if let Some(open) = &self.open {
            site.open = bounded_text("open", open, 200)?;
        }
        if let Some(close) = &self.close {
            site.close = bounded_text("close", close, 200)?;
        }
        if let Some(address) = &self.address {
            site.address = bounded_lines("address", address, 300)?;
        }
        if let Some(Object(social)) = &self.social {
            site.social = Social {
                facebook: social_link("facebook", &social.facebook)?,
                instagram: social_link("instagram", &social.instagram)?,
                x: social_link("x", &social.x)?,
                tiktok: social_link("tiktok", &social.tiktok)?,
                youtube: social_link("youtube", &social.youtube)?,
            };
        }
        if let Some(discount) = &self.discount {
            site.discount = bounded_text("discount", discount, 200)?;
        }
        if let Some(rate) = self.vat_rate {
            if rate > 100 {
                return Err(ApiError::invalid(
                    "vatRate must be a whole percentage from 0 to 100",
                ));
            }
            site.vat_rate = rate;
        }
        if let Some(number) = &self.vat_number {
            site.vat_number = vat_number(number)?;
        }
        if let Some(age) = self.minimum_age {
            if age.is_some_and(|age| !MINIMUM_AGES.contains(&age)) {
                return Err(ApiError::invalid(
                    "minimumAge must be a whole number of years from 16 to 18, or null to turn the age check off",
                ));
            }
            site.minimum_age = age;
        }
        if let Some(estimate) = &self.delivery_estimate {
            let estimate = bounded_text("deliveryEstimate", estimate, 200)?;
            site.delivery_estimate = if estimate.is_empty() {
                DEFAULT_DELIVERY_ESTIMATE.to_owned()
            } else {
                estimate
            };
        }
        if let Some(company) = &self.company_name {
            site.company_name = bounded_text("companyName", company, 160)?;
        }
        if let Some(number) = &self.company_number {
            site.company_number = company_number(number)?;
        }
        if let Some(office) = &self.registered_office {
            site.registered_office = bounded_lines("registeredOffice", office, 300)?;
        }
        Ok(site)
    }
}

pub async fn load(state: &AppState) -> Result<Option<SiteInfo>, ApiError> {
    state.store.get::<SiteInfo>(SITE_ID).await
}

pub async fn show_site(State(state): State<AppState>) -> ApiResult<Json<SiteInfo>> {
    Ok(Json(load(&state).await?.unwrap_or_default()))
}

fn fresh_site() -> SiteInfo {
    let now = shared::time::now_iso();
    SiteInfo {
        id: Some(SITE_ID.to_owned()),
        created_at: now.clone(),
        updated_at: now,
        version: 1,
        ..SiteInfo::default()
    }
}

pub async fn create_site(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<SiteInput>,
) -> ApiResult<Created<SiteInfo>> {
    if load(&state).await?.is_some() {
        return Err(ApiError::conflict(
            "The site info exists already: update it instead",
        ));
    }
    if input.name.is_none() {
        return Err(ApiError::invalid("name is required"));
    }
    let site = input.apply(fresh_site())?;
    state.store.insert(&site).await?;
    Ok(Created(site))
}

pub async fn update_site(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<SiteInput>,
) -> ApiResult<Json<SiteInfo>> {
    let stored = match load(&state).await? {
        Some(site) if id == SITE_ID => site,
        _ => return Err(ApiError::not_found("No site info has this id")),
    };
    save(&state, input.apply(stored)?).await
}

async fn save(state: &AppState, mut site: SiteInfo) -> ApiResult<Json<SiteInfo>> {
    site.updated_at = shared::time::now_iso();
    state.store.replace(&site).await?;
    site.version += 1;
    Ok(Json(site))
}

/// The shop's contact details (part of the site info).
#[derive(Serialize, JsonSchema)]
pub struct Contact {
    phone: String,
    email: String,
    address: String,
    open: String,
    close: String,
}

pub async fn show_contact(State(state): State<AppState>) -> ApiResult<Json<Contact>> {
    let site = load(&state).await?.unwrap_or_default();
    Ok(Json(Contact {
        phone: site.phone,
        email: site.email,
        address: site.address,
        open: site.open,
        close: site.close,
    }))
}

/// The contact details an admin sends; every field optional, an empty text clears it.
#[derive(Deserialize, JsonSchema)]
pub struct ContactInput {
    #[schemars(regex(pattern = rules::PHONE_OR_BLANK), length(max = 30))]
    phone: Option<String>,
    #[schemars(regex(pattern = rules::EMAIL_OR_BLANK))]
    email: Option<String>,
    /// The shop's postal address, on as many lines as it needs.
    #[schemars(regex(pattern = rules::lines()), length(max = 300))]
    address: Option<String>,
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    open: Option<String>,
    #[schemars(regex(pattern = rules::one_line()), length(max = 200))]
    close: Option<String>,
}

/// Saves the contact details into the site info, creating the record if there is none yet.
pub async fn save_contact(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<ContactInput>,
) -> ApiResult<Json<Contact>> {
    let contact_only = SiteInput {
        phone: input.phone,
        email: input.email,
        address: input.address,
        open: input.open,
        close: input.close,
        ..SiteInput::default()
    };
    let site = match load(&state).await? {
        Some(site) => save(&state, contact_only.apply(site)?).await?.0,
        None => {
            let site = contact_only.apply(fresh_site())?;
            state.store.insert(&site).await?;
            site
        }
    };
    Ok(Json(Contact {
        phone: site.phone,
        email: site.email,
        address: site.address,
        open: site.open,
        close: site.close,
    }))
}

/// Everything the About us page shows.
#[derive(Serialize, JsonSchema)]
pub struct AboutPage {
    about: Vec<Entry<About>>,
    whoweare: Vec<Entry<WhoWeAre>>,
    connect: SiteInfo,
}

/// Everything the About us page shows, in one call.
pub async fn show_about_page(State(state): State<AppState>) -> ApiResult<Json<AboutPage>> {
    let (about, whoweare, site) = tokio::join!(
        state.store.list::<Entry<About>>(),
        state.store.list::<Entry<WhoWeAre>>(),
        load(&state)
    );
    Ok(Json(AboutPage {
        about: about?,
        whoweare: whoweare?,
        connect: site?.unwrap_or_default(),
    }))
}
