//! Images: admins upload PNG, JPEG, WebP or GIF files (checked by their bytes, at most 2 MB each), which are
//! stored in S3 under server-made names and served at /uploads/{name}. An upload can be attached at once to
//! what shows it (the spec's modes: site info, a link entry, a category, a drink) by appending the names to
//! that item's `image` list in its owner's table: one conditional UpdateItem (the item must exist and have
//! room), which moves the item's version like every write. Admins list and delete images too.

mod images;

use axum::extract::{DefaultBodyLimit, FromRef};
use shared::auth::{Auth, AuthConfig};
use shared::config::{required, ConfigError, Lookup};
use shared::routes::{Access, ApiRoutes, RouteSpec};
use std::sync::Arc;

pub use images::{sniff, ImageKind, MAX_IMAGE_BYTES, MAX_REQUEST_BYTES};

pub struct Config {
    pub bucket: String,
    pub catalog_table: String,
    pub content_table: String,
    pub auth: AuthConfig,
}

impl Config {
    /// `IMAGES_BUCKET`, the tables images are attached in (`CATALOG_TABLE`, `CONTENT_TABLE`), and auth.
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(Config {
            bucket: required(env, "IMAGES_BUCKET")?,
            catalog_table: required(env, "CATALOG_TABLE")?,
            content_table: required(env, "CONTENT_TABLE")?,
            auth: AuthConfig::from_env(env)?,
        })
    }
}

#[derive(Clone)]
pub struct AppState {
    pub s3: aws_sdk_s3::Client,
    pub db: aws_sdk_dynamodb::Client,
    pub bucket: Arc<str>,
    pub catalog_table: Arc<str>,
    pub content_table: Arc<str>,
    pub auth: Arc<Auth>,
}

impl AppState {
    pub fn new(config: Config, dynamodb: aws_sdk_dynamodb::Client, s3: aws_sdk_s3::Client) -> Self {
        AppState {
            s3,
            db: dynamodb.clone(),
            bucket: config.bucket.into(),
            catalog_table: config.catalog_table.into(),
            content_table: config.content_table.into(),
            auth: config.auth.into_auth(dynamodb),
        }
    }
}

impl FromRef<AppState> for Arc<Auth> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

fn api() -> ApiRoutes<AppState> {
    use Access::Admin;
    ApiRoutes::new()
        .post("/api/uploading/", Admin, images::upload_one)
        .post("/api/new/", Admin, images::upload_and_attach)
        .get("/api/uploading/sh/", Admin, images::list_images)
        .delete("/api/delete/image/{name}", Admin, images::delete_image)
        .post("/api/delete/array/", Admin, images::delete_images)
}

/// Every route this function serves, as template.yaml must declare them.
pub fn routes() -> Vec<RouteSpec> {
    api().specs().to_vec()
}

pub fn router(state: AppState) -> axum::Router {
    api()
        .into_router()
        .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        .with_state(state)
}
