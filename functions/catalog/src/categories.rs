//! Categories: groups of drinks on the home page (`_id, name, des, image`).

use crate::category::Category;
use crate::product::Product;
use crate::products::UploadNameInput;
use crate::AppState;
use axum::extract::State;
use serde::Deserialize;
use shared::auth::Admin;
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::store::{new_id, not_found};
use shared::text_schema::{text, text_or_blank, Lines};
use shared::validation::{bounded_lines, Name};
use shared::{ApiError, ApiResult, Json};

#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct CategoryInput {
    /// Required on create.
    #[schemars(regex(pattern = text(Lines::One, 3, None)), length(max = 80))]
    name: Option<String>,
    #[schemars(regex(pattern = text_or_blank(Lines::Many, 1, None)), length(max = 2_000))]
    des: Option<String>,
    image: Option<Vec<UploadNameInput>>,
}

impl CategoryInput {
    fn apply(self, mut category: Category) -> Result<Category, ApiError> {
        if let Some(name) = &self.name {
            if name.chars().count() > 80 {
                return Err(ApiError::invalid("name must be at most 80 characters"));
            }
            category.name = Name::parse(name)?.into_inner();
        }
        if let Some(des) = &self.des {
            category.des = bounded_lines("des", des, 2_000)?;
        }
        if let Some(images) = &self.image {
            category.image = UploadNameInput::parse_all(images)?;
        }
        Ok(category)
    }
}

/// The body of `POST /api/category/create/`: a `CategoryInput` whose name is required.
pub struct NewCategoryInput;

impl schemars::JsonSchema for NewCategoryInput {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NewCategoryInput".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        shared::openapi::requiring::<CategoryInput>(
            generator,
            "A new category: its name required, the rest as on update.",
            &["name"],
        )
    }
}

pub async fn list_categories(State(state): State<AppState>) -> ApiResult<Json<Vec<Category>>> {
    Ok(Json(state.store.list::<Category>().await?))
}

pub async fn create_category(
    _: Admin,
    State(state): State<AppState>,
    Json(input): Json<CategoryInput>,
) -> ApiResult<Created<Category>> {
    if input.name.is_none() {
        return Err(ApiError::invalid("name is required"));
    }
    let now = shared::time::now_iso();
    let blank = Category {
        id: new_id(),
        name: String::new(),
        des: String::new(),
        image: Vec::new(),
        created_at: now.clone(),
        updated_at: now,
        version: 1,
    };
    let category = input.apply(blank)?;
    state.store.insert(&category).await?;
    state.catalogue.invalidate();
    Ok(Created(category))
}

pub async fn update_category(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(input): Json<CategoryInput>,
) -> ApiResult<Json<Category>> {
    let stored = state
        .store
        .get::<Category>(&id)
        .await?
        .ok_or_else(not_found::<Category>)?;
    let mut category = input.apply(stored)?;
    category.updated_at = shared::time::now_iso();
    state.store.replace(&category).await?;
    state.catalogue.invalidate();
    category.version += 1;
    Ok(Json(category))
}

/// Refused while drinks still belong to the category, so no drink points at nothing.
pub async fn delete_category(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let members = state
        .store
        .list::<Product>()
        .await?
        .into_iter()
        .filter(|p| p.category.as_deref() == Some(id.as_str()))
        .count();
    if members > 0 {
        return Err(ApiError::conflict(format!(
            "{members} drink(s) are still in this category: move or delete them first"
        )));
    }
    state.store.delete::<Category>(&id).await?;
    state.catalogue.invalidate();
    Ok(Message::new("The category was deleted"))
}
