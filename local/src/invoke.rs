//! `make invoke FN=catalog EVENT=list-products`: one function's router handed one API Gateway event, with the
//! environment the running local gateway gives that function (read from its `/_local/env`), against the same
//! emulator and data. No variable is copied by hand, and nothing is mocked: the function reaches the emulator
//! through the real SDK, as it does in the gateway and in Lambda.

use crate::functions::{self, FunctionEntry, LocalEnv};
use aws_config::Region;
use axum::body::Body;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use shared::auth::{AuthKeys, Role};
use std::collections::BTreeMap;
use std::path::PathBuf;
use testkit::emulator::{repo_root, BoxError, LocalNames};
use tower::ServiceExt;

/// Every function's environment as the gateway on 127.0.0.1:`port` gives it (`GET /_local/env`).
pub fn gateway_env(port: u16) -> Result<BTreeMap<String, BTreeMap<String, String>>, BoxError> {
    let body = testkit::emulator::http_get(&format!("127.0.0.1:{port}"), "/_local/env").map_err(
        |e| format!("no local shop answers on port {port} ({e}): start it with `make run` (PORT={port})"),
    )?;
    Ok(serde_json::from_str(&body)?)
}

/// The function named `name`: its crate (`catalog`) or logical id (`CatalogFunction`).
pub fn function(name: &str) -> Result<&'static FunctionEntry, BoxError> {
    functions::find(name).ok_or_else(|| {
        let known: Vec<_> = functions::FUNCTIONS
            .iter()
            .map(|f| crate_name(f.logical_id))
            .collect();
        format!("no function {name:?}: one of {}", known.join(", ")).into()
    })
}

/// `CatalogFunction` -> `catalog`: the crate and the folder of its events.
pub fn crate_name(logical_id: &str) -> String {
    logical_id
        .strip_suffix("Function")
        .unwrap_or(logical_id)
        .to_ascii_lowercase()
}

/// `list-products` is `events/<function>/list-products.json`; a path to a file is taken as it is.
pub fn event_file(function: &FunctionEntry, event: &str) -> PathBuf {
    let given = PathBuf::from(event);
    if event.ends_with(".json") || event.contains('/') {
        return given;
    }
    repo_root()
        .join("events")
        .join(crate_name(function.logical_id))
        .join(format!("{event}.json"))
}

/// Fills an event's placeholders (events/README.md): each `NAME=value` of `set`, and `ADMIN_TOKEN` with a
/// token for the seeded admin signed with the auth function's key (`auth_vars`, its environment as the
/// gateway gives it: the key is read from the emulator's Secrets Manager), unless `set` gives one.
pub async fn fill_placeholders(
    event: &str,
    auth_vars: &BTreeMap<String, String>,
    set: &[(String, String)],
) -> Result<String, BoxError> {
    let mut pairs: Vec<(String, String)> = set.to_vec();
    // Longer names first: `OTHER_EMAIL` before `EMAIL`.
    pairs.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
    let mut event = event.to_owned();
    for (name, value) in &pairs {
        event = event.replace(name.as_str(), value);
    }
    if event.contains("ADMIN_TOKEN") {
        let sdk = sdk_for(auth_vars, "AuthFunction").await?;
        let resolved =
            shared::secrets::resolve(&shared::secrets::client(&sdk), auth_vars.clone()).await?;
        let token = AuthKeys::from_env(&resolved)?
            .issue(crate::seed::ADMIN_EMAIL, Role::Admin, 600)
            .map_err(|e| format!("cannot sign an admin token: {e:?}"))?;
        event = event.replace("ADMIN_TOKEN", &token);
    }
    Ok(event)
}

