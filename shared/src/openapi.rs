//! The API's OpenAPI 3.1 description, produced from the route tables themselves. Each route's handler
//! describes itself through its extractors (`Json<T>` a body of T's schema, `Query<T>` query parameters,
//! `Admin` and `Customer` bearer auth, `SourceIp` a rate limit) and its return type (`Json<T>` a 200 of T,
//! `Created<T>` a 201); the route table adds what a signature cannot say (a summary, the statuses a rule
//! answers, a reply built by hand). So the document cannot drift from the routers: it is read off them.

use crate::auth::{Admin, Customer};
use crate::extract::{Path, Query};
use crate::json::{Created, Json, Message};
use crate::rate::SourceIp;
use axum::extract::State;
use http::Method;
use schemars::generate::{Contract, SchemaSettings};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;

/// Who may call a route. The handler's extractors enforce it; the table records it for the guard tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    Customer,
    Admin,
}

#[derive(Debug, Clone)]
pub struct RouteSpec {
    pub method: Method,
    /// As the spec and template.yaml write it, e.g. `/api/product/update/{_id}`.
    pub path: &'static str,
    pub access: Access,
    /// What the route takes and answers, for the OpenAPI document (shared::openapi).
    pub doc: Doc,
}

impl PartialEq for RouteSpec {
    fn eq(&self, other: &Self) -> bool {
        (&self.method, self.path, self.access) == (&other.method, other.path, other.access)
    }
}

impl Eq for RouteSpec {}

/// How a schema is made: `schema::<T>` for a named type (a `$ref`), `inline::<T>` for its body.
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// A create route's body over its update's type: T's schema with `fields` required and never null (the
/// handler reads T and answers 422 for a missing one).
pub fn requiring<T: JsonSchema>(
    generator: &mut SchemaGenerator,
    description: &str,
    fields: &[&str],
) -> Schema {
    let mut schema = T::json_schema(generator);
    schema.insert("description".into(), json!(description));
    schema.insert("required".into(), json!(fields));
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for field in fields {
            if let Some(property) = properties.get_mut(*field) {
                not_null(property);
            }
        }
    }
    schema
}

/// `{"type": ["string", "null"]}` becomes `{"type": "string"}`; `{"anyOf": [X, {"type": "null"}]}` X.
fn not_null(property: &mut Value) {
    if let Some(types) = property.get("type").and_then(Value::as_array) {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        property["type"] = match kept.as_slice() {
            [one] => one.clone(),
            _ => Value::Array(kept),
        };
    }
    if let Some(any_of) = property.get("anyOf").and_then(Value::as_array) {
        let kept: Vec<Value> = any_of
            .iter()
            .filter(|option| option.get("type") != Some(&json!("null")))
            .cloned()
            .collect();
        if let [only] = kept.as_slice() {
            let only = only.clone();
            let description = property.get("description").cloned();
            *property = only;
            if let Some(description) = description {
                property["description"] = description;
            }
        } else {
            property["anyOf"] = Value::Array(kept);
        }
    }
}

/// A reference to T's schema in `components/schemas` (or T's schema itself for simple types).
pub fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// T's schema written out in place (query parameters are read off its properties).
pub fn inline<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    T::json_schema(generator)
}

#[derive(Debug, Clone, Copy)]
pub struct BodyDoc {
    pub media: &'static str,
    pub schema: SchemaFn,
}

#[derive(Debug, Clone, Copy)]
pub struct ReplyDoc {
    pub status: u16,
    pub description: &'static str,
    /// The body's media type and schema; `None` for an empty reply.
    pub body: Option<BodyDoc>,
}

#[derive(Debug, Clone, Copy)]
pub struct HeaderDoc {
    pub name: &'static str,
    pub required: bool,
    pub description: &'static str,
    /// What the handler accepts, when it checks the value's form.
    pub pattern: Option<&'static str>,
}

/// What one route says of itself.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    /// The handler's path, e.g. `catalog::products::create_product` (operation ids come from it).
    pub handler: &'static str,
    pub summary: Option<&'static str>,
    /// Customer or Admin when the handler takes a signed-in user.
    pub security: Option<Access>,
    pub body: Option<BodyDoc>,
    pub query: Option<SchemaFn>,
    pub headers: Vec<HeaderDoc>,
    pub replies: Vec<ReplyDoc>,
    /// Statuses answered with `{message}`.
    pub errors: BTreeSet<u16>,
    /// Answers 429 with Retry-After.
    pub rate_limited: bool,
    /// Path parameters whose form the handler checks: (name, pattern).
    pub path_patterns: Vec<(&'static str, &'static str)>,
}

