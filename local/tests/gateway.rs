//! The local gateway as a newcomer meets it: template and routers in step, the seeded shop, images,
//! the storefront's client-side routes, JSON for unknown API paths, and the outbox.

use axum::body::Body;
use axum::Router;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use shared::emulator::{Emulator, LocalNames, Template};
use std::collections::BTreeSet;
use tower::ServiceExt;

/// The gateway's own address, from which the shop builds its absolute links.
const SITE: &str = "http://127.0.0.1:3999";

struct Reply {
    status: StatusCode,
    content_type: String,
    bytes: Vec<u8>,
}

impl Reply {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.bytes)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.bytes)))
    }
}

async fn send(router: &Router, method: Method, uri: &str) -> Reply {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Reply {
        status,
        content_type,
        bytes,
    }
}

/// A gateway on its own tables and bucket, serving a small fake build of the storefront.
async fn spawn_gateway() -> (local::Gateway, tempdir::Dir) {
    let dist = tempdir::Dir::new();
    std::fs::create_dir_all(dist.path().join("assets")).unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html><title>shop</title>",
    )
    .unwrap();
    std::fs::write(
        dist.path().join("assets/app-1234.js"),
        "console.log('shop')",
    )
    .unwrap();
    let gateway = local::build(
        Emulator::for_tests(),
        &LocalNames::unique(),
        dist.path().to_path_buf(),
        SITE,
    )
    .await
    .expect("the gateway builds");
    (gateway, dist)
}

mod tempdir {
    /// A temporary folder removed on drop.
    pub struct Dir(std::path::PathBuf);

    impl Dir {
        pub fn new() -> Self {
            let path = std::env::temp_dir().join(format!("gateway-{}", uuid::Uuid::new_v4()));
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }

