//! What the gateway serves beside the API: images from the bucket, the built storefront with its
//! client-side routes, and the local outbox. Unknown `/api/*` paths answer JSON, never the app.

use crate::outbox::{self, Outbox};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use shared::error::message_response;
use shared::validation::UploadName;
use std::path::PathBuf;
use std::sync::Arc;
use testkit::emulator::Emulator;

/// The built storefront a gateway serves (`frontend/dist`, a link to the newest build) and the folder its
/// prerendered pages are kept in, its own: never the build, which other shops may serve too.
#[derive(Clone, Debug)]
pub struct Storefront {
    pub dist: PathBuf,
    pub pages: PathBuf,
}

impl From<PathBuf> for Storefront {
    /// A build of one's own (a test's, a benchmark's): its pages may go into it.
    fn from(dist: PathBuf) -> Self {
        Storefront {
            pages: dist.clone(),
            dist,
        }
    }
}

impl Storefront {
    /// Whether the prerendered pages were made for the build now served: a page names the build's scripts
    /// and styles, which a newer build no longer has. frontend/scripts/build.sh writes a build's id into
    /// `.build-id`, prerender-pages.mjs copies it beside the pages it writes.
    pub async fn pages_fit(&self) -> bool {
        self.pages == self.dist || build_id(&self.pages).await == build_id(&self.dist).await
    }
}

/// The id in a folder's `.build-id`, if any.
pub async fn build_id(folder: &std::path::Path) -> Option<String> {
    let text = tokio::fs::read_to_string(folder.join(".build-id"))
        .await
        .ok()?;
    Some(text.trim().to_owned())
}

#[derive(Clone)]
pub struct SiteState {
    pub s3: Arc<aws_sdk_s3::Client>,
    pub images_bucket: String,
    pub storefront: Storefront,
    pub emulator: Emulator,
    /// What CloudFront's response headers policy adds (template.yaml), added here to every response.
    pub security_headers: Vec<(String, String)>,
    /// The catalogue, asked whether a drink page's drink exists.
    pub catalog: (aws_sdk_dynamodb::Client, String),
}

#[derive(Clone)]
struct AppState {
    site: SiteState,
    outbox: Arc<Outbox>,
}

pub fn app(api: Router, site: SiteState) -> Router {
    let headers: Vec<(header::HeaderName, HeaderValue)> = site
        .security_headers
        .iter()
        .filter_map(|(name, value)| Some((name.parse().ok()?, HeaderValue::from_str(value).ok()?)))
        .collect();
    let state = AppState {
        outbox: Arc::new(Outbox::new(site.emulator.clone())),
        site,
    };
    let local = Router::new()
        .route("/uploads/{name}", get(show_upload))
        .route("/_local/outbox", get(outbox::list_json))
        .route("/_local/outbox.html", get(outbox::list_html))
        .fallback(serve_frontend)
        .with_state(state);
    api.merge(local)
        .method_not_allowed_fallback(|| async {
            message_response(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
        })
        // Images are compressed already; text, scripts, styles and JSON are gzipped as CloudFront would.
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
        .layer(axum::middleware::map_response(
            move |mut response: Response| {
                let headers = headers.clone();
                async move {
                    for (name, value) in headers {
                        response.headers_mut().insert(name, value);
                    }
                    response
                }
            },
        ))
}

impl axum::extract::FromRef<AppState> for Arc<Outbox> {
    fn from_ref(state: &AppState) -> Self {
        state.outbox.clone()
    }
}

/// An uploaded image, with the content type it was stored with.
async fn show_upload(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    let Ok(name) = UploadName::parse(&name) else {
        return message_response(StatusCode::NOT_FOUND, "No such image");
    };
    let object = state
        .site
        .s3
        .get_object()
        .bucket(&state.site.images_bucket)
        .key(format!("uploads/{}", name.as_str()))
        .send()
        .await;
    let Ok(object) = object else {
        return message_response(StatusCode::NOT_FOUND, "No such image");
    };
    let content_type = object
        .content_type()
        .map(str::to_owned)
        .unwrap_or_else(|| content_type_for(name.as_str()).to_owned());
    match object.body.collect().await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, content_type),
                (header::CACHE_CONTROL, "public, max-age=86400".to_owned()),
            ],
            bytes.into_bytes(),
        )
            .into_response(),
        Err(error) => shared::ApiError::internal(error).into_response(),
    }
}

