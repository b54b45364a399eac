//! The whole API's OpenAPI document, read off every function's route table (shared::openapi), and the
//! local pages that show it: `/api/openapi.json` and `/_local/api.html` (Swagger UI from
//! tools/openapi/node_modules, never deployed). `make openapi` writes the same document to docs/openapi.json,
//! and the one-page map of routes (`routes_text`) to docs/routes.md.

use crate::functions::FUNCTIONS;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use shared::error::message_response;
use std::path::PathBuf;

pub const TITLE: &str = "Drinks shop API";
/// The committed copy, relative to the repository root.
pub const COMMITTED: &str = "docs/openapi.json";

/// A function's tag in the document: `CatalogFunction` is `catalog`.
fn tag(logical_id: &'static str) -> &'static str {
    logical_id.strip_suffix("Function").unwrap_or(logical_id)
}

/// The document, every function's routes merged.
pub fn document() -> Value {
    let functions: Vec<shared::openapi::Function> = FUNCTIONS
        .iter()
        .map(|entry| shared::openapi::Function {
            name: tag(entry.logical_id),
            routes: (entry.routes)(),
        })
        .filter(|function| !function.routes.is_empty())
        .collect();
    shared::openapi::document(TITLE, env!("CARGO_PKG_VERSION"), &functions)
}

/// The document as `make openapi` writes it: pretty, with a final newline, so diffs read well.
pub fn document_text() -> String {
    let mut text =
        serde_json::to_string_pretty(&document()).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// The committed map of routes, relative to the repository root.
pub const ROUTES_COMMITTED: &str = "docs/routes.md";

/// Who may call, in the words the map uses.
fn access(access: shared::openapi::Access) -> &'static str {
    match access {
        shared::openapi::Access::Public => "anyone",
        shared::openapi::Access::Customer => "signed in",
        shared::openapi::Access::Admin => "admin",
    }
}

/// A handler's name without its crate's inner path noise: `orders::checkout::create_order`.
fn handler_name(type_name: &str) -> String {
    // `std::any::type_name` of a fn item: the path, sometimes followed by generic arguments.
    type_name.split('<').next().unwrap_or(type_name).to_owned()
}

/// docs/routes.md: every route the functions serve, one line each (method, path, function, handler, who
/// may call), function by function in the order of the template, so a reader finds where a path is
/// handled without reading the routers.
pub fn routes_text() -> String {
    let mut text = String::from(
        "# Routes\n\nEvery route the shop's functions serve, read off their route tables (`make openapi` writes this \
         page; a test fails when it is stale). The shapes are in docs/openapi.json, the rules in docs/api.md.\n\n\
         | Method | Path | Function | Handler | Who may call |\n|---|---|---|---|---|\n",
    );
    for entry in FUNCTIONS {
        for route in (entry.routes)() {
            text.push_str(&format!(
                "| {} | `{}` | {} | `{}` | {} |\n",
                route.method,
                route.path,
                tag(entry.logical_id),
                handler_name(route.doc.handler),
                access(route.access),
            ));
        }
    }
    text
}

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("local/ sits in the repository")
        .to_path_buf()
}

/// Where Swagger UI is installed (`make run` installs tools/openapi).
fn swagger_ui_dir() -> PathBuf {
    repository_root().join("tools/openapi/node_modules/swagger-ui-dist")
}

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Drinks shop API (local)</title>
<link rel="stylesheet" href="/_local/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="/_local/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/_local/api.js"></script>
</body>
</html>
"#;

// In a file of its own: the shop's Content-Security-Policy allows no inline script, here as in AWS.
const START: &str = "window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#api', \
                     deepLinking: true, tryItOutEnabled: false });\n";

async fn swagger_file(Path(name): Path<String>) -> Response {
    let content_type = match name.as_str() {
        "swagger-ui.css" => "text/css; charset=utf-8",
        "swagger-ui-bundle.js" => "text/javascript; charset=utf-8",
        _ => return message_response(StatusCode::NOT_FOUND, "Not found"),
    };
    match tokio::fs::read(swagger_ui_dir().join(&name)).await {
        Ok(bytes) => ([(header::CONTENT_TYPE, content_type)], bytes).into_response(),
        Err(_) => message_response(
            StatusCode::SERVICE_UNAVAILABLE,
            "Swagger UI is not installed: run make run (or make openapi-tools)",
        ),
    }
}

/// `/api/openapi.json`, `/_local/api.html` and what the page loads.
pub fn routes() -> Router {
    let document = std::sync::Arc::new(document());
    Router::new()
        .route(
            "/api/openapi.json",
            get(move || async move { shared::Json(document.as_ref().clone()) }),
        )
        .route(
            "/_local/api.html",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE) }),
        )
        .route(
            "/_local/api.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    START,
                )
            }),
        )
        .route("/_local/swagger-ui/{name}", get(swagger_file))
}
