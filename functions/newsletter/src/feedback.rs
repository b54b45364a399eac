//! Bounces and complaints: SES publishes them (the configuration set's event destination) to an SNS topic
//! whose subscription feeds a queue, and this handler takes that queue's batches. A permanent bounce or a
//! complaint unsubscribes the address at once (mailing someone who complained harms the shop's sending
//! reputation) and is counted, once, on the mailing the mail belonged to (its `mailing` tag).

use crate::links::id_of;
use crate::AppState;
use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use serde_json::Value;
use shared::dynamo::n;
use shared::validation::Email;
use shared::ApiError;

/// What one SES event asks of the shop.
#[derive(Debug, PartialEq, Eq)]
pub struct Feedback {
    /// `bounced` or `complained`: the mailing's counter.
    pub counter: &'static str,
    pub addresses: Vec<String>,
    pub mailing: Option<String>,
}

/// Reads an SES event (event publishing's `eventType` or a notification's `notificationType`), raw or
/// inside an SNS envelope. Transient bounces and other events (deliveries, opens) ask nothing.
pub fn parse(body: &str) -> Option<Feedback> {
    let mut event: Value = serde_json::from_str(body).ok()?;
    if let Some(inner) = event.get("Message").and_then(Value::as_str) {
        event = serde_json::from_str(inner).ok()?;
    }
    let kind = event
        .get("eventType")
        .or_else(|| event.get("notificationType"))
        .and_then(Value::as_str)?;
    let (counter, recipients) = match kind {
        "Bounce" => {
            let bounce = event.get("bounce")?;
            if bounce.get("bounceType").and_then(Value::as_str) != Some("Permanent") {
                return None;
            }
            ("bounced", bounce.get("bouncedRecipients")?)
        }
        "Complaint" => (
            "complained",
            event.get("complaint")?.get("complainedRecipients")?,
        ),
        _ => return None,
    };
    let addresses = recipients
        .as_array()?
        .iter()
        .filter_map(|r| r.get("emailAddress").and_then(Value::as_str))
        .map(str::to_owned)
        .collect();
    let mailing = event
        .get("mail")
        .and_then(|mail| mail.get("tags"))
        .and_then(|tags| tags.get("mailing"))
        .and_then(|values| values.get(0))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some(Feedback {
        counter,
        addresses,
        mailing,
    })
}

/// Acts on one event: unsubscribes each address and counts it on its mailing once, however many times
/// the queue delivers the event.
pub async fn apply(state: &AppState, feedback: &Feedback) -> Result<(), ApiError> {
    for address in &feedback.addresses {
        let Ok(email) = Email::parse_normalised(address) else {
            tracing::warn!(%address, "feedback for an address that is not one");
            continue;
        };
        crate::unsubscribe::remove(state, &id_of(&email)).await?;
        let Some(mailing) = &feedback.mailing else {
            continue;
        };
        let mut mark = shared::outbox::feedback_key(mailing, feedback.counter, email.as_str());
        mark.insert(
            "expiresAt".to_owned(),
            n(shared::time::now_unix() + shared::outbox::KEEP_SECONDS),
        );
        shared::personal::tag(&mut mark, email.as_str());
        let first = state
            .outbox
            .client()
            .put_item()
            .table_name(state.outbox.table())
            .set_item(Some(mark))
            .condition_expression("attribute_not_exists(pk)")
            .send()
            .await;
        match first {
            Ok(_) => crate::mailing::count_feedback(state, mailing, feedback.counter).await?,
            Err(error) if shared::dynamo::is_condition_failed(&error) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(())
}

/// The feedback queue's handler: answers the records to deliver again.
pub async fn handle(state: &AppState, event: SqsEvent) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    for record in event.records {
        let Some(feedback) = record.body.as_deref().and_then(parse) else {
            continue;
        };
        if let Err(error) = apply(state, &feedback).await {
            tracing::error!(?error, "feedback not applied; the queue delivers it again");
            response.add_failure(record.message_id.unwrap_or_default());
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complaints_and_permanent_bounces_ask_for_action_and_transient_ones_do_not() {
        let complaint = r#"{"eventType":"Complaint","complaint":{"complainedRecipients":[{"emailAddress":"a@example.com"}]},
            "mail":{"tags":{"mailing":["m1"]}}}"#;
        assert_eq!(
            parse(complaint),
            Some(Feedback {
                counter: "complained",
                addresses: vec!["a@example.com".to_owned()],
                mailing: Some("m1".to_owned()),
            })
        );
        let wrapped = serde_json::json!({"Type": "Notification", "Message": complaint}).to_string();
        assert_eq!(parse(&wrapped).unwrap().counter, "complained");
        let soft = r#"{"notificationType":"Bounce","bounce":{"bounceType":"Transient","bouncedRecipients":[{"emailAddress":"a@example.com"}]}}"#;
        assert_eq!(parse(soft), None);
        let hard = soft.replace("Transient", "Permanent");
        assert_eq!(parse(&hard).unwrap().mailing, None);
        assert_eq!(parse(r#"{"eventType":"Delivery"}"#), None);
        assert_eq!(parse("not json"), None);
    }
}