impl Doc {
    pub fn reply(&mut self, status: u16, description: &'static str, body: Option<BodyDoc>) {
        self.replies.retain(|reply| reply.status != status);
        self.replies.push(ReplyDoc {
            status,
            description,
            body,
        });
    }

    /// A JSON body described by T rather than by the handler's input type (whose schema cannot say what a
    /// create route insists on, say).
    pub fn json_body<T: JsonSchema>(&mut self) {
        self.body = Some(BodyDoc {
            media: "application/json",
            schema: schema::<T>,
        });
    }

    pub fn json_reply<T: JsonSchema>(&mut self, status: u16, description: &'static str) {
        self.reply(
            status,
            description,
            Some(BodyDoc {
                media: "application/json",
                schema: schema::<T>,
            }),
        );
    }
}

/// An extractor's part in a route's description (most add nothing).
pub trait DocumentArg {
    fn document(_doc: &mut Doc) {}
}

/// A return type's part: the success it answers.
pub trait DocumentReply {
    fn document(_doc: &mut Doc) {}
}

/// A handler: its extractors' parts, then its reply's. Implemented for every async fn whose arguments
/// and reply are described, as axum's `Handler` is for those that are extractors.
pub trait DocumentHandler<T> {
    fn document(doc: &mut Doc);
}

macro_rules! document_handler {
    ($($arg:ident),*) => {
        impl<F, Fut, M, $($arg,)*> DocumentHandler<(M, $($arg,)*)> for F
        where
            F: FnOnce($($arg,)*) -> Fut,
            Fut: Future,
            Fut::Output: DocumentReply,
            $($arg: DocumentArg,)*
        {
            fn document(doc: &mut Doc) {
                $(<$arg as DocumentArg>::document(doc);)*
                <Fut::Output as DocumentReply>::document(doc);
            }
        }
    };
}

impl<F, Fut> DocumentHandler<((),)> for F
where
    F: FnOnce() -> Fut,
    Fut: Future,
    Fut::Output: DocumentReply,
{
    fn document(doc: &mut Doc) {
        <Fut::Output as DocumentReply>::document(doc);
    }
}

document_handler!(A1);
document_handler!(A1, A2);
document_handler!(A1, A2, A3);
document_handler!(A1, A2, A3, A4);
document_handler!(A1, A2, A3, A4, A5);
document_handler!(A1, A2, A3, A4, A5, A6);
document_handler!(A1, A2, A3, A4, A5, A6, A7);
document_handler!(A1, A2, A3, A4, A5, A6, A7, A8);

impl<S> DocumentArg for State<S> {}
impl<T> DocumentArg for Path<T> {}
impl DocumentArg for http::HeaderMap {}
impl DocumentArg for http::Method {}
impl DocumentArg for http::Uri {}
impl<T> DocumentArg for axum::Extension<T> {}
impl DocumentArg for crate::edge::ClientAddress {}

impl<T: DocumentArg, E> DocumentArg for Result<T, E> {
    fn document(doc: &mut Doc) {
        T::document(doc);
    }
}

impl<T: DocumentArg> DocumentArg for Option<T> {
    fn document(doc: &mut Doc) {
        T::document(doc);
    }
}

impl<T: JsonSchema> DocumentArg for Json<T> {
    fn document(doc: &mut Doc) {
        doc.body = Some(BodyDoc {
            media: "application/json",
            schema: schema::<T>,
        });
        // Not JSON or not the shape (400), too large (413), not sent as JSON (415), breaks a rule (422).
        doc.errors.extend([400, 413, 415, 422]);
    }
}

impl<T: JsonSchema> DocumentArg for Query<T> {
    fn document(doc: &mut Doc) {
        doc.query = Some(inline::<T>);
        doc.errors.insert(400);
    }
}

impl DocumentArg for Customer {
    fn document(doc: &mut Doc) {
        doc.security.get_or_insert(Access::Customer);
        doc.errors.insert(401);
    }
}

impl DocumentArg for Admin {
    fn document(doc: &mut Doc) {
        doc.security = Some(Access::Admin);
        doc.errors.extend([401, 403]);
    }
}

impl DocumentArg for SourceIp {
    fn document(doc: &mut Doc) {
        doc.rate_limited = true;
    }
}

impl<T: DocumentReply, E> DocumentReply for Result<T, E> {
    fn document(doc: &mut Doc) {
        T::document(doc);
    }
}

