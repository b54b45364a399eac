//! Users: created on their first login, with a profile they edit and a role admins change.

use crate::AppState;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use shared::auth::{user_key, Admin, Customer, Role};
use shared::dynamo::{get_s, get_s_or_default, is_condition_failed, s, Item, ItemError};
use shared::paging::{Page, PageQuery};
use shared::validation::{Address, Email, FullName, Phone};
use shared::{ApiError, ApiResult, Json};

/// Users per page of the admin list.
pub const PAGE_SIZE: usize = 20;

#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub email: String,
    pub role: Role,
    pub fullname: String,
    pub phone: String,
    pub address: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A user as the API shows them (`userInfo`, the user list).
#[derive(Debug, Serialize)]
pub struct UserInfo {
    #[serde(rename = "_id")]
    id: String,
    email: String,
    role: Role,
    fullname: String,
    phone: String,
    address: String,
    #[serde(rename = "createdAt")]
    created_at: String,
}

impl User {
    fn new(email: &str, role: Role) -> Self {
        let now = shared::time::now_iso();
        User {
            email: email.to_owned(),
            role,
            fullname: String::new(),
            phone: String::new(),
            address: String::new(),
            created_at: now.clone(),
            updated_at: now,
        }
    }

    pub fn info(&self) -> UserInfo {
        UserInfo {
            id: self.email.clone(),
            email: self.email.clone(),
            role: self.role,
            fullname: self.fullname.clone(),
            phone: self.phone.clone(),
            address: self.address.clone(),
            created_at: self.created_at.clone(),
        }
    }

    fn to_item(&self) -> Item {
        let mut item = user_key(&self.email);
        item.extend([
            ("gsi1pk".to_owned(), s("USERS")),
            (
                "gsi1sk".to_owned(),
                s(format!("{}#{}", self.created_at, self.email)),
            ),
            ("email".to_owned(), s(&self.email)),
            ("role".to_owned(), s(self.role.as_str())),
            ("fullname".to_owned(), s(&self.fullname)),
            ("phone".to_owned(), s(&self.phone)),
            ("address".to_owned(), s(&self.address)),
            ("createdAt".to_owned(), s(&self.created_at)),
            ("updatedAt".to_owned(), s(&self.updated_at)),
        ]);
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let role = match get_s(item, "role")?.as_str() {
            "admin" => Role::Admin,
            _ => Role::Customer,
        };
        let created_at = get_s(item, "createdAt")?;
        Ok(User {
            email: get_s(item, "email")?,
            role,
            fullname: get_s_or_default(item, "fullname"),
            phone: get_s_or_default(item, "phone"),
            address: get_s_or_default(item, "address"),
            updated_at: Some(get_s_or_default(item, "updatedAt"))
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| created_at.clone()),
            created_at,
        })
    }
}

async fn find(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    let found = state
        .db()
        .get_item()
        .table_name(state.table())
        .set_key(Some(user_key(email)))
        .consistent_read(true)
        .send()
        .await?;
    found
        .item()
        .map(User::from_item)
        .transpose()
        .map_err(Into::into)
}

async fn save(state: &AppState, user: &User) -> Result<(), ApiError> {
    state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(user.to_item()))
        .send()
        .await?;
    Ok(())
}

/// The user behind a verified code: created on first login; an address in `ADMIN_EMAILS` is an admin.
pub async fn sign_in(state: &AppState, email: &str, is_admin: bool) -> Result<User, ApiError> {
    let role = if is_admin {
        Role::Admin
    } else {
        Role::Customer
    };
    let fresh = User::new(email, role);
    let created = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(fresh.to_item()))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match created {
        Ok(_) => return Ok(fresh),
        Err(error) if is_condition_failed(&error) => {}
        Err(error) => return Err(error.into()),
    }
    let mut user = find(state, email)
        .await?
        .ok_or_else(|| ApiError::conflict("Try again"))?;
    if is_admin && user.role != Role::Admin {
        user.role = Role::Admin;
        user.updated_at = shared::time::now_iso();
        save(state, &user).await?;
    }
    Ok(user)
}

