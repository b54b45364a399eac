//! The OpenAPI document: every route of every function and nothing else, each described, the committed
//! docs/openapi.json what the code produces, and the gateway serving it.

use axum::body::Body;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use local::functions::FUNCTIONS;
use serde_json::Value;
use shared::routes::Access;
use std::collections::{BTreeMap, BTreeSet};
use tower::ServiceExt;

fn operations(document: &Value) -> BTreeMap<(String, String), Value> {
    let mut operations = BTreeMap::new();
    for (path, methods) in document["paths"].as_object().expect("paths") {
        for (method, operation) in methods.as_object().expect("methods") {
            operations.insert(
                (method.to_ascii_uppercase(), path.clone()),
                operation.clone(),
            );
        }
    }
    operations
}

#[test]
fn every_route_is_in_the_document_and_nothing_else() {
    let document = local::openapi::document();
    let described: BTreeSet<(String, String)> = operations(&document).into_keys().collect();
    let served: BTreeSet<(String, String)> = FUNCTIONS
        .iter()
        .flat_map(|entry| (entry.routes)())
        .map(|route| (route.method.to_string(), route.path.to_owned()))
        .collect();
    assert!(served.len() > 70, "only {} routes found", served.len());
    let missing: Vec<_> = served.difference(&described).collect();
    let extra: Vec<_> = described.difference(&served).collect();
    assert!(
        missing.is_empty(),
        "routes missing from the document: {missing:?}"
    );
    assert!(extra.is_empty(), "operations no route serves: {extra:?}");
}

#[test]
fn each_operation_is_named_described_and_guarded_as_its_route() {
    let document = local::openapi::document();
    let operations = operations(&document);
    let mut ids = BTreeSet::new();
    for entry in FUNCTIONS {
        for route in (entry.routes)() {
            let key = (route.method.to_string(), route.path.to_owned());
            let operation = &operations[&key];
            let id = operation["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_owned()), "{key:?}: operationId {id} twice");
            assert!(
                operation["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{key:?} has no summary"
            );
            let responses = operation["responses"].as_object().unwrap();
            assert!(
                responses
                    .keys()
                    .any(|status| status.starts_with('2') || status.starts_with('3')),
                "{key:?} names no success"
            );
            for (status, response) in responses {
                // A 4xx in JSON is `{message}` (the unsubscribe link's page answers a person in HTML), or
                // a shape that requires `message` beside more (the checkout's 409 carries the new quote).
                if status.starts_with('4') && response["content"].get("text/html").is_none() {
                    let reference = response["content"]["application/json"]["schema"]["$ref"]
                        .as_str()
                        .unwrap_or_default();
                    let name = reference.trim_start_matches("#/components/schemas/");
                    let schema = &document["components"]["schemas"][name];
                    assert!(
                        name == "Message"
                            || (schema["properties"]["message"]["type"] == "string"
                                && schema["required"]
                                    .as_array()
                                    .is_some_and(|r| r.iter().any(|f| f == "message"))),
                        "{key:?} {status} is not the {{message}} shape ({reference})"
                    );
                }
            }
            let guarded = operation.get("security").is_some();
            assert_eq!(guarded, route.access != Access::Public, "{key:?} security");
            if guarded {
                assert!(responses.contains_key("401"), "{key:?} cannot answer 401");
            }
            if route.access == Access::Admin {
                assert!(responses.contains_key("403"), "{key:?} cannot answer 403");
            }
            if operation.get("requestBody").is_some() {
                for status in ["400", "413"] {
                    if operation["requestBody"]["content"]
                        .get("application/json")
                        .is_some()
                    {
                        assert!(
                            responses.contains_key(status),
                            "{key:?} cannot answer {status}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_reference_resolves_to_a_component() {
    let document = local::openapi::document();
    let schemas = document["components"]["schemas"].as_object().unwrap();
    fn refs(value: &Value, found: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    found.insert(target.clone());
                }
                map.values().for_each(|v| refs(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
            _ => {}
        }
    }
    let mut found = BTreeSet::new();
    refs(&document, &mut found);
    for target in found {
        let name = target
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("{target} points outside components/schemas"));
        assert!(schemas.contains_key(name), "{target} is not defined");
    }
}

#[test]
fn the_committed_document_is_what_the_code_produces() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let committed = std::fs::read_to_string(root.join(local::openapi::COMMITTED))
        .expect("docs/openapi.json is committed: run make openapi");
    assert!(
        committed == local::openapi::document_text(),
        "docs/openapi.json differs from what the code describes: run make openapi and commit it"
    );
}

#[test]
fn the_committed_map_of_routes_is_what_the_code_serves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let committed = std::fs::read_to_string(root.join(local::openapi::ROUTES_COMMITTED))
        .expect("docs/routes.md is committed: run make openapi");
    let generated = local::openapi::routes_text();
    assert!(
        committed == generated,
        "docs/routes.md differs from the route tables: run make openapi and commit it"
    );
    // Every line names a function and a handler in it.
    assert!(generated.contains(
        "| POST | `/api/order/create/` | Orders | `orders::checkout::create_order` | anyone |"
    ));
}

#[tokio::test]
async fn the_gateway_serves_the_document_and_its_page() {
    let router = local::openapi::routes();
    let get = |uri: &str| {
        router
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
    };
    let reply = get("/api/openapi.json").await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    let body = reply.into_body().collect().await.unwrap().to_bytes();
    let served: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(served, local::openapi::document());
    assert_eq!(served["openapi"], "3.1.0");

    let page = get("/_local/api.html").await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = String::from_utf8(
        page.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    assert!(html.contains("/_local/swagger-ui/swagger-ui-bundle.js"));
    assert!(
        !html.contains("<script>"),
        "an inline script breaks the shop's CSP"
    );
    let missing = get("/_local/swagger-ui/..%2Fpackage.json").await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}
