//! The local stand-in for AWS: starts moto's server, and creates the tables and buckets that template.yaml
//! declares, so the local gateway and the tests run against the same definitions AWS gets. Never part of a
//! Lambda: only the tests and the local gateway depend on this crate.

use aws_config::{Region, SdkConfig};
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The repository root, where template.yaml and the moto venv live.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit/ sits in the repository root")
        .to_path_buf()
}

/// Stores `value` as secret `id` unless a secret of that id exists, and answers the stored value. The local
/// gateway and the tests create their secrets with it (in the emulator), so a restarted gateway keeps them.
pub async fn ensure_secret(
    client: &aws_sdk_secretsmanager::Client,
    id: &str,
    value: impl FnOnce() -> String,
) -> Result<String, BoxError> {
    if let Ok(found) = client.get_secret_value().secret_id(id).send().await {
        if let Some(existing) = found.secret_string() {
            return Ok(existing.to_owned());
        }
    }
    let value = value();
    client
        .create_secret()
        .name(id)
        .secret_string(&value)
        .send()
        .await?;
    Ok(value)
}

// ---------------------------------------------------------------------------------------------------------
// template.yaml

/// The parts of template.yaml the local stack needs.
pub struct Template {
    resources: BTreeMap<String, Value>,
    globals_env: BTreeMap<String, Value>,
    /// Parameters' default values, which stand in for `!Ref Parameter` locally.
    parameter_defaults: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventDef {
    pub method: String,
    pub path: String,
}

#[derive(Debug, Clone)]
pub struct FunctionDef {
    pub logical_id: String,
    pub events: Vec<EventDef>,
    /// Environment variables: Globals first, then the function's own.
    pub env: BTreeMap<String, EnvValue>,
}

/// An environment value as written in the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvValue {
    Literal(String),
    /// `!Ref SomeResource` or `!Ref SomeParameter`.
    Ref(String),
    /// Anything computed by CloudFormation (`!Sub`, `!GetAtt`, dynamic references).
    Computed,
}