fn content_type_for(path: &str) -> &'static str {
    match path
        .rsplit('.')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .as_str()
    {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "webmanifest" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Files of the built app, but none below a dot folder (`.vite/`, `.prerender/`: what the build keeps for
/// itself) nor a dot file; a path the storefront has a page for (app/knownPaths.json) gets its prerendered
/// copy when its rule is prerendered, the copy exists (frontend/scripts/prerender-pages.mjs writes them
/// into the pages' folder) and was made for the build served, else index.html, so client-side routes work
/// on reload; a drink page whose drink is not in the catalogue gets the app with status 404; any other path
/// gets the 404 page with status 404, as CloudFront answers (template.yaml). A missing file with an
/// extension (an old script chunk) is a plain 404.
async fn serve_frontend(State(state): State<AppState>, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return message_response(StatusCode::NOT_FOUND, "Not found");
    }
    let relative = path.trim_start_matches('/');
    if relative
        .split('/')
        .any(|part| part.starts_with('.') || part.contains('\\'))
    {
        return message_response(StatusCode::NOT_FOUND, "Not found");
    }
    if !relative.is_empty() {
        let file = state.site.storefront.dist.join(relative);
        if let Ok(bytes) = tokio::fs::read(&file).await {
            let cache = if relative.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            let status = if relative == NOT_FOUND_PAGE || relative == APP_NOT_FOUND {
                StatusCode::NOT_FOUND
            } else {
                StatusCode::OK
            };
            return (
                status,
                file_response(content_type_for(relative), cache, bytes),
            )
                .into_response();
        }
        let last = relative.rsplit('/').next().unwrap_or("");
        if last.contains('.') {
            return (StatusCode::NOT_FOUND, "Not found").into_response();
        }
    }
    if crate::known_paths::is_known(path) {
        if let Some(id) = crate::known_paths::drink_id(path) {
            // A drink that is not in the catalogue: the app says "Drink not found", with status 404. A
            // catalogue that cannot answer serves the page (the app then asks it again).
            let (db, table) = &state.site.catalog;
            if let Ok(false) = catalog::store::drink_exists(db, table, &id).await {
                return page(&state, "index.html", StatusCode::NOT_FOUND).await;
            }
        }
        let path_and_query = uri.path_and_query().map_or(path, |whole| whole.as_str());
        let copy = crate::known_paths::prerendered_file(path_and_query);
        if let (Some(file), true) = (copy, state.site.storefront.pages_fit().await) {
            if let Ok(bytes) = tokio::fs::read(state.site.storefront.pages.join(file)).await {
                return (
                    StatusCode::OK,
                    file_response("text/html; charset=utf-8", "no-cache", bytes),
                )
                    .into_response();
            }
        }
        return page(&state, "index.html", StatusCode::OK).await;
    }
    page(&state, NOT_FOUND_PAGE, StatusCode::NOT_FOUND).await
}

/// The page the build writes for unknown paths (frontend/scripts/prerender.mjs).
const NOT_FOUND_PAGE: &str = "404.html";
/// The app under the name CloudFront serves with status 404 for unknown drinks (the same file does here).
const APP_NOT_FOUND: &str = "app-404.html";

/// One of the build's HTML pages; a build without a 404 page answers unknown paths with the app itself
/// (which shows its own 404 page), still with status 404.
async fn page(state: &AppState, name: &str, status: StatusCode) -> Response {
    let dist = &state.site.storefront.dist;
    let bytes = match tokio::fs::read(dist.join(name)).await {
        Ok(bytes) => Ok(bytes),
        Err(_) => tokio::fs::read(dist.join("index.html")).await,
    };
    match bytes {
        Ok(bytes) => (
            status,
            file_response("text/html; charset=utf-8", "no-cache", bytes),
        )
            .into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The storefront is not built yet: run `make frontend` (or `make run`).",
        )
            .into_response(),
    }
}

fn file_response(content_type: &'static str, cache: &'static str, bytes: Vec<u8>) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}
