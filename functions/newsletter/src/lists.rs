//! The mail lists: a fixed set named in configuration (`SUBSCRIPTION_LISTS`), so a shopper cannot invent a
//! list and an admin's mailing names lists that exist. The admin's view counts each list's subscribers.

use crate::subscriber::Subscriber;
use crate::AppState;
use axum::extract::State;
use serde::Serialize;
use shared::auth::Admin;
use shared::{ApiError, ApiResult, Json};

pub const DEFAULT_LISTS: &str = "Newsletter,Offers and new drinks";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailLists(Vec<String>);

impl MailLists {
    /// Comma-separated names, trimmed; at least one, none repeated.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut names: Vec<String> = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                return Err(format!("the list {name} is named twice"));
            }
            names.push(name.to_owned());
        }
        if names.is_empty() {
            return Err("name at least one list".to_owned());
        }
        Ok(MailLists(names))
    }

    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// The first list: a sign-up that names none joins it.
    pub fn default_list(&self) -> &str {
        &self.0[0]
    }

    /// The configured spelling of each requested name (matched ignoring case), without repeats, in the
    /// configured order; a name that is not a list is a 422 naming the lists there are.
    pub fn resolve(&self, field: &str, requested: &[String]) -> Result<Vec<String>, ApiError> {
        for name in requested {
            if !self.0.iter().any(|n| n.eq_ignore_ascii_case(name.trim())) {
                return Err(ApiError::invalid(format!(
                    "{field} must be among: {}",
                    self.0.join(", ")
                )));
            }
        }
        Ok(self
            .0
            .iter()
            .filter(|n| requested.iter().any(|r| n.eq_ignore_ascii_case(r.trim())))
            .cloned()
            .collect())
    }
}

/// A mail list and how many subscribers it has.
#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[schemars(rename = "MailListCount")]
pub struct ListCount {
    pub name: String,
    pub count: usize,
}

/// Each list with how many subscribers it has, in the configured order.
pub fn counts(lists: &MailLists, subscribers: &[Subscriber]) -> Vec<ListCount> {
    lists
        .names()
        .iter()
        .map(|name| ListCount {
            name: name.clone(),
            count: subscribers
                .iter()
                .filter(|s| s.lists.iter().any(|l| l == name))
                .count(),
        })
        .collect()
}

/// GET /api/sub/: `[{name, count}]`.
pub async fn list_lists(
    _: Admin,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<ListCount>>> {
    let subscribers = state.store.list::<Subscriber>().await?;
    Ok(Json(counts(&state.lists, &subscribers)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_parsed_trimmed_and_unique() {
        let lists = MailLists::parse(DEFAULT_LISTS).unwrap();
        assert_eq!(lists.names(), ["Newsletter", "Offers and new drinks"]);
        assert_eq!(
            MailLists::parse(" A , ,B ").unwrap().names(),
            ["A".to_owned(), "B".to_owned()]
        );
        assert!(MailLists::parse("A,a").is_err());
        assert!(MailLists::parse(" , ").is_err());
    }

    #[test]
    fn requested_lists_take_the_configured_spelling_once() {
        let lists = MailLists::parse(DEFAULT_LISTS).unwrap();
        let asked = vec![
            "offers AND new drinks".to_owned(),
            " newsletter".to_owned(),
            "Newsletter".to_owned(),
        ];
        assert_eq!(
            lists.resolve("lists", &asked).unwrap(),
            ["Newsletter", "Offers and new drinks"]
        );
        let refused = lists.resolve("lists", &["Gossip".to_owned()]).unwrap_err();
        assert_eq!(
            refused.message(),
            "lists must be among: Newsletter, Offers and new drinks"
        );
    }
}