impl<T: JsonSchema> DocumentReply for Json<T> {
    fn document(doc: &mut Doc) {
        doc.json_reply::<T>(200, "OK");
    }
}

impl<T: JsonSchema> DocumentReply for Created<T> {
    fn document(doc: &mut Doc) {
        doc.json_reply::<T>(201, "Created");
    }
}

/// A reply built by hand: the route table says what it holds (`ApiRoutes::answers`).
impl DocumentReply for axum::response::Response {}

/// One function's routes, under its name (the operations' tag).
pub struct Function {
    pub name: &'static str,
    pub routes: Vec<RouteSpec>,
}

pub(crate) fn settings(contract: Contract) -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|settings| {
        settings.definitions_path = "#/components/schemas/".into();
        settings.meta_schema = None;
        settings.contract = contract;
    })
}

/// The parameters of a path such as `/api/product/update/{_id}`.
pub fn path_parameters(path: &str) -> Vec<&str> {
    path.split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
        .collect()
}

fn error_content() -> Value {
    json!({ "application/json": { "schema": { "$ref": "#/components/schemas/Message" } } })
}

fn status_text(status: u16) -> &'static str {
    match status {
        400 => "The request is malformed",
        401 => "No valid login token",
        402 => "The payment was refused",
        403 => "Signed in without the right to this",
        404 => "Not found",
        409 => "In conflict with what is stored",
        413 => "The body is too large",
        415 => "The body is not of a media type this route reads",
        422 => "A value breaks one of the shop's rules",
        429 => "Too many requests: try again after Retry-After seconds",
        502 => "The payment provider could not be reached",
        503 => "A service the shop needs is busy",
        _ => "Error",
    }
}

/// Operation ids: the handler's name, with its module where two handlers share a name.
fn operation_ids(functions: &[Function]) -> BTreeMap<&'static str, String> {
    let last = |handler: &str, n: usize| -> String {
        let parts: Vec<&str> = handler.split("::").collect();
        parts[parts.len().saturating_sub(n)..].join("_")
    };
    let handlers: Vec<&'static str> = functions
        .iter()
        .flat_map(|function| function.routes.iter().map(|route| route.doc.handler))
        .collect();
    let mut ids = BTreeMap::new();
    for handler in &handlers {
        let mut n = 1;
        let id = loop {
            let id = last(handler, n);
            let clash = handlers
                .iter()
                .any(|other| other != handler && last(other, n) == id);
            if !clash || n > 4 {
                break id;
            }
            n += 1;
        };
        ids.insert(*handler, id);
    }
    ids
}

fn operation(
    function: &str,
    route: &RouteSpec,
    id: &str,
    requests: &mut SchemaGenerator,
    replies: &mut SchemaGenerator,
) -> Value {
    let doc = &route.doc;
    let mut parameters: Vec<Value> = path_parameters(route.path)
        .into_iter()
        .map(|name| {
            let mut schema = json!({"type": "string", "minLength": 1});
            if let Some((_, pattern)) = doc.path_patterns.iter().find(|(n, _)| *n == name) {
                schema["pattern"] = json!(pattern);
            }
            json!({"name": name, "in": "path", "required": true, "schema": schema})
        })
        .collect();
    if let Some(query) = doc.query {
        let schema = query(requests).to_value();
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(properties) = schema["properties"].as_object() {
            for (name, property) in properties {
                let mut parameter = json!({"name": name, "in": "query",
                    "required": required.contains(name.as_str()), "schema": property});
                if let Some(description) = property.get("description") {
                    parameter["description"] = description.clone();
                }
                parameters.push(parameter);
            }
        }
    }
    for header in &doc.headers {
        let mut schema = json!({"type": "string"});
        if let Some(pattern) = header.pattern {
            schema["pattern"] = json!(pattern);
        }
        parameters.push(
            json!({"name": header.name, "in": "header", "required": header.required,
            "description": header.description, "schema": schema}),
        );
    }

    let mut responses = Map::new();
    for reply in &doc.replies {
        let mut response = json!({ "description": reply.description });
        if let Some(body) = reply.body {
            response["content"] =
                json!({ body.media: { "schema": (body.schema)(replies).to_value() } });
        }
        responses.insert(reply.status.to_string(), response);
    }
    let mut errors = doc.errors.clone();
    if !path_parameters(route.path).is_empty() {
        errors.insert(404);
    }
    if doc.rate_limited {
        errors.insert(429);
    }
    for status in errors {
        let mut response =
            json!({ "description": status_text(status), "content": error_content() });
        if status == 429 {
            response["headers"] = json!({ "Retry-After": {
                "description": "Seconds until a new request may succeed",
                "schema": {"type": "integer", "minimum": 0}
            }});
        }
        responses.insert(status.to_string(), response);
    }

    let mut operation = json!({
        "operationId": id,
        "tags": [function],
        "responses": responses,
    });
    if let Some(summary) = doc.summary {
        operation["summary"] = json!(summary);
    }
    if !parameters.is_empty() {
        operation["parameters"] = Value::Array(parameters);
    }
    if let Some(body) = doc.body {
        operation["requestBody"] = json!({
            "required": true,
            "content": { body.media: { "schema": (body.schema)(requests).to_value() } }
        });
    }
    if let Some(access) = doc.security {
        operation["security"] = json!([{ "bearerAuth": [] }]);
        operation["description"] = json!(match access {
            Access::Admin => "Admins only.",
            _ => "Any signed-in user.",
        });
    }
    operation
}

