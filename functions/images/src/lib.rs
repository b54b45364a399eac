//! Images: admins upload PNG, JPEG, WebP or GIF files (checked by their bytes, at most 2 MB each), which are
//! stored in S3 under server-made names and served at /uploads/{name}. An upload can be attached at once to
//! what shows it (the spec's modes: site info, a link entry, a category, a drink) by appending the names to
//! that item's `image` list through the table's owner (`catalog::store`, `content::store`): one conditional
//! UpdateItem (the item must exist and have room), which moves the item's version like every write. Admins
//! list and delete images too.

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
        .summary("Stores one image; answers its name")
        .post("/api/new/", Admin, images::upload_and_attach)
        .summary("Stores up to four images and appends their names to an item's `image` list")
        .fails(&[404])
        .get("/api/uploading/sh/", Admin, images::list_images)
        .summary("Every stored image's name, newest first")
        .delete("/api/delete/image/{name}", Admin, images::delete_image)
        .summary("Deletes a stored image")
        .path_pattern("name", shared::validation::UPLOAD_NAME_PATTERN)
        .fails(&[422])
        .post("/api/delete/array/", Admin, images::delete_images)
        .summary("Deletes stored images by name (names already gone are skipped)")
}

/// The services this function's clients are for: its Lambda builds them while its settings are read.
pub const CLIENTS: &[shared::clients::Service] = &[
    shared::clients::Service::DynamoDb,
    shared::clients::Service::S3,
];

/// The function as its Lambda (`main.rs`) and the local gateway both build it: its configuration read
/// from `env`, its state from the clients it uses, and its router.
pub fn build(
    env: &impl shared::config::Lookup,
    clients: &shared::clients::Clients,
) -> Result<axum::Router, shared::config::ConfigError> {
    let config = Config::from_env(env)?;
    Ok(router(AppState::new(
        config,
        clients.dynamodb(),
        clients.s3(),
    )))
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

#[cfg(test)]
mod tests {
    use serde_json::Value;

    fn document() -> Value {
        shared::openapi::function_document("images", super::routes())
    }

    #[test]
    fn uploads_are_multipart_forms_of_files() {
        let document = document();
        for (path, form) in [("/api/uploading/", "OneImage"), ("/api/new/", "SomeImages")] {
            let upload = &document["paths"][path]["post"];
            assert_eq!(
                upload["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"],
                format!("#/components/schemas/{form}").as_str(),
                "{path}"
            );
            for status in ["201", "400", "401", "403", "413", "415", "422"] {
                assert!(upload["responses"][status].is_object(), "{path} {status}");
            }
        }
        let file = &document["components"]["schemas"]["ImageFile"];
        assert_eq!(file["contentMediaType"], "application/octet-stream");
        let attach = &document["paths"]["/api/new/"]["post"];
        let mode = attach["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|parameter| parameter["name"] == "mode")
            .unwrap();
        assert_eq!(mode["required"], true);
        assert!(attach["responses"]["404"].is_object());
    }
}