impl Template {
    pub fn load(path: &Path) -> Result<Self, BoxError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::parse(&text)
    }

    pub fn load_default() -> Result<Self, BoxError> {
        Self::load(&repo_root().join("template.yaml"))
    }

    pub fn parse(text: &str) -> Result<Self, BoxError> {
        let doc: Value = serde_yaml::from_str(text)?;
        let resources = doc
            .get("Resources")
            .and_then(Value::as_mapping)
            .ok_or("template.yaml has no Resources")?
            .iter()
            .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.clone())))
            .collect();
        let globals_env = doc
            .get("Globals")
            .and_then(|g| g.get("Function"))
            .and_then(|f| f.get("Environment"))
            .and_then(|e| e.get("Variables"))
            .and_then(Value::as_mapping)
            .map(|vars| {
                vars.iter()
                    .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.clone())))
                    .collect()
            })
            .unwrap_or_default();
        let parameter_defaults = doc
            .get("Parameters")
            .and_then(Value::as_mapping)
            .map(|params| {
                params
                    .iter()
                    .filter_map(|(k, v)| {
                        let default = match v.get("Default")? {
                            Value::String(s) => s.clone(),
                            Value::Number(n) => n.to_string(),
                            _ => return None,
                        };
                        Some((k.as_str()?.to_owned(), default))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Template {
            resources,
            globals_env,
            parameter_defaults,
        })
    }

    fn of_type<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = (&'a String, &'a Value)> + 'a {
        self.resources
            .iter()
            .filter(move |(_, r)| r.get("Type").and_then(Value::as_str) == Some(kind))
    }

    pub fn tables(&self) -> Vec<(String, &Value)> {
        self.of_type("AWS::DynamoDB::Table")
            .filter_map(|(id, r)| Some((id.clone(), r.get("Properties")?)))
            .collect()
    }

    /// The response headers CloudFront adds (the `AWS::CloudFront::ResponseHeadersPolicy` resource), as
    /// header names and values: the local gateway sends exactly these, so the browser tests run under the
    /// deployed policy.
    pub fn security_headers(&self) -> Result<Vec<(String, String)>, BoxError> {
        let (_, policy) = self
            .of_type("AWS::CloudFront::ResponseHeadersPolicy")
            .next()
            .ok_or("template.yaml has no ResponseHeadersPolicy")?;
        let config = policy
            .get("Properties")
            .and_then(|p| p.get("ResponseHeadersPolicyConfig"))
            .and_then(|c| c.get("SecurityHeadersConfig"))
            .ok_or("the ResponseHeadersPolicy has no SecurityHeadersConfig")?;
        let text = |value: Option<&Value>, what: &str| -> Result<String, BoxError> {
            match value {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(Value::Number(n)) => Ok(n.to_string()),
                _ => Err(format!("the security headers lack {what}").into()),
            }
        };
        let mut headers = Vec::new();
        if let Some(csp) = config.get("ContentSecurityPolicy") {
            let policy = text(csp.get("ContentSecurityPolicy"), "the CSP")?;
            headers.push((
                "content-security-policy".to_owned(),
                policy.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
        if let Some(hsts) = config.get("StrictTransportSecurity") {
            let mut value = format!(
                "max-age={}",
                text(hsts.get("AccessControlMaxAgeSec"), "the HSTS max-age")?
            );
            if hsts.get("IncludeSubdomains").and_then(Value::as_bool) == Some(true) {
                value.push_str("; includeSubDomains");
            }
            if hsts.get("Preload").and_then(Value::as_bool) == Some(true) {
                value.push_str("; preload");
            }
            headers.push(("strict-transport-security".to_owned(), value));
        }
        if config.get("ContentTypeOptions").is_some() {
            headers.push(("x-content-type-options".to_owned(), "nosniff".to_owned()));
        }
        if let Some(referrer) = config.get("ReferrerPolicy") {
            headers.push((
                "referrer-policy".to_owned(),
                text(referrer.get("ReferrerPolicy"), "the referrer policy")?,
            ));
        }
        if let Some(frames) = config.get("FrameOptions") {
            headers.push((
                "x-frame-options".to_owned(),
                text(frames.get("FrameOption"), "the frame option")?,
            ));
        }
        Ok(headers)
    }

    /// The queues (`AWS::SQS::Queue`) with their properties.
    pub fn queues(&self) -> Vec<(String, &Value)> {
        self.of_type("AWS::SQS::Queue")
            .map(|(id, r)| (id.clone(), r.get("Properties").unwrap_or(&Value::Null)))
            .collect()
    }

    pub fn buckets(&self) -> Vec<String> {
        self.of_type("AWS::S3::Bucket")
            .map(|(id, _)| id.clone())
            .collect()
    }

    pub fn functions(&self) -> Vec<FunctionDef> {
        self.of_type("AWS::Serverless::Function")
            .map(|(id, resource)| {
                let props = resource.get("Properties");
                let events = props
                    .and_then(|p| p.get("Events"))
                    .and_then(Value::as_mapping)
                    .map(|events| {
                        events
                            .values()
                            .filter(|e| e.get("Type").and_then(Value::as_str) == Some("HttpApi"))
                            .filter_map(|e| {
                                let p = e.get("Properties")?;
                                Some(EventDef {
                                    method: p.get("Method")?.as_str()?.to_ascii_uppercase(),
                                    path: p.get("Path")?.as_str()?.to_owned(),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let own_env = props
                    .and_then(|p| p.get("Environment"))
                    .and_then(|e| e.get("Variables"))
                    .and_then(Value::as_mapping);
                let mut env: BTreeMap<String, EnvValue> = self
                    .globals_env
                    .iter()
                    .map(|(k, v)| (k.clone(), env_value(v)))
                    .collect();
                for (k, v) in own_env.into_iter().flatten() {
                    if let Some(k) = k.as_str() {
                        env.insert(k.to_owned(), env_value(v));
                    }
                }
                FunctionDef {
                    logical_id: id.clone(),
                    events,
                    env,
                }
            })
            .collect()
    }

    pub fn function(&self, logical_id: &str) -> Option<FunctionDef> {
        self.functions()
            .into_iter()
            .find(|f| f.logical_id == logical_id)
    }
}

fn env_value(value: &Value) -> EnvValue {
    match value {
        Value::String(s) => EnvValue::Literal(s.clone()),
        Value::Number(n) => EnvValue::Literal(n.to_string()),
        Value::Bool(b) => EnvValue::Literal(b.to_string()),
        Value::Tagged(tagged) if tagged.tag == "!Ref" => match tagged.value.as_str() {
            Some(name) => EnvValue::Ref(name.to_owned()),
            None => EnvValue::Computed,
        },
        Value::Mapping(m) => match m.get("Ref").and_then(Value::as_str) {
            Some(name) => EnvValue::Ref(name.to_owned()),
            None => EnvValue::Computed,
        },
        _ => EnvValue::Computed,
    }
}

// ---------------------------------------------------------------------------------------------------------
// Local resource names

/// Names the local copies of template resources, with a prefix so parallel tests never share a table.
#[derive(Debug, Clone)]
pub struct LocalNames {
    prefix: String,
}

impl LocalNames {
    pub fn new(prefix: &str) -> Self {
        LocalNames {
            prefix: prefix.to_owned(),
        }
    }

    /// A fresh prefix for one test.
    pub fn unique() -> Self {
        LocalNames::new(&format!(
            "t{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        ))
    }

    pub fn table(&self, logical_id: &str) -> String {
        format!("{}-{logical_id}", self.prefix)
    }

    /// Bucket names must be lower case.
    pub fn bucket(&self, logical_id: &str) -> String {
        format!("{}-{logical_id}", self.prefix).to_ascii_lowercase()
    }

    /// A function's environment as the template declares it, with `!Ref`s to tables and buckets turned into
    /// local names and the rest taken from `overrides` (secrets, parameters; a `!Ref` to a resource named
    /// in `overrides` by its logical id, such as a queue's URL, takes that value).
    pub fn function_env(
        &self,
        template: &Template,
        function: &FunctionDef,
        overrides: &BTreeMap<String, String>,
    ) -> BTreeMap<String, String> {
        let tables: Vec<String> = template.tables().into_iter().map(|(id, _)| id).collect();
        let buckets = template.buckets();
        function
            .env
            .iter()
            .filter_map(|(name, value)| {
                let resolved = match (overrides.get(name), value) {
                    (Some(set), _) => set.clone(),
                    (None, EnvValue::Literal(text)) => text.clone(),
                    (None, EnvValue::Ref(id)) if overrides.contains_key(id) => {
                        overrides[id].clone()
                    }
                    (None, EnvValue::Ref(id)) if tables.contains(id) => self.table(id),
                    (None, EnvValue::Ref(id)) if buckets.contains(id) => self.bucket(id),
                    (None, EnvValue::Ref(id)) => template.parameter_defaults.get(id)?.clone(),
                    _ => return None,
                };
                Some((name.clone(), resolved))
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------------------
// Creating resources

/// Creates a bucket in the configured region unless it exists.
pub async fn create_bucket(config: &SdkConfig, bucket: &str) -> Result<(), BoxError> {
    let s3 = shared::aws::s3(config);
    if s3.head_bucket().bucket(bucket).send().await.is_ok() {
        return Ok(());
    }
    let region = config
        .region()
        .map(|r| r.to_string())
        .unwrap_or_else(|| REGION.to_owned());
    let location = aws_sdk_s3::types::CreateBucketConfiguration::builder()
        .location_constraint(aws_sdk_s3::types::BucketLocationConstraint::from(
            region.as_str(),
        ))
        .build();
    s3.create_bucket()
        .bucket(bucket)
        .create_bucket_configuration(location)
        .send()
        .await?;
    Ok(())
}

/// Creates every table and bucket of the template under `names`; resources that exist are left alone.
pub async fn create_resources(
    config: &SdkConfig,
    template: &Template,
    names: &LocalNames,
) -> Result<(), BoxError> {
    let dynamodb = shared::aws::dynamodb(config);
    for (logical_id, _) in template.tables() {
        create_table(&dynamodb, template, &logical_id, &names.table(&logical_id)).await?;
    }
    for logical_id in template.buckets() {
        create_bucket(config, &names.bucket(&logical_id)).await?;
    }
    Ok(())
}

/// Creates every queue of the template under `names` and answers each logical id's URL. Dead-letter
/// redrive is set as the template sets it; `visibility` (seconds) replaces the template's visibility
/// timeout, so a failed job comes back in seconds locally rather than minutes.
pub async fn create_queues(
    config: &SdkConfig,
    template: &Template,
    names: &LocalNames,
    visibility: Option<u32>,
) -> Result<BTreeMap<String, String>, BoxError> {
    use aws_sdk_sqs::types::QueueAttributeName;
    let sqs = shared::aws::sqs(config);
    let mut urls = BTreeMap::new();
    let queues = template.queues();
    for (logical_id, properties) in &queues {
        let mut request = sqs.create_queue().queue_name(names.table(logical_id));
        let seconds = visibility.map(|v| v.to_string()).or_else(|| {
            properties
                .get("VisibilityTimeout")
                .and_then(|v| v.as_u64())
                .map(|v| v.to_string())
        });
        if let Some(seconds) = seconds {
            request = request.attributes(QueueAttributeName::VisibilityTimeout, seconds);
        }
        let url = request
            .send()
            .await?
            .queue_url()
            .ok_or("the emulator gave a queue no URL")?
            .to_owned();
        urls.insert(logical_id.clone(), url);
    }
    for (logical_id, properties) in &queues {
        let Some(redrive) = properties.get("RedrivePolicy") else {
            continue;
        };
        let target = redrive
            .get("deadLetterTargetArn")
            .and_then(|arn| match arn {
                Value::Tagged(tagged) => tagged.value.as_str().map(str::to_owned),
                Value::Mapping(m) => m
                    .get("Fn::GetAtt")
                    .and_then(|v| v.as_sequence())
                    .and_then(|v| v.first())
                    .and_then(|v| v.as_str())
                    .map(str::to_owned),
                _ => None,
            })
            .and_then(|att| att.split('.').next().map(str::to_owned))
            .and_then(|id| urls.get(&id))
            .ok_or_else(|| format!("{logical_id}: dead-letter queue not found"))?;
        let arn = sqs
            .get_queue_attributes()
            .queue_url(target)
            .attribute_names(QueueAttributeName::QueueArn)
            .send()
            .await?
            .attributes()
            .and_then(|a| a.get(&QueueAttributeName::QueueArn).cloned())
            .ok_or("the emulator gave a queue no ARN")?;
        let max = redrive
            .get("maxReceiveCount")
            .and_then(|v| v.as_u64())
            .unwrap_or(5);
        let policy = serde_json::json!({"deadLetterTargetArn": arn, "maxReceiveCount": max});
        sqs.set_queue_attributes()
            .queue_url(&urls[logical_id])
            .attributes(QueueAttributeName::RedrivePolicy, policy.to_string())
            .send()
            .await?;
    }
    Ok(urls)
}

fn str_at<'a>(value: &'a Value, key: &str) -> Result<&'a str, BoxError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("table definition lacks {key}").into())
}

fn key_schema(value: Option<&Value>) -> Result<Vec<KeySchemaElement>, BoxError> {
    value
        .and_then(Value::as_sequence)
        .ok_or("table definition lacks KeySchema")?
        .iter()
        .map(|k| {
            Ok(KeySchemaElement::builder()
                .attribute_name(str_at(k, "AttributeName")?)
                .key_type(KeyType::from(str_at(k, "KeyType")?))
                .build()?)
        })
        .collect()
}

/// Creates table `name` as template.yaml defines `logical_id` (keys, indexes, TTL), unless it exists.
pub async fn create_table(
    client: &aws_sdk_dynamodb::Client,
    template: &Template,
    logical_id: &str,
    name: &str,
) -> Result<(), BoxError> {
    let tables = template.tables();
    let properties = tables
        .iter()
        .find(|(id, _)| id == logical_id)
        .map(|(_, properties)| *properties)
        .ok_or_else(|| format!("template.yaml declares no table {logical_id}"))?;
    if let Ok(described) = client.describe_table().table_name(name).send().await {
        // A kept local store from before an index was added to the template gets the index, as a
        // stack update would add it on AWS.
        return add_missing_indexes(client, properties, name, described.table()).await;
    }
    let mut request = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .set_key_schema(Some(key_schema(properties.get("KeySchema"))?));
    for attribute in properties
        .get("AttributeDefinitions")
        .and_then(Value::as_sequence)
        .ok_or("table definition lacks AttributeDefinitions")?
    {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(str_at(attribute, "AttributeName")?)
                .attribute_type(ScalarAttributeType::from(str_at(
                    attribute,
                    "AttributeType",
                )?))
                .build()?,
        );
    }
    for index in properties
        .get("GlobalSecondaryIndexes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let projection = index
            .get("Projection")
            .and_then(|p| p.get("ProjectionType"))
            .and_then(Value::as_str)
            .unwrap_or("ALL");
        request = request.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(str_at(index, "IndexName")?)
                .set_key_schema(Some(key_schema(index.get("KeySchema"))?))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::from(projection))
                        .build(),
                )
                .build()?,
        );
    }
    match request.send().await {
        Ok(_) => {}
        Err(error)
            if error
                .as_service_error()
                .is_some_and(|e| e.is_resource_in_use_exception()) => {}
        Err(error) => return Err(error.into()),
    }
    if let Some(ttl) = properties.get("TimeToLiveSpecification") {
        client
            .update_time_to_live()
            .table_name(name)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(str_at(ttl, "AttributeName")?)
                    .enabled(true)
                    .build()?,
            )
            .send()
            .await?;
    }
    Ok(())
}

/// Adds to table `name` each index of the template's definition it lacks, one at a time.
async fn add_missing_indexes(
    client: &aws_sdk_dynamodb::Client,
    properties: &Value,
    name: &str,
    table: Option<&aws_sdk_dynamodb::types::TableDescription>,
) -> Result<(), BoxError> {
    let present: Vec<&str> = table
        .map(|t| t.global_secondary_indexes())
        .unwrap_or_default()
        .iter()
        .filter_map(|index| index.index_name())
        .collect();
    for index in properties
        .get("GlobalSecondaryIndexes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let index_name = str_at(index, "IndexName")?;
        if present.contains(&index_name) {
            continue;
        }
        let keys = key_schema(index.get("KeySchema"))?;
        let mut update = client.update_table().table_name(name);
        for attribute in properties
            .get("AttributeDefinitions")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
        {
            let attribute_name = str_at(attribute, "AttributeName")?;
            if keys.iter().any(|k| k.attribute_name() == attribute_name) {
                update = update.attribute_definitions(
                    AttributeDefinition::builder()
                        .attribute_name(attribute_name)
                        .attribute_type(ScalarAttributeType::from(str_at(
                            attribute,
                            "AttributeType",
                        )?))
                        .build()?,
                );
            }
        }
        let projection = index
            .get("Projection")
            .and_then(|p| p.get("ProjectionType"))
            .and_then(Value::as_str)
            .unwrap_or("ALL");
        update
            .global_secondary_index_updates(
                aws_sdk_dynamodb::types::GlobalSecondaryIndexUpdate::builder()
                    .create(
                        aws_sdk_dynamodb::types::CreateGlobalSecondaryIndexAction::builder()
                            .index_name(index_name)
                            .set_key_schema(Some(keys))
                            .projection(
                                Projection::builder()
                                    .projection_type(ProjectionType::from(projection))
                                    .build(),
                            )
                            .build()?,
                    )
                    .build(),
            )
            .send()
            .await?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------
// The emulator process

/// A running moto server (or one named by `AWS_ENDPOINT_URL`).
#[derive(Debug, Clone)]
pub struct Emulator {
    pub endpoint: String,
    /// The process we started, if we started one.
    pub pid: Option<u32>,
}

pub const REGION: &str = "eu-west-2";

impl Emulator {
    /// Starts moto's server on a free port of 127.0.0.1 (through scripts/moto_serial.py, which makes it
    /// handle one request at a time, as DynamoDB's transactions are serializable). It dies with this process.
    /// `MOTO_SERVER` names another moto_server executable.
    pub fn start() -> Result<Self, BoxError> {
        Self::start_keeping(None)
    }

    /// Starts moto's server as [`Emulator::start`] does; with `state`, every service's state is loaded from
    /// that file and kept there (scripts/moto_serial.py writes it a few seconds after each change, as a new
    /// file renamed over the old one, and on SIGTERM).
    pub fn start_keeping(state: Option<&Path>) -> Result<Self, BoxError> {
        Self::start_logged(state, None)
    }

    /// [`Emulator::start_keeping`], with the process's output (a failed snapshot among it) appended to `log`
    /// instead of thrown away.
    pub fn start_logged(state: Option<&Path>, log: Option<&Path>) -> Result<Self, BoxError> {
        let command = match std::env::var_os("MOTO_SERVER") {
            Some(binary) => vec![binary],
            None => vec![
                repo_root().join(".venv/bin/python").into(),
                repo_root().join("scripts/moto_serial.py").into(),
            ],
        };
        let port = free_port()?;
        let mut args = command;
        args.extend([
            "-H".into(),
            "127.0.0.1".into(),
            "-p".into(),
            port.to_string().into(),
        ]);
        if let Some(state) = state {
            args.extend(["--state".into(), state.as_os_str().to_owned()]);
        }
        let pid = spawn_service(args, port, "/moto-api/", log)?;
        Ok(Emulator {
            endpoint: format!("http://127.0.0.1:{port}"),
            pid: Some(pid),
        })
    }

    /// `AWS_ENDPOINT_URL` if set (an emulator someone else runs), else a new one.
    pub fn from_env_or_start() -> Result<Self, BoxError> {
        match std::env::var("AWS_ENDPOINT_URL") {
            Ok(endpoint) if !endpoint.is_empty() => Ok(Emulator {
                endpoint,
                pid: None,
            }),
            _ => Self::start(),
        }
    }

    /// One emulator for every test in a test binary.
    pub fn for_tests() -> &'static Emulator {
        static EMULATOR: OnceLock<Emulator> = OnceLock::new();
        EMULATOR.get_or_init(|| Emulator::from_env_or_start().expect("the AWS emulator starts"))
    }

    /// SDK settings pointing at this emulator with dummy credentials; no process environment involved.
    pub async fn sdk_config(&self) -> SdkConfig {
        let credentials =
            aws_sdk_dynamodb::config::Credentials::new("local", "local", None, None, "emulator");
        shared::aws::defaults()
            .region(Region::new(REGION))
            .endpoint_url(&self.endpoint)
            .credentials_provider(credentials)
            .load()
            .await
    }

    /// Stops the process we started.
    pub fn stop(&self) {
        stop(self.pid);
    }

    /// Stops the process we started and waits (up to `limit`) until it has written its state and exited,
    /// so a shop started right after loads everything.
    pub fn stop_and_wait(&self, limit: Duration) {
        let Some(pid) = self.pid else { return };
        stop(self.pid);
        let started = Instant::now();
        while started.elapsed() < limit {
            let mut status = 0;
            // SAFETY: waitpid on our own child with WNOHANG only reads its exit status.
            let reaped = unsafe { libc::waitpid(pid as i32, &mut status, libc::WNOHANG) };
            if reaped != 0 {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// GET a path of moto's own API or of the wrapper's (`/_shop/mails`).
    pub fn get(&self, path: &str) -> Result<String, BoxError> {
        let address = self.endpoint.trim_start_matches("http://");
        http_get(address, path)
    }

    /// One page of the mail SES sent, newest first, read from scripts/moto_serial.py's `/_shop/mails`: a
    /// read of SES's list alone, outside the emulator's one-request-at-a-time lock, however much else the
    /// emulator holds.
    pub fn mails(&self, query: &MailQuery) -> Result<MailPage, BoxError> {
        let mut path = format!("/_shop/mails?limit={}", query.limit);
        if let Some(before) = query.before {
            path.push_str(&format!("&before={before}"));
        }
        if let Some(to) = &query.to {
            path.push_str(&format!("&to={}", shared::form::escape(to)));
        }
        let body = self.get(&path)?;
        serde_json::from_str(&body).map_err(|e| {
            format!("GET /_shop/mails answered what is not a page of mail: {e}").into()
        })
    }
}

/// Which sent mails to read: at most `limit`, older than `before` (a mail's `seq`), to `to` only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailQuery {
    pub limit: u32,
    pub before: Option<u64>,
    pub to: Option<String>,
}

/// A page of sent mail, newest first; `next` is the `before` of the next (older) page.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct MailPage {
    pub mails: Vec<SentMail>,
    pub next: Option<u64>,
}

/// A mail as the emulator's SES kept it. moto keeps one body for a simple mail (the HTML when both were
/// sent); the wrapper keeps the text part, the Simple content's headers and the send time beside it.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SentMail {
    pub seq: u64,
    pub id: String,
    pub sent_at: Option<String>,
    pub from: Option<String>,
    #[serde(default)]
    pub to: Vec<String>,
    #[serde(default)]
    pub subject: String,
    pub text: Option<String>,
    pub html: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

// ---------------------------------------------------------------------------------------------------------
// The fake Stripe

/// The secret key the local stack and the tests use with localstripe (which accepts any `sk_` key).
pub const LOCAL_STRIPE_SECRET_KEY: &str = "sk_test_local_shop";
/// The publishable key the local storefront is given.
pub const LOCAL_STRIPE_PUBLISHABLE_KEY: &str = "pk_test_local_shop";
/// The secret localstripe signs its webhooks with, locally.
pub const LOCAL_STRIPE_WEBHOOK_SECRET: &str = "whsec_local_shop_webhooks";

/// A running localstripe (scripts/localstripe_serve.py on 127.0.0.1), or one named by `STRIPE_API_BASE`.
#[derive(Debug, Clone)]
pub struct LocalStripe {
    /// `http://127.0.0.1:PORT`: where Stripe's `/v1/...` API answers.
    pub api_base: String,
    pub pid: Option<u32>,
}

impl LocalStripe {
    /// Starts localstripe on a free port; with `state`, its store is kept in that file across restarts.
    pub fn start(state: Option<&Path>) -> Result<Self, BoxError> {
        Self::start_logged(state, None)
    }

    /// [`LocalStripe::start`], with the process's output appended to `log`.
    pub fn start_logged(state: Option<&Path>, log: Option<&Path>) -> Result<Self, BoxError> {
        let port = free_port()?;
        let mut args: Vec<std::ffi::OsString> = vec![
            repo_root().join(".venv/bin/python").into(),
            repo_root().join("scripts/localstripe_serve.py").into(),
            "--port".into(),
            port.to_string().into(),
        ];
        if let Some(state) = state {
            args.extend(["--state".into(), state.as_os_str().to_owned()]);
        }
        // Any path answers once the server is up: `/js.stripe.com/v3/` needs no key.
        let pid = spawn_service(args, port, "/js.stripe.com/v3/", log)?;
        Ok(LocalStripe {
            api_base: format!("http://127.0.0.1:{port}"),
            pid: Some(pid),
        })
    }

    /// `STRIPE_API_BASE` if set (a localstripe someone else runs), else a new one with its store in memory.
    pub fn from_env_or_start() -> Result<Self, BoxError> {
        match std::env::var("STRIPE_API_BASE") {
            Ok(api_base) if !api_base.is_empty() => Ok(LocalStripe {
                api_base: api_base.trim_end_matches('/').to_owned(),
                pid: None,
            }),
            _ => Self::start(None),
        }
    }

    /// One localstripe for every test in a test binary (or the one `STRIPE_API_BASE` names).
    pub fn for_tests() -> &'static LocalStripe {
        static STRIPE: OnceLock<LocalStripe> = OnceLock::new();
        STRIPE.get_or_init(|| LocalStripe::from_env_or_start().expect("localstripe starts"))
    }

    /// Asks localstripe to deliver its events to `url`, signed with `secret`.
    pub fn register_webhook(&self, id: &str, url: &str, secret: &str) -> Result<(), BoxError> {
        let address = self.api_base.trim_start_matches("http://");
        let body = format!(
            "url={}&secret={}",
            shared::form::escape(url),
            shared::form::escape(secret)
        );
        let response = http_request(address, "POST", &format!("/_config/webhooks/{id}"), &body)?;
        if !response.starts_with("HTTP/1.1 200") && !response.starts_with("HTTP/1.0 200") {
            return Err(format!(
                "localstripe refused the webhook: {}",
                response.lines().next().unwrap_or("")
            )
            .into());
        }
        Ok(())
    }

    pub fn stop(&self) {
        stop(self.pid);
    }

    /// Calls localstripe's API as the shop's server would (with the local secret key); answers the JSON.
    pub fn api(
        &self,
        method: &str,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<serde_json::Value, BoxError> {
        self.api_as(LOCAL_STRIPE_SECRET_KEY, method, path, form)
    }

    /// [`LocalStripe::api`] with another secret key: the shim in front of localstripe keeps idempotency
    /// keys and faults per secret key, so a test that makes Stripe fail on purpose gives its shop a key of its
    /// own and disturbs no other test.
    pub fn api_as(
        &self,
        secret_key: &str,
        method: &str,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<serde_json::Value, BoxError> {
        let address = self.api_base.trim_start_matches("http://");
        let body = shared::form::encode(form);
        let response = http_request_as(address, method, path, &body, Some(secret_key))?;
        let (head, body) = response
            .split_once("\r\n\r\n")
            .ok_or("malformed HTTP response")?;
        let json: serde_json::Value = serde_json::from_str(body)?;
        if !head.starts_with("HTTP/1.1 2") && !head.starts_with("HTTP/1.0 2") {
            return Err(format!(
                "{method} {path}: {} {json}",
                head.lines().next().unwrap_or("")
            )
            .into());
        }
        Ok(json)
    }

    /// A PaymentMethod for a test card number, as Stripe.js would make it in the browser: its id.
    pub fn card(&self, number: &str) -> Result<String, BoxError> {
        let made = self.api(
            "POST",
            "/v1/payment_methods",
            &[
                ("type", "card"),
                ("card[number]", number),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
                ("card[cvc]", "123"),
            ],
        )?;
        Ok(made["id"].as_str().ok_or("no PaymentMethod id")?.to_owned())
    }

    /// Completes (or fails) a 3-D Secure challenge, as Stripe.js's `handleCardAction` would.
    pub fn authenticate(&self, client_secret: &str, success: bool) -> Result<(), BoxError> {
        let intent = client_secret
            .split("_secret_")
            .next()
            .ok_or("not a client secret")?;
        self.api(
            "POST",
            &format!("/v1/payment_intents/{intent}/_authenticate"),
            &[
                ("client_secret", client_secret),
                ("success", if success { "true" } else { "false" }),
            ],
        )?;
        Ok(())
    }
}

/// A minimal blocking form POST; answers the raw response.
fn http_request(address: &str, method: &str, path: &str, body: &str) -> Result<String, BoxError> {
    http_request_as(address, method, path, body, None)
}

fn http_request_as(
    address: &str,
    method: &str,
    path: &str,
    body: &str,
    bearer: Option<&str>,
) -> Result<String, BoxError> {
    let mut stream = TcpStream::connect(address)?;
    // Generous: a mailing to thousands of subscribers keeps the emulator busy for a while.
    stream.set_read_timeout(Some(Duration::from_secs(180)))?;
    let authorization = bearer
        .map(|key| format!("Authorization: Bearer {key}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {address}\r\nConnection: close\r\n{authorization}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    Ok(response)
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Starts a local service (`args[0]` with the rest as arguments) that dies with this process, and waits until
/// `ready_path` answers 200 on `port`. Its output is appended to `log`, or dropped without one.
fn spawn_service(
    args: Vec<std::ffi::OsString>,
    port: u16,
    ready_path: &str,
    log: Option<&Path>,
) -> Result<u32, BoxError> {
    if !Path::new(&args[0]).exists() {
        return Err(format!(
            "{} is missing: run `make venv` (it makes the venv with moto and localstripe)",
            Path::new(&args[0]).display()
        )
        .into());
    }
    let output = match log {
        Some(path) => {
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder)?;
            }
            Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open the log {}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let (sender, receiver) = std::sync::mpsc::channel();
    // The child is spawned from a thread that never ends: the parent-death signal fires when the
    // spawning thread exits, and a test thread ends long before the other tests are done.
    std::thread::Builder::new()
        .name(format!("service-{port}"))
        .spawn(move || {
            let spawned = spawn_dying_with_parent(&args, output);
            let _ = sender.send(spawned.map(|child| child.id()).map_err(|e| e.to_string()));
            loop {
                std::thread::park();
            }
        })?;
    let pid = receiver.recv()??;
    wait_until_ready(port, ready_path, Duration::from_secs(60))?;
    Ok(pid)
}

fn stop(pid: Option<u32>) {
    if let Some(pid) = pid {
        // SAFETY: kill(2) with a pid we spawned and a valid signal number has no memory effects.
        unsafe {
            libc::kill(pid as i32, libc::SIGTERM);
        }
    }
}

fn spawn_dying_with_parent(
    args: &[std::ffi::OsString],
    output: Option<std::fs::File>,
) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(&args[0]);
    // Unbuffered, so a log shows what happened up to a crash.
    command
        .args(&args[1..])
        .stdin(Stdio::null())
        .env("PYTHONUNBUFFERED", "1");
    match output {
        Some(file) => {
            command.stdout(file.try_clone()?).stderr(file);
        }
        None => {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    // SAFETY: prctl(PR_SET_PDEATHSIG) is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.spawn()
}

fn wait_until_ready(port: u16, path: &str, limit: Duration) -> Result<(), BoxError> {
    let started = Instant::now();
    let address = format!("127.0.0.1:{port}");
    while started.elapsed() < limit {
        if http_get(&address, path).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!("the local service on port {port} did not answer within {limit:?}").into())
}

/// A minimal blocking HTTP GET of `address` (`127.0.0.1:PORT`), enough for moto's own API and the local
/// gateway's, without pulling an HTTP client into the crate.
pub fn http_get(address: &str, path: &str) -> Result<String, BoxError> {
    let response = http_request(address, "GET", path, "")?;
    let (head, body) = response
        .split_once("\r\n\r\n")
        .ok_or("malformed HTTP response")?;
    if !head.starts_with("HTTP/1.0 200") && !head.starts_with("HTTP/1.1 200") {
        return Err(format!("GET {path}: {}", head.lines().next().unwrap_or("")).into());
    }
    Ok(body.to_owned())
}

/// A TCP stand-in between the AWS SDK and the emulator that makes every request wait `delay` before it goes
/// on, as a real AWS call waits for its round trip, and notes each request's `X-Amz-Target` (the operation
/// of the JSON-protocol services: Secrets Manager, DynamoDB, SSM) and when the emulator was working on a
/// request (from the end of the request's delay to the first byte of its answer). The cold-start benchmark runs
/// functions through it (`COLDSTART_AWS_LATENCY_MS`) and takes the emulator's own time out of a function's
/// figures (on AWS that time is part of the round trip the delay stands for); tests count the calls a cold
/// start makes.
pub struct LatencyProxy {
    pub endpoint: String,
    calls: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    busy: std::sync::Arc<std::sync::Mutex<Busy>>,
    accept: tokio::task::JoinHandle<()>,
}

/// The spans of time in which at least one request was with the emulator.
#[derive(Default)]
struct Busy {
    in_flight: usize,
    since: Option<Instant>,
    spans: Vec<(Instant, Instant)>,
    /// When each request reached the proxy, before its delay.
    arrived: Vec<Instant>,
}

impl Busy {
    fn begin(&mut self, at: Instant) {
        if self.in_flight == 0 {
            // Never before the last span's end: no time is counted twice.
            let last_end = self.spans.last().map(|(_, end)| *end);
            self.since = Some(last_end.map_or(at, |end| at.max(end)));
        }
        self.in_flight += 1;
    }

    fn end(&mut self, at: Instant) {
        self.in_flight = self.in_flight.saturating_sub(1);
        if self.in_flight == 0 {
            if let Some(since) = self.since.take() {
                self.spans.push((since, at));
            }
        }
    }
}

impl LatencyProxy {
    pub async fn start(upstream: &str, delay: std::time::Duration) -> std::io::Result<Self> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let upstream = upstream
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let endpoint = format!("http://{}", listener.local_addr()?);
        let calls = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let busy = std::sync::Arc::new(std::sync::Mutex::new(Busy::default()));
        let (noted, timed) = (calls.clone(), busy.clone());
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
                    continue;
                };
                let (noted, timed) = (noted.clone(), timed.clone());
                tokio::spawn(async move {
                    let (mut from_client, mut to_client) = client.into_split();
                    let (mut from_server, mut to_server) = server.into_split();
                    // Whether a request of this connection waits for the first byte of its answer.
                    let waiting = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    let (answered, answer_timed) = (waiting.clone(), timed.clone());
                    let answers = tokio::spawn(async move {
                        let mut buffer = vec![0u8; 64 * 1024];
                        loop {
                            let read = match from_server.read(&mut buffer).await {
                                Ok(0) | Err(_) => break,
                                Ok(read) => read,
                            };
                            if answered.swap(false, std::sync::atomic::Ordering::SeqCst) {
                                answer_timed.lock().expect("busy").end(Instant::now());
                            }
                            if to_client.write_all(&buffer[..read]).await.is_err() {
                                break;
                            }
                        }
                    });
                    let mut buffer = vec![0u8; 64 * 1024];
                    loop {
                        let read = match from_client.read(&mut buffer).await {
                            Ok(0) | Err(_) => break,
                            Ok(read) => read,
                        };
                        let chunk = &buffer[..read];
                        // A chunk that starts a request: its first line ends in the HTTP version.
                        let text = String::from_utf8_lossy(&chunk[..read.min(8 * 1024)]);
                        let starts_request = text
                            .lines()
                            .next()
                            .is_some_and(|line| line.ends_with("HTTP/1.1"));
                        if starts_request {
                            let arrived = Instant::now();
                            timed.lock().expect("busy").arrived.push(arrived);
                            if let Some(target) = text.lines().find_map(|line| {
                                let (name, value) = line.split_once(':')?;
                                name.eq_ignore_ascii_case("x-amz-target")
                                    .then(|| value.trim().to_owned())
                            }) {
                                noted.lock().expect("calls").push(target);
                            }
                            if !delay.is_zero() {
                                precise_sleep(delay).await;
                            }
                            // The round trip is the delay it stands for: whatever the sleep ran over
                            // it, and the hop back to this task, count with the emulator's time.
                            if !waiting.swap(true, std::sync::atomic::Ordering::SeqCst) {
                                timed.lock().expect("busy").begin(arrived + delay);
                            }
                        }
                        if to_server.write_all(chunk).await.is_err() {
                            break;
                        }
                    }
                    answers.abort();
                    // A request left unanswered ends with its connection.
                    if waiting.swap(false, std::sync::atomic::Ordering::SeqCst) {
                        timed.lock().expect("busy").end(Instant::now());
                    }
                });
            }
        });
        Ok(LatencyProxy {
            endpoint,
            calls,
            busy,
            accept,
        })
    }

    /// The `X-Amz-Target` of every request so far, in order.
    pub fn calls(&self) -> Vec<String> {
        self.calls.lock().expect("calls").clone()
    }

    /// Between `from` and `to`: when the first request reached the proxy and when the last answer came
    /// back (the end of the last span with nothing at the emulator), if any did. A cold start's time before
    /// the one and after the other is its own work.
    pub fn first_request_and_last_answer(
        &self,
        from: Instant,
        to: Instant,
    ) -> Option<(Instant, Instant)> {
        let busy = self.busy.lock().expect("busy");
        let within = |at: &&Instant| (from..=to).contains(*at);
        let first = busy.arrived.iter().filter(within).min()?;
        let last = busy.spans.iter().map(|(_, end)| end).filter(within).max()?;
        Some((*first, *last))
    }

    /// How long, between `from` and `to`, the emulator was working on at least one request.
    pub fn emulator_time(&self, from: Instant, to: Instant) -> std::time::Duration {
        let busy = self.busy.lock().expect("busy");
        let open = busy.since.map(|since| (since, Instant::now()));
        busy.spans
            .iter()
            .copied()
            .chain(open)
            .map(|(start, end)| end.min(to).saturating_duration_since(start.max(from)))
            .sum()
    }
}

/// Waits `delay` and not much more. Tokio's timer counts whole milliseconds and rounds a deadline up to
/// the next one, so its 20 ms sleep lasts 20 to 21 ms plus the driver's wake-up: a benchmark that stands for
/// a 20 ms round trip would charge every call up to a millisecond it does not have. The thread's own sleep
/// (`clock_nanosleep`) ends within tens of microseconds of the delay, never before it.
async fn precise_sleep(delay: std::time::Duration) {
    let _ = tokio::task::spawn_blocking(move || std::thread::sleep(delay)).await;
}

impl Drop for LatencyProxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = r#"
Parameters:
  MailFrom: {Type: String, Default: shop@example.com}
Globals:
  Function:
    Environment:
      Variables:
        JWT_SECRET: !Sub '{{resolve:secretsmanager:${JwtSecretName}}}'
        JWT_ISSUER: shop
Resources:
  ThingsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
  ImagesBucket:
    Type: AWS::S3::Bucket
  ThingsFunction:
    Type: AWS::Serverless::Function
    Properties:
      Environment:
        Variables:
          THINGS_TABLE: !Ref ThingsTable
          IMAGES_BUCKET: !Ref ImagesBucket
          MAIL_FROM: !Ref MailFrom
      Events:
        ListThings:
          Type: HttpApi
          Properties: {Path: /api/things/, Method: get}
"#;

    #[test]
    fn the_template_yields_tables_buckets_events_and_env() {
        let template = Template::parse(TEMPLATE).unwrap();
        assert_eq!(template.tables()[0].0, "ThingsTable");
        assert_eq!(template.buckets(), vec!["ImagesBucket"]);
        let function = template.function("ThingsFunction").unwrap();
        assert_eq!(
            function.events,
            vec![EventDef {
                method: "GET".into(),
                path: "/api/things/".into()
            }]
        );
        let names = LocalNames::new("dev");
        let overrides = BTreeMap::from([("JWT_SECRET".to_owned(), "s".to_owned())]);
        let env = names.function_env(&template, &function, &overrides);
        assert_eq!(env["THINGS_TABLE"], "dev-ThingsTable");
        assert_eq!(env["IMAGES_BUCKET"], "dev-imagesbucket");
        assert_eq!(env["JWT_SECRET"], "s");
        assert_eq!(env["JWT_ISSUER"], "shop");
        assert_eq!(env["MAIL_FROM"], "shop@example.com");
    }

    #[test]
    fn computed_values_without_an_override_are_left_out() {
        let template = Template::parse(TEMPLATE).unwrap();
        let function = template.function("ThingsFunction").unwrap();
        let env = LocalNames::new("dev").function_env(&template, &function, &BTreeMap::new());
        assert!(!env.contains_key("JWT_SECRET"));
    }
}
