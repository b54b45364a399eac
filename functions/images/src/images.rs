//! The image routes. Every file is checked by its first bytes (the name and the declared type are not
//! trusted), stored as `uploads/{uuid}.{ext}` with its real content type, and only then attached.

use crate::AppState;
use aws_sdk_s3::primitives::ByteStream;
use axum::extract::multipart::{Multipart, MultipartError, MultipartRejection};
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use shared::auth::Admin;
use shared::extract::{Path, Query};
use shared::json::Created;
use shared::openapi::{BodyDoc, Doc, DocumentArg};
use shared::store::Appended;
use shared::validation::UploadName;
use shared::{ApiError, ApiResult, Json};
use std::borrow::Cow;
use std::marker::PhantomData;

/// One image at most 2 MB: a Lambda's request is at most 6 MB once base64-encoded by API Gateway.
pub const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;
/// A whole upload request (several images and the multipart framing).
pub const MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024 + 64 * 1024;
/// How many images one request may carry.
const MAX_FILES: usize = 4;
/// How many images an item may list.
const MAX_ON_ITEM: usize = 10;
const PREFIX: &str = "uploads/";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Webp,
    Gif,
}

impl ImageKind {
    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
            ImageKind::Webp => "webp",
            ImageKind::Gif => "gif",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Webp => "image/webp",
            ImageKind::Gif => "image/gif",
        }
    }
}

/// What the bytes are, by their signature; None for anything but the four accepted formats.
pub fn sniff(bytes: &[u8]) -> Option<ImageKind> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageKind::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageKind::Jpeg)
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(ImageKind::Webp)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(ImageKind::Gif)
    } else {
        None
    }
}

fn multipart_error(error: MultipartError) -> ApiError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("image: send at most {MAX_FILES} images of 2 MB each"),
        )
    } else {
        ApiError::bad_request(format!("image: the upload could not be read ({error})"))
    }
}

fn not_multipart(_: MultipartRejection) -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "Send the images as multipart/form-data in fields named image",
    )
}

/// The multipart body of an upload, as the handler reads it; `F` is the form's shape for the OpenAPI
/// document (`OneImage`, `SomeImages`).
pub struct ImageForm<F> {
    multipart: Result<Multipart, MultipartRejection>,
    form: PhantomData<F>,
}

impl<S: Send + Sync, F> FromRequest<S> for ImageForm<F> {
    type Rejection = std::convert::Infallible;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(ImageForm {
            multipart: Multipart::from_request(request, state).await,
            form: PhantomData,
        })
    }
}

impl<F: JsonSchema> DocumentArg for ImageForm<F> {
    fn document(doc: &mut Doc) {
        doc.body = Some(BodyDoc {
            media: "multipart/form-data",
            schema: shared::openapi::schema::<F>,
        });
        // Unreadable (400), too large (413), not multipart or not an image (415), empty or too many (422).
        doc.errors.extend([400, 413, 415, 422]);
    }
}

/// A file's bytes in a multipart form.
pub struct ImageFile;

impl JsonSchema for ImageFile {
    fn schema_name() -> Cow<'static, str> {
        "ImageFile".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "type": "string",
            "contentMediaType": "application/octet-stream",
            "description": "A PNG, JPEG, WebP or GIF image of at most 2 MB, told by its bytes."
        })
    }
}

/// One image, in a field named `image`; other fields are ignored.
#[derive(JsonSchema)]
#[allow(
    dead_code,
    reason = "a shape for the OpenAPI document: the handler reads the parts itself"
)]
pub struct OneImage {
    image: ImageFile,
}

/// One to four images, each in a field named `image`; other fields are ignored.
#[derive(JsonSchema)]
#[allow(
    dead_code,
    reason = "a shape for the OpenAPI document: the handler reads the parts itself"
)]
pub struct SomeImages {
    #[schemars(length(min = 1, max = 4))]
    image: Vec<ImageFile>,
}

/// A stored image's name, `{uuid}.{png|jpg|webp|gif}`, served at /uploads/{name}.
#[derive(Serialize, JsonSchema)]
#[serde(transparent)]
pub struct StoredName(#[schemars(regex(pattern = STORED_NAME_PATTERN))] String);

const STORED_NAME_PATTERN: &str =
    r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(png|jpg|webp|gif)$";

/// Every `image` field of the form, checked; other fields are ignored.
async fn read_images<F>(form: ImageForm<F>) -> Result<Vec<(ImageKind, Vec<u8>)>, ApiError> {
    let mut multipart = form.multipart.map_err(not_multipart)?;
    let mut files = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(multipart_error)? {
        if field.name() != Some("image") {
            continue;
        }
        let label = field.file_name().unwrap_or("the image").to_owned();
        let bytes = field.bytes().await.map_err(multipart_error)?;
        if bytes.is_empty() {
            return Err(ApiError::invalid(format!("image: {label} is empty")));
        }
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("image: {label} is over 2 MB"),
            ));
        }
        let kind = sniff(&bytes).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("image: {label} is not a PNG, JPEG, WebP or GIF image"),
            )
        })?;
        files.push((kind, bytes.to_vec()));
        if files.len() > MAX_FILES {
            return Err(ApiError::invalid(format!(
                "image: send at most {MAX_FILES} images at once"
            )));
        }
    }
    if files.is_empty() {
        return Err(ApiError::invalid("image: choose an image to upload"));
    }
    Ok(files)
}

