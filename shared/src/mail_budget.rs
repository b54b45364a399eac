//! The day's mail budget: how many e-mails the shop may send to one address, and in all, in one UTC day,
//! so that no public route (login codes, confirmation links, alerts) can be turned into a mail cannon
//! whatever its own limits. Every transactional e-mail takes one unit before it goes to SES: the login and
//! erasure codes (sent directly) and every outbox mail (the sender function). Bulk mailings to confirmed
//! subscribers are the admin's own and do not draw on it; mail to the shop's own address (`MAIL_FROM`: the
//! new-order notices, the contact form) counts in the total only, since a busy day's notices are no one's
//! flood. The counters live in the mail table, one item per
//! day for the total and one per day and address (`MAIL-BUDGET#{day}`, sk `ALL` or `TO#{address}`), and
//! expire with the next day. Each unit taken logs the day's total as a CloudWatch embedded metric
//! (`MailsToday` in the stack's namespace), on which template.yaml's alarm fires near the total budget.

use crate::config::{optional, ConfigError, Lookup};
use crate::dynamo::{get_n, n, s, Item};
use crate::ApiError;
use aws_sdk_dynamodb::types::ReturnValue;

const DAY: i64 = 24 * 3600;

/// What a refused unit says: the same for every address, so it tells nothing about who has mail.
pub const OVER_ADDRESS: &str =
    "Too many e-mails were sent to this address today: try again tomorrow";
pub const OVER_TOTAL: &str =
    "The shop has sent all the e-mail it may send today: try again tomorrow";

/// The budgets, from `MAIL_DAILY_BUDGET` (in all) and `MAIL_DAILY_BUDGET_PER_ADDRESS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub total: u64,
    pub per_address: u64,
    /// The metrics' namespace (`METRICS_NAMESPACE`, the stack's name in AWS).
    pub namespace: String,
    /// The shop's own address (`MAIL_FROM`, lower case): no budget of its own.
    pub own_address: String,
}

/// Which of the day's budgets a unit would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    Address,
    Total,
}

impl Refused {
    /// 429 with the wait until the next UTC day.
    pub fn into_error(self, now: i64) -> ApiError {
        let message = match self {
            Refused::Address => OVER_ADDRESS,
            Refused::Total => OVER_TOTAL,
        };
        ApiError::too_many_requests(message).retry_after(DAY - now.rem_euclid(DAY))
    }
}

impl Budget {
    pub const DEFAULT_TOTAL: &'static str = "5000";
    pub const DEFAULT_PER_ADDRESS: &'static str = "30";

    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let count = |name: &'static str, default: &str| {
            optional(env, name, default)
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|v| *v > 0)
                .ok_or(ConfigError::Invalid {
                    name,
                    reason: "must be a whole number above 0".to_owned(),
                })
        };
        Ok(Budget {
            total: count("MAIL_DAILY_BUDGET", Self::DEFAULT_TOTAL)?,
            per_address: count("MAIL_DAILY_BUDGET_PER_ADDRESS", Self::DEFAULT_PER_ADDRESS)?,
            namespace: optional(env, "METRICS_NAMESPACE", "Shop"),
            own_address: optional(env, "MAIL_FROM", "").trim().to_lowercase(),
        })
    }

    /// Takes one unit of today's budgets for a mail to `to` (a normalised address); `Err` names the budget
    /// it would break, and then nothing may be sent. The address's unit is taken first: a mail refused for
    /// its address does not use up the shop's total.
    pub async fn take(
        &self,
        db: &aws_sdk_dynamodb::Client,
        mail_table: &str,
        to: &str,
        now: i64,
    ) -> Result<Result<(), Refused>, ApiError> {
        let day = now.div_euclid(DAY);
        let to = to.trim().to_lowercase();
        if to != self.own_address
            && count(
                db,
                mail_table,
                key(day, &format!("TO#{to}")),
                self.per_address,
                day,
            )
            .await?
            .is_none()
        {
            return Ok(Err(Refused::Address));
        }
        match count(db, mail_table, key(day, "ALL"), self.total, day).await? {
            None => {
                tracing::error!(budget = self.total, "the day's mail budget is spent");
                Ok(Err(Refused::Total))
            }
            Some(sent) => {
                // One line of CloudWatch's embedded metric format: the alarm reads it.
                println!("{}", metric_line(&self.namespace, sent, now));
                Ok(Ok(()))
            }
        }
    }
}

