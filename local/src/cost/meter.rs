//! The bench's meter: an SDK interceptor on the local stack's DynamoDB, S3, SES and SQS clients that notes
//! every call under the phase of the scripted day it belongs to, and turns DynamoDB calls into request
//! units from the items on the wire (moto's `ConsumedCapacity` is not size-based, so item sizes it is).

use super::units::{item_size, read_units, write_units, Read};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::{
    AfterDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::{ConfigBag, Storable, StoreReplace};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// What one phase of the day used, per service.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub read_units: f64,
    pub write_units: f64,
    pub dynamodb_calls: u64,
    /// GET-class S3 requests (Get, Head, List) and PUT-class ones (Put, Copy, Post); deletes are free.
    pub s3_get: u64,
    pub s3_put: u64,
    pub sqs_requests: u64,
    /// Receives that handed the sender messages: each is one invocation of the queue-fed function.
    pub sqs_batches: u64,
    pub ses_mails: u64,
    /// Calls per service and operation (`DynamoDB.Query`).
    pub operations: BTreeMap<String, u64>,
    /// The queue-fed sender's busy time: from a receive that handed it messages to its delete of them.
    pub sender_seconds: f64,
    receives: std::collections::VecDeque<std::time::Instant>,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.read_units += other.read_units;
        self.write_units += other.write_units;
        self.dynamodb_calls += other.dynamodb_calls;
        self.s3_get += other.s3_get;
        self.s3_put += other.s3_put;
        self.sqs_requests += other.sqs_requests;
        self.sqs_batches += other.sqs_batches;
        self.ses_mails += other.ses_mails;
        self.sender_seconds += other.sender_seconds;
        for (op, n) in &other.operations {
            *self.operations.entry(op.clone()).or_default() += n;
        }
    }
}

#[derive(Debug, Default)]
struct State {
    phase: Option<String>,
    tallies: BTreeMap<String, Tally>,
}

/// Shared between the interceptors and the bench: the bench names the phase, the interceptors count into it.
/// Calls outside any phase (the stack's set-up and seed) are not counted.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    state: Arc<Mutex<State>>,
    /// Each table's global secondary indexes' key attributes: a write of an item carrying one is written to
    /// that index too, and billed again.
    indexes: Arc<HashMap<String, Vec<String>>>,
}

impl Meter {
    pub fn new(indexes: HashMap<String, Vec<String>>) -> Self {
        Meter {
            state: Arc::default(),
            indexes: Arc::new(indexes),
        }
    }

    /// From now on calls count under `phase` (`None` stops counting).
    pub fn set_phase(&self, phase: Option<&str>) {
        self.state.lock().expect("meter").phase = phase.map(str::to_owned);
    }

    pub fn sender_seconds(&self, phase: &str) -> f64 {
        self.tally(phase).sender_seconds
    }

    pub fn tally(&self, phase: &str) -> Tally {
        let state = self.state.lock().expect("meter");
        state.tallies.get(phase).cloned().unwrap_or_default()
    }

    fn count(&self, change: impl FnOnce(&mut Tally)) {
        let mut state = self.state.lock().expect("meter");
        let State { phase, tallies } = &mut *state;
        if let Some(phase) = phase.clone() {
            change(tallies.entry(phase).or_default());
        }
    }

    /// The interceptor to add to a client's config.
    pub fn interceptor(&self) -> MeterInterceptor {
        MeterInterceptor {
            meter: self.clone(),
        }
    }

    /// Wraps the local stack's clients so every call they make is counted.
    pub fn wrap(&self, env: &mut crate::functions::LocalEnv) {
        env.dynamodb = aws_sdk_dynamodb::Client::from_conf(
            env.dynamodb
                .config()
                .to_builder()
                .interceptor(self.interceptor())
                .build(),
        );
        env.s3 = aws_sdk_s3::Client::from_conf(
            env.s3
                .config()
                .to_builder()
                .interceptor(self.interceptor())
                .build(),
        );
        env.ses = aws_sdk_sesv2::Client::from_conf(
            env.ses
                .config()
                .to_builder()
                .interceptor(self.interceptor())
                .build(),
        );
        env.sqs = aws_sdk_sqs::Client::from_conf(
            env.sqs
                .config()
                .to_builder()
                .interceptor(self.interceptor())
                .build(),
        );
    }
}

