//! `spawn_app`: the images router on its own bucket and tables, with an admin signed in; the catalog
//! and content routers on the same tables, to make the items images are attached to and read them back.

use axum::body::Body;
use http::{Method, Request};
use serde_json::Value;
use testkit::{Client, Harness, Reply};
const BOUNDARY: &str = "----drinks-test-boundary-7MA4YWxkTrZu0gW";

pub struct TestApp {
    pub client: Client,
    pub catalog: Client,
    pub content: Client,
    pub admin: String,
    pub customer: String,
    pub s3: aws_sdk_s3::Client,
    pub bucket: String,
}

pub async fn spawn_app() -> TestApp {
    let harness = Harness::new(
        "ImagesFunction",
        &[],
        &["CatalogTable", "ContentTable", "UsersTable"],
    )
    .await;
    let config = images::Config::from_env(&harness.lookup()).expect("images config");
    let bucket = config.bucket.clone();
    let s3 = shared::aws::s3(&harness.sdk);
    testkit::emulator::create_bucket(&harness.sdk, &bucket)
        .await
        .expect("bucket");
    let db = shared::aws::dynamodb(&harness.sdk);
    let state = images::AppState::new(config, db.clone(), s3.clone());
    let signed_in = harness.sign_in(&state.auth.users).await;
    let catalog_state = catalog::AppState::new(
        catalog::Config::without_alerts(&harness.lookup()).expect("catalog config"),
        db.clone(),
        shared::aws::sqs(&harness.sdk),
    );
    // The content function also needs the shop's address, which the images function does not read.
    let lookup = harness.lookup();
    let content_env = |name: &str| match name {
        "SITE_URL" => Some(testkit::SITE_URL.to_owned()),
        _ => shared::config::Lookup::get(&lookup, name),
    };
    let content_state = content::AppState::new(
        content::Config::from_env(&content_env).expect("content config"),
        db.clone(),
        shared::aws::ses(&harness.sdk),
    );
    TestApp {
        client: Client::new(images::router(state)),
        catalog: Client::new(catalog::router(catalog_state)),
        content: Client::new(content::router(content_state)),
        admin: signed_in.admin,
        customer: signed_in.customer,
        s3,
        bucket,
    }
}

/// A real (tiny) PNG: the signature and an IHDR chunk are all the sniffing looks at.
pub fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0".to_vec();
    bytes.extend_from_slice(&[0x1f, 0x15, 0xc4, 0x89]);
    bytes
}

pub fn jpeg() -> Vec<u8> {
    vec![
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F', 0x00,
    ]
}

/// A multipart/form-data body with one part per (field, file name, bytes).
pub fn form(parts: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (field, file, bytes) in parts {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

impl TestApp {
    pub async fn upload(&self, uri: &str, body: Vec<u8>) -> Reply {
        self.upload_as(uri, body, Some(&self.admin)).await
    }

    pub async fn upload_as(&self, uri: &str, body: Vec<u8>, token: Option<&str>) -> Reply {
        let mut request = Request::builder().method(Method::POST).uri(uri).header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        );
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        self.client
            .send(request.body(Body::from(body)).unwrap())
            .await
    }

    pub async fn admin(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        self.client.call(method, uri, Some(&self.admin), body).await
    }

    /// Every image name the function lists.
    pub async fn names(&self) -> Vec<String> {
        let reply = self.admin(Method::GET, "/api/uploading/sh/", None).await;
        assert_eq!(reply.status, http::StatusCode::OK, "{}", reply.body);
        serde_json::from_value(reply.body).unwrap()
    }

    /// The stored object's content type, or None when there is no such object.
    pub async fn stored_type(&self, name: &str) -> Option<String> {
        let head = self
            .s3
            .head_object()
            .bucket(&self.bucket)
            .key(format!("uploads/{name}"))
            .send()
            .await
            .ok()?;
        head.content_type().map(str::to_owned)
    }

    /// A drink made through the catalogue's own API.
    pub async fn drink(&self) -> Value {
        let reply = self
            .catalog
            .call(
                Method::POST,
                "/api/product/create/",
                Some(&self.admin),
                Some(serde_json::json!({"name": "Mango Fizz", "price": 4.5, "qty": "6 x 330ml"})),
            )
            .await;
        assert_eq!(reply.status, http::StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    pub async fn product(&self, id: &str) -> Value {
        self.catalog
            .call(Method::GET, &format!("/api/product/{id}"), None, None)
            .await
            .body
    }
}