        pub fn path(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn normalise(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_owned()
    } else {
        trimmed.to_owned()
    }
}

#[test]
fn template_and_routers_declare_the_same_routes() {
    let template = Template::load_default().unwrap();
    let declared_functions: BTreeSet<String> = template
        .functions()
        .into_iter()
        .map(|f| f.logical_id)
        .collect();
    let mounted_functions: BTreeSet<String> = local::functions::FUNCTIONS
        .iter()
        .map(|f| f.logical_id.to_owned())
        .collect();
    assert_eq!(
        declared_functions, mounted_functions,
        "template.yaml functions vs the gateway's registry"
    );
    for entry in local::functions::FUNCTIONS {
        let function = template.function(entry.logical_id).unwrap();
        let declared: BTreeSet<(String, String)> = function
            .events
            .iter()
            .map(|e| (e.method.clone(), normalise(&e.path)))
            .collect();
        let served: BTreeSet<(String, String)> = (entry.routes)()
            .iter()
            .map(|r| (r.method.to_string(), normalise(r.path)))
            .collect();
        let undeclared: Vec<_> = served.difference(&declared).collect();
        let unserved: Vec<_> = declared.difference(&served).collect();
        assert!(
            undeclared.is_empty(),
            "{} serves routes template.yaml does not declare: {undeclared:?}",
            entry.logical_id
        );
        assert!(
            unserved.is_empty(),
            "{} declares routes its router does not serve: {unserved:?}",
            entry.logical_id
        );
    }
}

#[tokio::test]
async fn every_declared_route_reaches_a_handler() {
    let (gateway, _dist) = spawn_gateway().await;
    let template = Template::load_default().unwrap();
    for function in template.functions() {
        for event in function.events {
            let uri = event
                .path
                .replace("{_id}", "00000000-0000-4000-8000-000000000000")
                .replace("{id}", "x1");
            let method = Method::from_bytes(event.method.as_bytes()).unwrap();
            let reply = send(&gateway.router, method, &uri).await;
            let fell_through = reply.status == StatusCode::METHOD_NOT_ALLOWED
                || (reply.status == StatusCode::NOT_FOUND
                    && reply.json()["message"] == "Not found");
            assert!(
                !fell_through,
                "{} {uri} is declared but not served",
                event.method
            );
        }
    }
}

#[tokio::test]
async fn the_demo_shop_is_seeded_with_pictures() {
    let (gateway, _dist) = spawn_gateway().await;
    let products = send(&gateway.router, Method::GET, "/api/product/")
        .await
        .json();
    let products = products.as_array().unwrap();
    assert!(products.len() >= 6);
    let categories = send(&gateway.router, Method::GET, "/api/category/")
        .await
        .json();
    assert!(categories.as_array().unwrap().len() >= 2);
    for product in products {
        let image = product["image"][0].as_str().unwrap();
        let reply = send(&gateway.router, Method::GET, &format!("/uploads/{image}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{image}");
        assert_eq!(reply.content_type, "image/png");
        assert_eq!(&reply.bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    // A few reviews through the reviews API: counted in the summary, and no reviewer's e-mail shown.
    let reviews = send(&gateway.router, Method::GET, "/api/home/uk/review/")
        .await
        .json();
    assert!(reviews["Thecount"].as_u64().unwrap() >= 4, "{reviews}");
    assert_eq!(reviews["ratings"]["totalComments"], reviews["Thecount"]);
    assert_eq!(reviews["connect"]["_id"], "main");
    let listed = reviews["comment"]["product"].as_array().unwrap();
    assert_eq!(listed.len() as u64, reviews["Thecount"].as_u64().unwrap());
    assert!(listed.iter().all(|r| r.get("email").is_none()));
    assert!(!reviews["comment"].to_string().contains("@example.com"));
    let missing = send(&gateway.router, Method::GET, "/uploads/nothing.png").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let admin = gateway
        .env
        .dynamodb
        .get_item()
        .table_name(gateway.env.names.table("UsersTable"))
        .key("pk", shared::dynamo::s("USER#admin@example.com"))
        .key("sk", shared::dynamo::s("USER"))
        .send()
        .await
        .unwrap();
    assert_eq!(admin.item().unwrap()["role"].as_s().unwrap(), "admin");
}

#[tokio::test]
async fn seeding_twice_adds_nothing() {
    let emulator = Emulator::for_tests();
    let names = LocalNames::unique();
    let dist = tempdir::Dir::new();
    local::build(emulator, &names, dist.path().to_path_buf(), SITE)
        .await
        .unwrap();
    let again = local::build(emulator, &names, dist.path().to_path_buf(), SITE)
        .await
        .unwrap();
    let products = send(&again.router, Method::GET, "/api/product/")
        .await
        .json();
    assert_eq!(products.as_array().unwrap().len(), 7);
}

#[tokio::test]
async fn the_storefront_gets_client_routes_and_the_api_gets_json() {
    let (gateway, _dist) = spawn_gateway().await;
    for path in [
        "/",
        "/shop/drinks/",
        "/drinks/abc?x=1",
        "/new/uk/products",
        "/no/such/page",
    ] {
        let reply = send(&gateway.router, Method::GET, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(reply.content_type.starts_with("text/html"), "{path}");
    }
    let script = send(&gateway.router, Method::GET, "/assets/app-1234.js").await;
    assert_eq!(script.status, StatusCode::OK);
    assert!(script.content_type.starts_with("text/javascript"));
    let old_chunk = send(&gateway.router, Method::GET, "/assets/app-old.js").await;
    assert_eq!(old_chunk.status, StatusCode::NOT_FOUND);
    let escape = send(&gateway.router, Method::GET, "/../Cargo.toml").await;
    assert!(escape.content_type.starts_with("text/html") || escape.status == StatusCode::NOT_FOUND);
    let unknown = send(&gateway.router, Method::GET, "/api/no/such/thing").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json(), serde_json::json!({"message": "Not found"}));
    let wrong_method = send(&gateway.router, Method::PATCH, "/api/product/").await;
    assert_eq!(wrong_method.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong_method.json()["message"], "Method not allowed");
}

#[tokio::test]
async fn the_outbox_lists_mail_sent_through_the_emulator() {
    let (gateway, _dist) = spawn_gateway().await;
    let recipient = format!("{}@example.com", uuid::Uuid::new_v4().simple());
    use aws_sdk_sesv2::types::{Body as MailBody, Content, Destination, EmailContent, Message};
    let text = |t: &str| Content::builder().data(t).build().unwrap();
    gateway
        .env
        .ses
        .send_email()
        .from_email_address("shop@example.com")
        .destination(Destination::builder().to_addresses(&recipient).build())
        .content(
            EmailContent::builder()
                .simple(
                    Message::builder()
                        .subject(text("Your code"))
                        .body(
                            MailBody::builder()
                                .html(text("<p>Your code is <b>123456</b></p>"))
                                .text(text("Your code is 123456"))
                                .build(),
                        )
                        .build(),
                )
                .build(),
        )
        .send()
        .await
        .unwrap();
    let outbox = send(&gateway.router, Method::GET, "/_local/outbox")
        .await
        .json();
    let mail = outbox
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["to"][0] == recipient.as_str())
        .expect("the mail is listed");
    assert_eq!(mail["from"], "shop@example.com");
    assert_eq!(mail["subject"], "Your code");
    assert_eq!(mail["text"], "Your code is 123456");
    assert!(mail["html"].as_str().unwrap().contains("<b>123456</b>"));
    assert!(mail["sentAt"].as_str().unwrap().ends_with('Z'));
    let page = send(&gateway.router, Method::GET, "/_local/outbox.html").await;
    assert!(page.content_type.starts_with("text/html"));
    assert!(String::from_utf8_lossy(&page.bytes).contains(&recipient));
}

/// Issue 4's guard walk: every protected route the template declares, through the whole gateway.
#[tokio::test]
async fn every_protected_route_refuses_missing_bad_and_wrong_role_tokens() {
    use shared::auth::{AuthKeys, Role};
    use shared::routes::Access;
    let (gateway, _dist) = spawn_gateway().await;
    let keys = AuthKeys::signing(shared::testing::signing_key(), "shop", "shop").unwrap();
    let users = shared::auth::Users::new(
        gateway.env.dynamodb.clone(),
        gateway.env.names.table("UsersTable"),
    );
    shared::testing::put_user(&users, "guarded@example.com", Role::Customer).await;
    let customer = keys
        .issue("guarded@example.com", Role::Customer, 600)
        .unwrap();
    let gone = keys.issue("nobody@example.com", Role::Admin, 600).unwrap();
    let access: std::collections::HashMap<(String, String), Access> = local::functions::FUNCTIONS
        .iter()
        .flat_map(|f| (f.routes)())
        .map(|r| ((r.method.to_string(), normalise(r.path)), r.access))
        .collect();
    let template = Template::load_default().unwrap();
    let mut protected = 0;
    for event in template.functions().into_iter().flat_map(|f| f.events) {
        let access = access[&(event.method.clone(), normalise(&event.path))];
        if access == Access::Public {
            continue;
        }
        protected += 1;
        let uri = event
            .path
            .replace("{_id}", "00000000-0000-4000-8000-000000000000")
            .replace("{email}", "guarded@example.com")
            .replace("{id}", "x1");
        let method = Method::from_bytes(event.method.as_bytes()).unwrap();
        let call = |token: Option<String>| {
            let mut request = Request::builder()
                .method(method.clone())
                .uri(&uri)
                .header(header::CONTENT_TYPE, "application/json");
            if let Some(token) = token {
                request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
            }
            let request = request.body(Body::from("{}")).unwrap();
            let router = gateway.router.clone();
            async move {
                let response = router.oneshot(request).await.unwrap();
                let status = response.status();
                let bytes = response.into_body().collect().await.unwrap().to_bytes();
                let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                (
                    status.as_u16(),
                    body["message"].as_str().unwrap_or_default().to_owned(),
                )
            }
        };
        assert_eq!(
            call(None).await,
            (401, "Not authorized".to_owned()),
            "{method} {uri}"
        );
        for (token, label) in shared::testing::bad_tokens("admin@example.com") {
            assert_eq!(
                call(Some(token)).await,
                (401, "token failed".to_owned()),
                "{label}: {method} {uri}"
            );
        }
        assert_eq!(
            call(Some(gone.clone())).await,
            (401, "The person does not exist in the database".to_owned()),
            "{method} {uri}"
        );
        if access == Access::Admin {
            assert_eq!(call(Some(customer.clone())).await.0, 403, "{method} {uri}");
        }
    }
    assert!(protected >= 10, "only {protected} protected routes found");
}

/// Issue 14: the storefront and the API answer with the headers of template.yaml's response headers policy,
/// so the browser journeys run under the deployed Content-Security-Policy.
#[tokio::test]
async fn every_response_carries_the_templates_security_headers() {
    let (gateway, _dist) = spawn_gateway().await;
    let expected = shared::emulator::Template::load_default()
        .unwrap()
        .security_headers()
        .unwrap();
    let csp = &expected
        .iter()
        .find(|(name, _)| name == "content-security-policy")
        .expect("a CSP")
        .1;
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(
        csp.contains("script-src 'self' https://js.stripe.com;"),
        "{csp}"
    );
    let scripts = csp
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .expect("a script-src");
    assert!(
        !scripts.contains("unsafe-inline"),
        "no inline script: {csp}"
    );
    for uri in [
        "/",
        "/shop/drinks/",
        "/api/product/",
        "/api/nothing-here",
        "/robots.txt",
    ] {
        let response = gateway
            .router
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        for (name, value) in &expected {
            assert_eq!(
                response
                    .headers()
                    .get(name.as_str())
                    .and_then(|v| v.to_str().ok()),
                Some(value.as_str()),
                "{name} on {uri}"
            );
        }
    }
    for name in [
        "strict-transport-security",
        "x-content-type-options",
        "referrer-policy",
    ] {
        assert!(expected.iter().any(|(n, _)| n == name), "{name}");
    }
}

/// Issue 14: links come from the gateway's configured address, whatever host the request names.
#[tokio::test]
async fn robots_names_the_configured_address_not_the_requests_host() {
    let (gateway, _dist) = spawn_gateway().await;
    let response = gateway
        .router
        .clone()
        .oneshot(
            Request::get("/robots.txt")
                .header("host", "evil.example")
                .header("x-forwarded-host", "evil.example")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&body);
    assert!(
        text.contains(&format!("Sitemap: {SITE}/sitemap.xml")),
        "{text}"
    );
    assert!(!text.contains("evil.example"), "{text}");
}