async fn existing(state: &AppState, email: &str) -> Result<User, ApiError> {
    find(state, email)
        .await?
        .ok_or_else(|| ApiError::unauthorized(shared::error::PERSON_GONE))
}

pub async fn show_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<UserInfo>> {
    Ok(Json(existing(&state, &me.email).await?.info()))
}

#[derive(Deserialize)]
pub struct ProfileInput {
    fullname: Option<String>,
    phone: Option<String>,
    address: Option<String>,
}

/// An empty field clears it; anything else must pass its rule.
fn optional_field<T>(
    raw: &str,
    parse: impl Fn(&str) -> Result<T, ApiError>,
    max: usize,
    name: &str,
) -> Result<String, ApiError>
where
    T: ToString,
{
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(String::new());
    }
    if raw.chars().count() > max {
        return Err(ApiError::invalid(format!(
            "{name} must be at most {max} characters"
        )));
    }
    Ok(parse(raw)?.to_string())
}

pub async fn update_profile(
    Customer(me): Customer,
    State(state): State<AppState>,
    Json(input): Json<ProfileInput>,
) -> ApiResult<Json<UserInfo>> {
    let mut user = existing(&state, &me.email).await?;
    if let Some(fullname) = &input.fullname {
        user.fullname = optional_field(fullname, FullName::parse, 100, "fullname")?;
    }
    if let Some(phone) = &input.phone {
        user.phone = optional_field(phone, Phone::parse, 30, "phone")?;
    }
    if let Some(address) = &input.address {
        user.address = optional_field(address, Address::parse, 300, "address")?;
    }
    user.updated_at = shared::time::now_iso();
    save(&state, &user).await?;
    Ok(Json(user.info()))
}

/// Newest first.
pub async fn list_users(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<Page<UserInfo>>> {
    let page = query.page()?;
    let mut all = Vec::new();
    let mut start: Option<Item> = None;
    loop {
        let found = state
            .db()
            .query()
            .table_name(state.table())
            .index_name("gsi1")
            .key_condition_expression("gsi1pk = :users")
            .expression_attribute_values(":users", s("USERS"))
            .scan_index_forward(false)
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        for item in found.items() {
            all.push(User::from_item(item)?.info());
        }
        match found.last_evaluated_key() {
            Some(last) if !last.is_empty() => start = Some(last.clone()),
            _ => break,
        }
    }
    Ok(Json(Page::of(all, page, PAGE_SIZE)))
}

#[derive(Deserialize)]
pub struct RoleInput {
    role: Role,
}

fn target(email: &str) -> Result<Email, ApiError> {
    Email::parse_normalised(email).map_err(|_| ApiError::not_found("No user has this e-mail"))
}

pub async fn change_role(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
    Json(input): Json<RoleInput>,
) -> ApiResult<Json<UserInfo>> {
    let email = target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid(
            "You cannot change your own role: ask another admin",
        ));
    }
    let mut user = find(&state, email.as_str())
        .await?
        .ok_or_else(|| ApiError::not_found("No user has this e-mail"))?;
    user.role = input.role;
    user.updated_at = shared::time::now_iso();
    save(&state, &user).await?;
    Ok(Json(user.info()))
}

pub async fn delete_user(
    Admin(me): Admin,
    State(state): State<AppState>,
    Path(email): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let email = target(&email)?;
    if email.as_str() == me.email {
        return Err(ApiError::invalid("You cannot delete your own account here"));
    }
    let deleted = state
        .db()
        .delete_item()
        .table_name(state.table())
        .set_key(Some(user_key(email.as_str())))
        .condition_expression("attribute_exists(pk)")
        .send()
        .await;
    match deleted {
        Err(error) if is_condition_failed(&error) => {
            Err(ApiError::not_found("No user has this e-mail"))
        }
        Err(error) => Err(error.into()),
        Ok(_) => Ok(Json(serde_json::json!({"message": "The user was deleted"}))),
    }
}