#[derive(Debug)]
pub struct MeterInterceptor {
    meter: Meter,
}

/// The serialized request, kept from before it is sent until its answer is read.
#[derive(Debug, Clone)]
struct SentBody(Option<Vec<u8>>);

impl Storable for SentBody {
    type Storer = StoreReplace<Self>;
}

impl Intercept for MeterInterceptor {
    fn name(&self) -> &'static str {
        "CostMeter"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let body = context.request().body().bytes().map(<[u8]>::to_vec);
        cfg.interceptor_state().store_put(SentBody(body));
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(metadata) = cfg.load::<Metadata>() else {
            return Ok(());
        };
        let (service, operation) = (metadata.service().to_owned(), metadata.name().to_owned());
        let ok = context.response().status().is_success();
        let sent = cfg
            .load::<SentBody>()
            .and_then(|sent| sent.0.as_deref())
            .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
            .unwrap_or(Value::Null);
        let answer = context
            .response()
            .body()
            .bytes()
            .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
            .unwrap_or(Value::Null);
        let indexes = self.meter.indexes.clone();
        self.meter.count(|tally| {
            *tally
                .operations
                .entry(format!("{service}.{operation}"))
                .or_default() += 1;
            match service.to_ascii_lowercase().as_str() {
                s if s.contains("dynamodb") => {
                    tally.dynamodb_calls += 1;
                    // A failed call (a condition that did not hold, a cancelled transaction) is billed
                    // as the write it tried.
                    let (read, write) = dynamodb_units(&operation, &sent, &answer, &indexes);
                    tally.read_units += read;
                    tally.write_units += write;
                }
                s if s.contains("s3") => match operation.as_str() {
                    "GetObject" | "HeadObject" | "HeadBucket" => tally.s3_get += 1,
                    "DeleteObject" | "DeleteObjects" => {}
                    _ => tally.s3_put += 1,
                },
                s if s.contains("sqs") => {
                    tally.sqs_requests += 1;
                    let received = answer["Messages"].as_array().map_or(0, Vec::len);
                    if operation == "ReceiveMessage" && received > 0 {
                        tally.sqs_batches += 1;
                        tally.receives.push_back(std::time::Instant::now());
                    }
                    if operation == "DeleteMessageBatch" || operation == "DeleteMessage" {
                        if let Some(received) = tally.receives.pop_front() {
                            tally.sender_seconds += received.elapsed().as_secs_f64();
                        }
                    }
                }
                s if s.contains("ses") => {
                    if ok && operation == "SendEmail" {
                        tally.ses_mails += 1;
                    } else if ok && operation == "SendBulkEmail" {
                        tally.ses_mails += sent["BulkEmailEntries"]
                            .as_array()
                            .map_or(0, |e| e.len() as u64);
                    }
                }
                _ => {}
            }
        });
        Ok(())
    }
}

