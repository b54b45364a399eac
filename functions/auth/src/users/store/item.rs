//! A user's item: their key (`shared::auth::user_key`), the `gsi1` index entry that lists them under
//! `USERS` by when they joined, and their attributes, read back with defaults for the ones older items lack.

use crate::users::user::User;
use shared::auth::{user_key, Role};
use shared::dynamo::{get_n, get_s, get_s_or_default, n, s, Item, ItemError};
use shared::validation::UkAddress;

pub fn to_item(user: &User) -> Item {
    let mut item = user_key(&user.email);
    item.extend([
        ("gsi1pk".to_owned(), s("USERS")),
        (
            "gsi1sk".to_owned(),
            s(format!("{}#{}", user.created_at, user.email)),
        ),
        ("email".to_owned(), s(&user.email)),
        ("role".to_owned(), s(user.role.as_str())),
        ("fullname".to_owned(), s(&user.fullname)),
        ("phone".to_owned(), s(&user.phone)),
        ("address".to_owned(), s(&user.address)),
        ("createdAt".to_owned(), s(&user.created_at)),
        ("updatedAt".to_owned(), s(&user.updated_at)),
        ("tokenVersion".to_owned(), n(user.token_version)),
    ]);
    if let Some(delivery) = &user.delivery {
        delivery.write_attributes(&mut item);
    }
    item
}

pub fn from_item(item: &Item) -> Result<User, ItemError> {
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
        delivery: UkAddress::from_attributes(item),
        updated_at: Some(get_s_or_default(item, "updatedAt"))
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| created_at.clone()),
        created_at,
        token_version: get_n(item, "tokenVersion").unwrap_or(0),
        blocked: item.get("blocked").and_then(|b| b.as_bool().ok()) == Some(&true),
    })
}