/// The keys of the per-address counters of `email` that may still exist at `now` (a counter lives two
/// days), for an erasure.
pub fn address_keys(email: &str, now: i64) -> Vec<Item> {
    let today = now.div_euclid(DAY);
    let to = email.trim().to_lowercase();
    (0..3)
        .map(|back| key(today - back, &format!("TO#{to}")))
        .collect()
}

fn key(day: i64, sk: &str) -> Item {
    Item::from([
        ("pk".to_owned(), s(format!("MAIL-BUDGET#{day}"))),
        ("sk".to_owned(), s(sk)),
    ])
}

/// One more on the counter at `key` unless it reached `cap`: the count after, or `None` when refused.
async fn count(
    db: &aws_sdk_dynamodb::Client,
    table: &str,
    key: Item,
    cap: u64,
    day: i64,
) -> Result<Option<u64>, ApiError> {
    let result = db
        .update_item()
        .table_name(table)
        .set_key(Some(key))
        .update_expression("ADD sent :one SET expiresAt = :expires")
        .condition_expression("attribute_not_exists(sent) OR sent < :cap")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":cap", n(cap))
        .expression_attribute_values(":expires", n((day + 2) * DAY))
        .return_values(ReturnValue::UpdatedNew)
        .send()
        .await;
    match result {
        Ok(output) => Ok(Some(
            output
                .attributes()
                .and_then(|item| get_n::<u64>(item, "sent").ok())
                .unwrap_or(1),
        )),
        Err(error) if crate::dynamo::is_condition_failed(&error) => Ok(None),
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// The day's total so far as an embedded-metric log line (`MailsToday`, a count, no dimensions).
pub fn metric_line(namespace: &str, sent: u64, now: i64) -> String {
    serde_json::json!({
        "_aws": {
            "Timestamp": now.saturating_mul(1000),
            "CloudWatchMetrics": [{
                "Namespace": namespace,
                "Dimensions": [[]],
                "Metrics": [{"Name": "MailsToday", "Unit": "Count"}],
            }],
        },
        "MailsToday": sent,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budgets_come_from_the_environment_with_defaults() {
        let none = |_: &str| None;
        let budget = Budget::from_env(&none).unwrap();
        assert_eq!((budget.total, budget.per_address), (5000, 30));
        let set = |name: &str| match name {
            "MAIL_DAILY_BUDGET" => Some("100".to_owned()),
            "MAIL_DAILY_BUDGET_PER_ADDRESS" => Some("3".to_owned()),
            "METRICS_NAMESPACE" => Some("drinks-shop-dev".to_owned()),
            "MAIL_FROM" => Some(" Orders@Shop.example ".to_owned()),
            _ => None,
        };
        let budget = Budget::from_env(&set).unwrap();
        assert_eq!(
            budget,
            Budget {
                total: 100,
                per_address: 3,
                namespace: "drinks-shop-dev".to_owned(),
                own_address: "orders@shop.example".to_owned(),
            }
        );
        let zero = |name: &str| (name == "MAIL_DAILY_BUDGET").then(|| "0".to_owned());
        assert!(Budget::from_env(&zero).is_err());
    }

    #[test]
    fn the_metric_line_is_cloudwatchs_embedded_format() {
        let line: serde_json::Value =
            serde_json::from_str(&metric_line("drinks-shop-dev", 42, 1_800_000_000)).unwrap();
        assert_eq!(line["MailsToday"], 42);
        let directive = &line["_aws"]["CloudWatchMetrics"][0];
        assert_eq!(directive["Namespace"], "drinks-shop-dev");
        assert_eq!(directive["Metrics"][0]["Name"], "MailsToday");
        assert_eq!(line["_aws"]["Timestamp"], 1_800_000_000_000i64);
    }

    #[test]
    fn a_refusal_waits_for_the_next_utc_day() {
        let error = Refused::Address.into_error(DAY * 10 + 3600);
        assert_eq!(error.status(), 429);
    }
}