/// Hands `event` (an API Gateway HTTP API event, as JSON) to `function`'s router built from `vars`, and
/// answers the response as Lambda would return it to API Gateway; a scheduled function's event goes to its
/// handler, which answers what it did.
pub async fn invoke(
    function: &FunctionEntry,
    vars: &BTreeMap<String, String>,
    event: &str,
) -> Result<Value, BoxError> {
    let sdk = sdk_for(vars, function.logical_id).await?;
    let per_function = BTreeMap::from([(function.logical_id.to_owned(), vars.clone())]);
    let env = LocalEnv::from_vars(per_function, &sdk, LocalNames::new("invoke")).await?;
    if let Some(handle) = function.handle {
        // A scheduled function: its handler's answer, as Lambda returns it to EventBridge.
        return handle(&env, serde_json::from_str(event)?).await;
    }
    let router = shared::routes::with_json_fallbacks((function.mount)(&env)?);
    let request = lambda_http::request::from_str(event)
        .map_err(|e| format!("not an API Gateway HTTP API event: {e}"))?
        .map(|body| Body::from(body.to_vec()));
    let response = router.oneshot(request).await?;
    let status = response.status().as_u16();
    let headers: BTreeMap<String, String> = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let bytes = response.into_body().collect().await?.to_bytes();
    let (body, base64) = match std::str::from_utf8(&bytes) {
        Ok(text) => (text.to_owned(), false),
        Err(_) => (base64_encode(&bytes), true),
    };
    Ok(json!({"statusCode": status, "headers": headers, "body": body, "isBase64Encoded": base64}))
}

/// The AWS SDK settings a function's environment gives (the emulator's address, region and keys).
async fn sdk_for(
    vars: &BTreeMap<String, String>,
    logical_id: &str,
) -> Result<aws_config::SdkConfig, BoxError> {
    let var = |name: &str| {
        vars.get(name)
            .filter(|v| !v.is_empty())
            .cloned()
            .ok_or_else(|| format!("the gateway gave {} no {name}", logical_id))
    };
    let credentials = aws_sdk_dynamodb::config::Credentials::new(
        var("AWS_ACCESS_KEY_ID")?,
        var("AWS_SECRET_ACCESS_KEY")?,
        None,
        None,
        "local-gateway",
    );
    let sdk = shared::aws::defaults()
        .region(Region::new(var("AWS_REGION")?))
        .endpoint_url(var("AWS_ENDPOINT_URL")?)
        .credentials_provider(credentials)
        .load()
        .await;
    Ok(sdk)
}

fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What `make invoke` runs: the function, the event file, `NAME=value` placeholders and the shop's port.
pub async fn run(
    port: u16,
    name: &str,
    event: &str,
    set: &[(String, String)],
) -> Result<Value, BoxError> {
    let function = function(name)?;
    let file = event_file(function, event);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read the event {}: {e}", file.display()))?;
    let env = tokio::task::spawn_blocking(move || gateway_env(port)).await??;
    let vars = env
        .get(function.logical_id)
        .ok_or_else(|| format!("the gateway gives {} no environment", function.logical_id))?;
    let auth_vars = env.get("AuthFunction").cloned().unwrap_or_default();
    let event = fill_placeholders(&text, &auth_vars, set).await?;
    invoke(function, vars, &event).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_found_by_crate_or_logical_id() {
        assert_eq!(function("catalog").unwrap().logical_id, "CatalogFunction");
        assert_eq!(
            function("OrdersFunction").unwrap().logical_id,
            "OrdersFunction"
        );
        let unknown = function("nothing").err().unwrap().to_string();
        assert!(unknown.contains("catalog"), "{unknown}");
    }

    #[test]
    fn event_names_are_files_under_the_functions_folder() {
        let catalog = function("catalog").unwrap();
        assert!(event_file(catalog, "list-products").ends_with("events/catalog/list-products.json"));
        assert_eq!(
            event_file(catalog, "/tmp/x.json"),
            PathBuf::from("/tmp/x.json")
        );
    }

    #[tokio::test]
    async fn placeholders_are_filled_longest_name_first() {
        let set = [
            ("EMAIL".to_owned(), "a@example.com".to_owned()),
            ("OTHER_EMAIL".to_owned(), "b@example.com".to_owned()),
        ];
        let filled =
            fill_placeholders(r#"{"x":"EMAIL","y":"OTHER_EMAIL"}"#, &BTreeMap::new(), &set)
                .await
                .unwrap();
        assert_eq!(filled, r#"{"x":"a@example.com","y":"b@example.com"}"#);
    }

    #[test]
    fn binary_bodies_are_base64() {
        assert_eq!(base64_encode(b"\x89PNG"), "iVBORw==");
        assert_eq!(base64_encode(b"abc"), "YWJj");
    }
}