/// Read and write request units of one DynamoDB call, from what was sent and what came back.
pub fn dynamodb_units(
    operation: &str,
    sent: &Value,
    answer: &Value,
    indexes: &HashMap<String, Vec<String>>,
) -> (f64, f64) {
    let consistency = |request: &Value| {
        if request["ConsistentRead"] == true {
            Read::Consistent
        } else {
            Read::Eventual
        }
    };
    let put = |table: &str, item: &Value, transactional: bool| {
        let units = write_units(item_size(item), transactional);
        // Each index the item appears in is written too.
        let copies = indexes.get(table).map_or(0, |keys| {
            keys.iter()
                .filter(|k| item.get(k.as_str()).is_some())
                .count()
        });
        units * (1 + copies) as f64
    };
    // An update or a delete is billed by the item's size, which the call does not carry: the key and the
    // values it sets are a lower bound (most of the shop's items are under 1 KB, one unit either way).
    let touched = |request: &Value, transactional: bool| {
        let size = item_size(&request["Key"]) + item_size(&request["ExpressionAttributeValues"]);
        write_units(size, transactional)
    };
    let table = |request: &Value| request["TableName"].as_str().unwrap_or_default().to_owned();
    match operation {
        "GetItem" => (
            read_units(item_size(&answer["Item"]), consistency(sent)),
            0.0,
        ),
        "Query" | "Scan" => {
            let items = answer["Items"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            let returned: u64 = items.iter().map(item_size).sum();
            // A filter reads what it drops: scale the returned bytes by scanned over returned.
            let (count, scanned) = (
                answer["Count"].as_u64().unwrap_or(0),
                answer["ScannedCount"].as_u64().unwrap_or(0),
            );
            let bytes = if count > 0 && scanned > count {
                returned * scanned / count
            } else {
                returned
            };
            (read_units(bytes, consistency(sent)), 0.0)
        }
        "BatchGetItem" => {
            let mut units = 0.0;
            for (table, items) in answer["Responses"].as_object().into_iter().flatten() {
                let read = consistency(&sent["RequestItems"][table]);
                let items = items.as_array().map(Vec::as_slice).unwrap_or(&[]);
                units += items
                    .iter()
                    .map(|i| read_units(item_size(i), read))
                    .sum::<f64>();
                // A key asked for and not found costs the smallest read.
                let asked = sent["RequestItems"][table]["Keys"]
                    .as_array()
                    .map_or(0, Vec::len);
                let missing = asked.saturating_sub(items.len());
                units += missing as f64 * read_units(0, read);
            }
            (units, 0.0)
        }
        "TransactGetItems" => {
            let units = answer["Responses"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| read_units(item_size(&r["Item"]), Read::Transactional))
                .sum();
            (units, 0.0)
        }
        "PutItem" => (0.0, put(&table(sent), &sent["Item"], false)),
        "UpdateItem" | "DeleteItem" => (0.0, touched(sent, false)),
        "BatchWriteItem" => {
            let mut units = 0.0;
            for (table, writes) in sent["RequestItems"].as_object().into_iter().flatten() {
                for write in writes.as_array().into_iter().flatten() {
                    units += match write.get("PutRequest") {
                        Some(p) => put(table, &p["Item"], false),
                        None => write_units(item_size(&write["DeleteRequest"]["Key"]), false),
                    };
                }
            }
            (0.0, units)
        }
        "TransactWriteItems" => {
            let mut units = 0.0;
            for entry in sent["TransactItems"].as_array().into_iter().flatten() {
                units += if let Some(p) = entry.get("Put") {
                    put(&table(p), &p["Item"], true)
                } else if let Some(u) = entry.get("Update") {
                    touched(u, true)
                } else if let Some(d) = entry.get("Delete") {
                    touched(d, true)
                } else {
                    // A condition check is billed as a write of the item it reads.
                    touched(&entry["ConditionCheck"], true)
                };
            }
            (0.0, units)
        }
        _ => (0.0, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_transaction_of_a_put_and_an_update_is_billed_double() {
        let sent = json!({"TransactItems": [
            {"Put": {"TableName": "t", "Item": {"pk": {"S": "ORDER#1"}}}},
            {"Update": {"TableName": "t", "Key": {"pk": {"S": "PRODUCT#1"}},
                        "ExpressionAttributeValues": {":n": {"N": "1"}}}}
        ]});
        let (_, write) = dynamodb_units("TransactWriteItems", &sent, &Value::Null, &HashMap::new());
        assert_eq!(write, 4.0);
    }

    #[test]
    fn a_put_of_an_item_in_an_index_is_written_twice() {
        let indexes = HashMap::from([("t".to_owned(), vec!["gsi1pk".to_owned()])]);
        let sent = json!({"TableName": "t", "Item": {"pk": {"S": "a"}, "gsi1pk": {"S": "b"}}});
        assert_eq!(
            dynamodb_units("PutItem", &sent, &Value::Null, &indexes).1,
            2.0
        );
    }

    #[test]
    fn a_query_reads_its_items_together_in_4_kb_steps() {
        let item = json!({"pk": {"S": "a".repeat(3_000)}});
        let answer = json!({"Items": [item, item], "Count": 2, "ScannedCount": 2});
        let (read, _) = dynamodb_units("Query", &json!({}), &answer, &HashMap::new());
        // 6,004 bytes: two 4 KB steps, eventually consistent.
        assert_eq!(read, 1.0);
    }
}