/// One function's part of the document (its own tests read their routes' descriptions off it).
pub fn function_document(name: &'static str, routes: Vec<RouteSpec>) -> Value {
    document(name, "0", &[Function { name, routes }])
}

/// The whole API: every function's routes, one document.
pub fn document(title: &str, version: &str, functions: &[Function]) -> Value {
    let mut requests = SchemaGenerator::new(settings(Contract::Deserialize));
    let mut replies = SchemaGenerator::new(settings(Contract::Serialize));
    // Every error's `{message}`.
    replies.subschema_for::<Message>();
    let ids = operation_ids(functions);
    let mut paths: BTreeMap<&str, Map<String, Value>> = BTreeMap::new();
    for function in functions {
        for route in &function.routes {
            let operation = operation(
                function.name,
                route,
                &ids[route.doc.handler],
                &mut requests,
                &mut replies,
            );
            let method = route.method.as_str().to_ascii_lowercase();
            let previous = paths
                .entry(route.path)
                .or_default()
                .insert(method, operation);
            assert!(
                previous.is_none(),
                "{} {} is declared twice",
                route.method,
                route.path
            );
        }
    }

    let mut schemas = requests.take_definitions(true);
    for (name, schema) in replies.take_definitions(true) {
        match schemas.get(&name) {
            Some(existing) if *existing != schema => panic!(
                "the schema {name} reads differently from how it is written: give the request and the reply types different names"
            ),
            _ => {
                schemas.insert(name, schema);
            }
        }
    }
    let mut document = json!({
        "openapi": "3.1.0",
        "info": { "title": title, "version": version },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The token POST /api/user/verify/ answers with."
                }
            }
        }
    });
    bound_integers(&mut document);
    document
}

/// Gives each integer with a sized `format` (`uint32`, `int64`, …) the bounds of its type, so a client (and
/// the fuzzer) knows what the server can read: JSON Schema does not check `format`, and a `u32` count of
/// 10^11 is refused by the server although the document allowed it. A tighter bound already there stays.
pub(crate) fn bound_integers(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let bounds = match map.get("format").and_then(Value::as_str) {
                Some("uint8") => Some((0, u8::MAX as i128)),
                Some("uint16") => Some((0, u16::MAX as i128)),
                Some("uint32") => Some((0, u32::MAX as i128)),
                Some("uint64") | Some("uint") => Some((0, u64::MAX as i128)),
                Some("int8") => Some((i8::MIN as i128, i8::MAX as i128)),
                Some("int16") => Some((i16::MIN as i128, i16::MAX as i128)),
                Some("int32") => Some((i32::MIN as i128, i32::MAX as i128)),
                Some("int64") | Some("int") => Some((i64::MIN as i128, i64::MAX as i128)),
                _ => None,
            };
            if let Some((low, high)) = bounds {
                let tighter_low = map
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .is_some_and(|min| min >= low as f64);
                if !tighter_low {
                    map.insert("minimum".to_owned(), json_integer(low));
                }
                let tighter_high = map
                    .get("maximum")
                    .and_then(Value::as_f64)
                    .is_some_and(|max| max <= high as f64);
                if !tighter_high {
                    map.insert("maximum".to_owned(), json_integer(high));
                }
            }
            map.values_mut().for_each(bound_integers);
        }
        Value::Array(items) => items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

fn json_integer(value: i128) -> Value {
    match (i64::try_from(value), u64::try_from(value)) {
        (Ok(signed), _) => Value::from(signed),
        (_, Ok(unsigned)) => Value::from(unsigned),
        _ => Value::Null,
    }
}

// Its tests describe routes through routes.rs's table: openapi_tests.rs, so this file does not import it.