async fn store(state: &AppState, files: Vec<(ImageKind, Vec<u8>)>) -> ApiResult<Vec<String>> {
    let mut names = Vec::with_capacity(files.len());
    for (kind, bytes) in files {
        let name = format!("{}.{}", uuid::Uuid::new_v4(), kind.extension());
        let put = state
            .s3
            .put_object()
            .bucket(&*state.bucket)
            .key(format!("{PREFIX}{name}"))
            .content_type(kind.content_type())
            .cache_control("public, max-age=31536000, immutable")
            .body(ByteStream::from(bytes))
            .send()
            .await;
        if let Err(error) = put {
            remove(state, &names).await;
            return Err(ApiError::internal(error));
        }
        names.push(name);
    }
    Ok(names)
}

/// Best effort: objects of a request that failed half-way.
async fn remove(state: &AppState, names: &[String]) {
    for name in names {
        let deleted = state
            .s3
            .delete_object()
            .bucket(&*state.bucket)
            .key(format!("{PREFIX}{name}"))
            .send()
            .await;
        if let Err(error) = deleted {
            tracing::warn!(%name, ?error, "could not remove an orphaned upload");
        }
    }
}

/// `POST /api/uploading/`: one image; answers its stored name as a JSON string.
pub async fn upload_one(
    _: Admin,
    State(state): State<AppState>,
    form: ImageForm<OneImage>,
) -> ApiResult<Created<StoredName>> {
    let files = read_images(form).await?;
    if files.len() > 1 {
        return Err(ApiError::invalid(
            "image: this takes one image; use /api/new/ for several",
        ));
    }
    let mut names = store(&state, files).await?;
    Ok(Created(StoredName(names.remove(0))))
}

/// `?mode=N&id=ID`: where the uploaded names go.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct AttachQuery {
    /// 8 site info, 10 link entry, 12 category, 14 drink (each appends to the item's `image` list, at most
    /// 10 names), 22 the gallery only.
    #[schemars(required, regex(pattern = r"^\s*(8|10|12|14|22)\s*$"))]
    mode: Option<String>,
    /// The item's `_id`: required for modes 10, 12 and 14; `main` when left out for mode 8; ignored for 22.
    // Neither changes how an `Option` is read: they let the document say optional, without `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = 64))]
    id: Option<String>,
}

/// Where the spec's numeric modes put the names: an item of the catalogue or of the content, appended to by
/// its owner (`catalog::store`, `content::store`), or the gallery only.
enum Target {
    Catalog(catalog::store::Pictured),
    Content(content::store::Pictured),
    Gallery,
}

impl Target {
    /// What the item is called in a 404.
    fn noun(&self) -> &'static str {
        use catalog::store::Pictured as C;
        use content::store::Pictured as S;
        match self {
            Target::Catalog(C::Drink) => "product",
            Target::Catalog(C::Category) => "category",
            Target::Content(S::Site) => "site",
            Target::Content(S::Link) => "link",
            Target::Gallery => "image",
        }
    }
}

fn target(mode: Option<&str>) -> ApiResult<Target> {
    use catalog::store::Pictured as C;
    use content::store::Pictured as S;
    match mode.map(str::trim) {
        Some("8") => Ok(Target::Content(S::Site)),
        Some("10") => Ok(Target::Content(S::Link)),
        Some("12") => Ok(Target::Catalog(C::Category)),
        Some("14") => Ok(Target::Catalog(C::Drink)),
        Some("22") => Ok(Target::Gallery),
        Some("20") => Err(ApiError::invalid(
            "mode 20: image upload for reviews is temporarily disabled",
        )),
        _ => Err(ApiError::invalid(
            "mode must be 8 (site info), 10 (link entry), 12 (category), 14 (drink) or 22 (gallery)",
        )),
    }
}

