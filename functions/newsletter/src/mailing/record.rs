//! The mailing record: its status, its counters, how it is stored in the subscription table and read back
//! (mailings from before mailings were jobs included), and the letter it sends.

use crate::letter::{Letter, Section};
use crate::AppState;
use serde::Serialize;
use shared::dynamo::{
    b, get_bool, get_n, get_s, get_s_or_default, get_string_list, n, s, string_list, Item,
    ItemError,
};
use shared::store::{stored_item, version_of, Entity};
use shared::ApiError;

/// Where a mailing is: queued, being sent, or finished (`failed` when every mail failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "MailingStatus")]
pub enum Status {
    Queued,
    Sending,
    Sent,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Sending => "sending",
            Status::Sent => "sent",
            Status::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "queued" => Status::Queued,
            "sending" => Status::Sending,
            "failed" => Status::Failed,
            _ => Status::Sent,
        }
    }
}

/// A mailing and its counters.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Mailing {
    #[serde(rename = "_id")]
    pub id: String,
    pub subject: String,
    pub lists: Vec<String>,
    #[serde(skip)]
    pub sections: Vec<Section>,
    /// Where unsubscribe links point: the shop's address when the admin sent it.
    #[serde(skip)]
    pub base_url: String,
    /// Subscribers on the lists when the mailing was queued.
    pub recipients: u64,
    pub sent: u64,
    pub failed: u64,
    /// Readers who left the lists between queueing and their turn: not mailed.
    pub skipped: u64,
    pub bounced: u64,
    pub complained: u64,
    /// Readers queued so far, and how many of them are not settled yet.
    #[serde(skip)]
    pub planned: u64,
    #[serde(skip)]
    pub outstanding: i64,
    #[serde(skip)]
    pub plan_done: bool,
    pub status: Status,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "finishedAt", skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    #[serde(skip)]
    pub version: u64,
}

impl Entity for Mailing {
    const KIND: &'static str = "MAILING";
    const NOUN: &'static str = "mailing";

    fn id(&self) -> &str {
        &self.id
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn order_key(&self) -> String {
        format!("{}#{}", self.created_at, self.id)
    }

    fn to_attributes(&self) -> Item {
        let sections: Vec<serde_json::Value> = self
            .sections
            .iter()
            .map(|section| {
                serde_json::json!({"title": section.title, "description": section.description,
                    "link": section.link, "image": section.image})
            })
            .collect();
        let mut item = Item::from([
            ("id".to_owned(), s(&self.id)),
            ("subject".to_owned(), s(&self.subject)),
            ("lists".to_owned(), string_list(&self.lists)),
            (
                "sections".to_owned(),
                s(serde_json::Value::from(sections).to_string()),
            ),
            ("baseUrl".to_owned(), s(&self.base_url)),
            ("recipients".to_owned(), n(self.recipients)),
            ("sent".to_owned(), n(self.sent)),
            ("failed".to_owned(), n(self.failed)),
            ("skipped".to_owned(), n(self.skipped)),
            ("bounced".to_owned(), n(self.bounced)),
            ("complained".to_owned(), n(self.complained)),
            ("planned".to_owned(), n(self.planned)),
            ("outstanding".to_owned(), n(self.outstanding)),
            ("planDone".to_owned(), b(self.plan_done)),
            ("status".to_owned(), s(self.status.as_str())),
            ("createdAt".to_owned(), s(&self.created_at)),
        ]);
        if let Some(finished) = &self.finished_at {
            item.insert("finishedAt".to_owned(), s(finished));
        }
        item
    }

    fn from_item(item: &Item) -> Result<Self, ItemError> {
        let sections: Vec<serde_json::Value> =
            serde_json::from_str(&get_s_or_default(item, "sections")).unwrap_or_default();
        let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
        // Mailings sent before mailings were jobs kept `sentAt` and the count of mails that went out.
        let created_at = match get_s(item, "createdAt") {
            Ok(at) => at,
            Err(_) => get_s(item, "sentAt")?,
        };
        let finished = get_s_or_default(item, "finishedAt");
        Ok(Mailing {
            id: get_s(item, "id")?,
            subject: get_s(item, "subject")?,
            lists: get_string_list(item, "lists"),
            sections: sections
                .iter()
                .map(|v| Section {
                    title: text(v, "title"),
                    description: text(v, "description"),
                    link: text(v, "link"),
                    image: text(v, "image"),
                })
                .collect(),
            base_url: get_s_or_default(item, "baseUrl"),
            recipients: get_n(item, "recipients")?,
            sent: get_n(item, "sent").or_else(|_| get_n(item, "recipients"))?,
            failed: get_n(item, "failed").unwrap_or(0),
            skipped: get_n(item, "skipped").unwrap_or(0),
            bounced: get_n(item, "bounced").unwrap_or(0),
            complained: get_n(item, "complained").unwrap_or(0),
            planned: get_n(item, "planned").unwrap_or(0),
            outstanding: get_n(item, "outstanding").unwrap_or(0),
            plan_done: get_bool(item, "planDone"),
            status: Status::parse(&get_s_or_default(item, "status")),
            finished_at: (!finished.is_empty()).then_some(finished),
            created_at,
            version: version_of(item)?,
        })
    }
}

impl Mailing {
    pub fn letter(&self) -> Letter {
        Letter {
            lists: self.lists.clone(),
            subject: self.subject.clone(),
            sections: self.sections.clone(),
        }
    }
}

/// The mailing `id`, if there is one.
pub async fn load(state: &AppState, id: &str) -> Result<Option<Mailing>, ApiError> {
    state.store.get::<Mailing>(id).await
}

/// The item a new mailing is written as (for tests that need one in place).
pub fn stored(mailing: &Mailing) -> Item {
    stored_item(mailing, 1)
}