/// `POST /api/new/?mode=N&id=ID`: stores the images and appends their names to the item's `image` list
/// (mode 22: the gallery only). Answers the names. An unknown item, or a list that would pass 10 images,
/// stores nothing.
pub async fn upload_and_attach(
    _: Admin,
    State(state): State<AppState>,
    Query(query): Query<AttachQuery>,
    form: ImageForm<SomeImages>,
) -> ApiResult<Created<Vec<StoredName>>> {
    let target = target(query.mode.as_deref())?;
    let id = match (&target, query.id.as_deref().map(str::trim)) {
        (Target::Content(content::store::Pictured::Site), None | Some("")) => {
            Some(content::SITE_ID.to_owned())
        }
        (Target::Gallery, _) => None,
        // Characters, as the document's maxLength counts them.
        (_, Some(id)) if !id.is_empty() && id.chars().count() <= 64 => Some(id.to_owned()),
        (_, _) => return Err(ApiError::invalid("id: name the item to attach to")),
    };
    let files = read_images(form).await?;
    let names = store(&state, files).await?;
    let Some(id) = id else {
        return Ok(Created(names.into_iter().map(StoredName).collect()));
    };
    let appended = match &target {
        Target::Catalog(what) => {
            catalog::store::attach_images(
                &state.db,
                &state.catalog_table,
                *what,
                &id,
                &names,
                MAX_ON_ITEM,
            )
            .await
        }
        Target::Content(what) => {
            content::store::attach_images(
                &state.db,
                &state.content_table,
                *what,
                &id,
                &names,
                MAX_ON_ITEM,
            )
            .await
        }
        // No id: answered above.
        Target::Gallery => Ok(Appended::Done),
    };
    let refusal = match appended {
        Ok(Appended::Done) => {
            return Ok(Created(names.into_iter().map(StoredName).collect()));
        }
        Ok(Appended::Full) => ApiError::invalid(format!(
            "image: an item holds at most {MAX_ON_ITEM} images; delete some first"
        )),
        Ok(Appended::Missing) => {
            ApiError::not_found(format!("No {} has the id {id}", target.noun()))
        }
        Err(error) => error,
    };
    remove(&state, &names).await;
    Err(refusal)
}

/// `GET /api/uploading/sh/`: every stored image's name, newest first.
pub async fn list_images(_: Admin, State(state): State<AppState>) -> ApiResult<Json<Vec<String>>> {
    let mut found = Vec::new();
    let mut pages = state
        .s3
        .list_objects_v2()
        .bucket(&*state.bucket)
        .prefix(PREFIX)
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(ApiError::internal)?;
        for object in page.contents() {
            if let Some(name) = object.key().and_then(|key| key.strip_prefix(PREFIX)) {
                let modified = object.last_modified().map(|t| t.secs()).unwrap_or_default();
                found.push((modified, name.to_owned()));
            }
        }
    }
    found.sort_by(|a, b| b.cmp(a));
    Ok(Json(found.into_iter().map(|(_, name)| name).collect()))
}

async fn delete_one(state: &AppState, raw: &str) -> ApiResult<String> {
    let name = UploadName::parse(raw)?;
    let key = format!("{PREFIX}{}", name.as_str());
    let head = state
        .s3
        .head_object()
        .bucket(&*state.bucket)
        .key(&key)
        .send()
        .await;
    if let Err(error) = head {
        return Err(
            if error.as_service_error().is_some_and(|e| e.is_not_found()) {
                ApiError::not_found(format!("No image is named {}", name.as_str()))
            } else {
                ApiError::internal(error)
            },
        );
    }
    state
        .s3
        .delete_object()
        .bucket(&*state.bucket)
        .key(&key)
        .send()
        .await
        .map_err(ApiError::internal)?;
    Ok(name.as_str().to_owned())
}

/// Which images were deleted.
#[derive(Serialize, JsonSchema)]
pub struct Deleted {
    message: String,
    deleted: Vec<String>,
}

/// `DELETE /api/delete/image/{name}`. The items that list the name keep it until their screen saves them
/// without it (the spec's flow: delete, then update the category or drink).
pub async fn delete_image(
    _: Admin,
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<Deleted>> {
    let name = delete_one(&state, &name).await?;
    Ok(Json(Deleted {
        message: format!("{name} is deleted"),
        deleted: vec![name],
    }))
}

/// The images to delete, by name.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DeleteList {
    #[schemars(with = "Vec<UploadName>", length(min = 1, max = 50))]
    images: Vec<String>,
}

/// `POST /api/delete/array/` `{images: [names]}`: checks every name first, then deletes those stored
/// (a name already gone is not an error here: the caller wants it gone).
pub async fn delete_images(
    _: Admin,
    State(state): State<AppState>,
    Json(list): Json<DeleteList>,
) -> ApiResult<Json<Deleted>> {
    if list.images.is_empty() || list.images.len() > 50 {
        return Err(ApiError::invalid("images: list 1 to 50 image names"));
    }
    UploadName::parse_all(&list.images)?;
    let mut deleted = Vec::new();
    for name in &list.images {
        match delete_one(&state, name).await {
            Ok(name) => deleted.push(name),
            Err(error) if error.status() == StatusCode::NOT_FOUND => {}
            Err(error) => return Err(error),
        }
    }
    Ok(Json(Deleted {
        message: format!("{} images deleted", deleted.len()),
        deleted,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_the_four_formats_by_their_bytes_only() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n rest"), Some(ImageKind::Png));
        assert_eq!(
            sniff(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]),
            Some(ImageKind::Jpeg)
        );
        assert_eq!(
            sniff(b"RIFF\x10\x00\x00\x00WEBPVP8 "),
            Some(ImageKind::Webp)
        );
        assert_eq!(sniff(b"GIF89a...."), Some(ImageKind::Gif));
        assert_eq!(sniff(b"<svg xmlns="), None);
        assert_eq!(sniff(b"RIFF\x10\x00\x00\x00WAVEfmt "), None);
        assert_eq!(sniff(b""), None);
    }
}
