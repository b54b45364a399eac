//! The local gateway as a newcomer meets it: template and routers in step, the seeded shop, images,
//! the storefront's client-side routes, JSON for unknown API paths, and the outbox.

use axum::body::Body;
use axum::Router;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use std::collections::BTreeSet;
use testkit::emulator::{Emulator, LocalNames, LocalStripe, Template};
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
    send_with(router, method, uri, &[], "").await
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
        dist.path().join("404.html"),
        "<!doctype html><title>Page not found</title>",
    )
    .unwrap();
    std::fs::write(
        dist.path().join("assets/app-1234.js"),
        "console.log('shop')",
    )
    .unwrap();
    let gateway = local::build(
        Emulator::for_tests(),
        LocalStripe::for_tests(),
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
    let stripe = LocalStripe::for_tests();
    local::build(emulator, stripe, &names, dist.path().to_path_buf(), SITE)
        .await
        .unwrap();
    let again = local::build(emulator, stripe, &names, dist.path().to_path_buf(), SITE)
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
        &format!("/drinks/{}?x=1", a_drink(&gateway).await),
        "/new/uk/products",
        "/about/drinks-about-us",
    ] {
        let reply = send(&gateway.router, Method::GET, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(reply.content_type.starts_with("text/html"), "{path}");
        assert_eq!(reply.bytes, b"<!doctype html><title>shop</title>", "{path}");
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
async fn paths_without_a_page_get_the_404_page_with_status_404() {
    let (gateway, dist) = spawn_gateway().await;
    let table = local::known_paths::table();
    for path in ["/no/such/page", "/about/anything", "/shop", "/404.html"]
        .into_iter()
        .chain(table.examples.unknown.iter().map(String::as_str))
    {
        let reply = send(&gateway.router, Method::GET, path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert!(reply.content_type.starts_with("text/html"), "{path}");
        assert_eq!(
            reply.bytes, b"<!doctype html><title>Page not found</title>",
            "{path}"
        );
    }
    for path in &table.examples.known {
        let reply = send(&gateway.router, Method::GET, path).await;
        // The examples' drinks are not in the demo shop: their pages are the app, with status 404.
        let status = match local::known_paths::drink_id(path) {
            Some(_) => StatusCode::NOT_FOUND,
            None => StatusCode::OK,
        };
        assert_eq!(reply.status, status, "{path}");
        assert_eq!(reply.bytes, b"<!doctype html><title>shop</title>", "{path}");
    }
    // A build without a 404 page: the app itself (it shows its own 404 page), still with status 404.
    std::fs::remove_file(dist.path().join("404.html")).unwrap();
    let reply = send(&gateway.router, Method::GET, "/no/such/page").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.bytes, b"<!doctype html><title>shop</title>");
}

/// The id of one of the demo shop's drinks.
async fn a_drink(gateway: &local::Gateway) -> String {
    let drinks = send(&gateway.router, Method::GET, "/api/product/")
        .await
        .json();
    drinks[0]["_id"]
        .as_str()
        .expect("a seeded drink")
        .to_owned()
}

#[tokio::test]
async fn a_drink_page_is_the_app_with_status_404_when_the_drink_is_not_in_the_catalogue() {
    let (gateway, dist) = spawn_gateway().await;
    let id = a_drink(&gateway).await;
    for (path, status) in [
        (format!("/drinks/{id}"), StatusCode::OK),
        (format!("/anything/{id}/?qty=2"), StatusCode::OK),
        ("/drinks/no-such-drink".to_owned(), StatusCode::NOT_FOUND),
        ("/drinks/%2e%2e".to_owned(), StatusCode::NOT_FOUND),
        // The shop's list names no drink.
        ("/shop/juices".to_owned(), StatusCode::OK),
    ] {
        let reply = send(&gateway.router, Method::GET, &path).await;
        assert_eq!(reply.status, status, "{path}");
        assert_eq!(reply.bytes, b"<!doctype html><title>shop</title>", "{path}");
    }
    // Not even a copy left from before the drink was deleted is served for it.
    std::fs::create_dir_all(dist.path().join("drinks/gone")).unwrap();
    std::fs::write(
        dist.path().join("drinks/gone/index.html"),
        "<title>Gone</title>",
    )
    .unwrap();
    let stale = send(&gateway.router, Method::GET, "/drinks/gone").await;
    assert_eq!(
        (stale.status, stale.bytes.as_slice()),
        (
            StatusCode::NOT_FOUND,
            b"<!doctype html><title>shop</title>".as_slice()
        )
    );
    // The build's copy of the app for that answer is served with 404 too, as CloudFront serves it.
    std::fs::write(dist.path().join("app-404.html"), "<title>app</title>").unwrap();
    assert_eq!(
        send(&gateway.router, Method::GET, "/app-404.html")
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn prerendered_pages_are_served_when_written_and_the_app_otherwise() {
    let (gateway, dist) = spawn_gateway().await;
    let mango = a_drink(&gateway).await;
    let write = |file: &str, text: &str| {
        let path = dist.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let app = b"<!doctype html><title>shop</title>".as_slice();
    // Before the prerender script has run: every page gets the app.
    for path in [
        format!("/drinks/{mango}"),
        "/shop/drinks/?category=Soft%20drinks".to_owned(),
    ] {
        let reply = send(&gateway.router, Method::GET, &path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(reply.bytes, app, "{path}");
    }
    write(
        &format!("drinks/{mango}/index.html"),
        "<title>Mango</title>",
    );
    write("shop/drinks/index.html", "<title>All drinks</title>");
    write(
        "shop/drinks/category/Soft_20_drinks/index.html",
        "<title>Soft drinks</title>",
    );
    write(
        "about/drinks-about-us/index.html",
        "<title>About us</title>",
    );
    write(
        "account/order/index.html",
        "<title>not a prerendered page</title>",
    );
    for (path, body) in [
        (format!("/drinks/{mango}"), "<title>Mango</title>"),
        (format!("/drinks/{mango}/"), "<title>Mango</title>"),
        (format!("/drinks/{mango}?qty=3"), "<title>Mango</title>"),
        ("/shop/drinks/".to_owned(), "<title>All drinks</title>"),
        ("/shop/drinks".to_owned(), "<title>All drinks</title>"),
        (
            "/shop/drinks/?category=Soft%20drinks".to_owned(),
            "<title>Soft drinks</title>",
        ),
        (
            "/shop/drinks/?category=Soft+drinks".to_owned(),
            "<title>Soft drinks</title>",
        ),
        (
            "/about/drinks-about-us".to_owned(),
            "<title>About us</title>",
        ),
    ] {
        let reply = send(&gateway.router, Method::GET, &path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(reply.content_type.starts_with("text/html"), "{path}");
        assert_eq!(reply.bytes, body.as_bytes(), "{path}");
    }
    let response = gateway
        .router
        .clone()
        .oneshot(
            Request::get(format!("/drinks/{mango}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-cache");
    // The shop with any other query, a page not written, and a rule that is not prerendered: the app.
    for path in [
        "/shop/drinks/?sort=price-asc",
        "/shop/drinks/?category=Soft%20drinks&sort=price-asc",
        "/shop/drinks/?category=Juices",
        "/account/order",
    ] {
        let reply = send(&gateway.router, Method::GET, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(reply.bytes, app, "{path}");
    }
    // Unknown paths keep the 404 page, whatever is written under them.
    write(
        &format!("drinks/{mango}/extra/index.html"),
        "<title>stray</title>",
    );
    for path in [
        format!("/drinks/{mango}/extra"),
        "/nowhere".to_owned(),
        "/shop".to_owned(),
    ] {
        let reply = send(&gateway.router, Method::GET, &path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            reply.bytes, b"<!doctype html><title>Page not found</title>",
            "{path}"
        );
    }
}

/// The shop's pages kept in a folder of their own, beside a build that has an id (frontend/scripts/build.sh).
#[tokio::test]
async fn pages_of_a_shop_are_its_own_and_served_only_with_the_build_they_were_made_for() {
    let (dist, pages) = (tempdir::Dir::new(), tempdir::Dir::new());
    let write = |dir: &tempdir::Dir, file: &str, text: &str| {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(&dist, "index.html", "<!doctype html><title>shop</title>");
    write(&dist, ".build-id", "build-1\n");
    write(&dist, ".vite/manifest.json", "{}");
    write(&dist, ".prerender/prerender.js", "export {}");
    let gateway = local::build(
        Emulator::for_tests(),
        LocalStripe::for_tests(),
        &LocalNames::unique(),
        local::Storefront {
            dist: dist.path().to_path_buf(),
            pages: pages.path().to_path_buf(),
        },
        SITE,
    )
    .await
    .expect("the gateway builds");
    let app = b"<!doctype html><title>shop</title>".as_slice();
    // A page in the build itself is not the shop's: its pages are in their own folder.
    write(
        &dist,
        "about/drinks-about-us/index.html",
        "<title>someone else's</title>",
    );
    let page = send(&gateway.router, Method::GET, "/about/drinks-about-us").await;
    assert_eq!((page.status, page.bytes.as_slice()), (StatusCode::OK, app));
    write(
        &pages,
        "about/drinks-about-us/index.html",
        "<title>About us</title>",
    );
    write(&pages, ".build-id", "build-1\n");
    let page = send(&gateway.router, Method::GET, "/about/drinks-about-us").await;
    assert_eq!(page.bytes, b"<title>About us</title>");
    // A new build linked: the pages name the old one's scripts, so the app is served until they are made again.
    write(&dist, ".build-id", "build-2\n");
    let page = send(&gateway.router, Method::GET, "/about/drinks-about-us").await;
    assert_eq!((page.status, page.bytes.as_slice()), (StatusCode::OK, app));
    write(&pages, ".build-id", "build-2\n");
    let page = send(&gateway.router, Method::GET, "/about/drinks-about-us").await;
    assert_eq!(page.bytes, b"<title>About us</title>");
    // What the build keeps for itself is not served.
    for path in [
        "/.vite/manifest.json",
        "/.prerender/prerender.js",
        "/.build-id",
        "/assets/.hidden",
    ] {
        let reply = send(&gateway.router, Method::GET, path).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(reply.json()["message"], "Not found", "{path}");
    }
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
    assert!(mail["headers"].is_object());
    let page = send(&gateway.router, Method::GET, "/_local/outbox.html").await;
    assert!(page.content_type.starts_with("text/html"));
    assert!(String::from_utf8_lossy(&page.bytes).contains(&recipient));
}

#[tokio::test]
async fn the_outbox_pages_one_recipients_mail_newest_first_and_keeps_headers() {
    use aws_sdk_sesv2::types::MessageHeader;
    use aws_sdk_sesv2::types::{Body as MailBody, Content, Destination, EmailContent, Message};
    let (gateway, _dist) = spawn_gateway().await;
    let recipient = format!("{}@example.com", uuid::Uuid::new_v4().simple());
    let text = |t: &str| Content::builder().data(t).build().unwrap();
    for n in 1..=3 {
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
                            .subject(text(&format!("Mail {n}")))
                            .body(MailBody::builder().text(text(&format!("Body {n}"))).build())
                            .headers(
                                MessageHeader::builder()
                                    .name("List-Unsubscribe")
                                    .value(format!("<https://shop.example/u/{n}>"))
                                    .build()
                                    .unwrap(),
                            )
                            .build(),
                    )
                    .build(),
            )
            .send()
            .await
            .unwrap();
    }
    let uri = format!("/_local/outbox?to={recipient}&limit=2");
    let newest = send(&gateway.router, Method::GET, &uri).await.json();
    let subjects: Vec<&str> = newest
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        ["Mail 3", "Mail 2"],
        "the newest page, newest first"
    );
    assert_eq!(newest[0]["text"], "Body 3");
    assert_eq!(newest[0]["html"], "");
    assert_eq!(
        newest[0]["headers"]["List-Unsubscribe"],
        "<https://shop.example/u/3>"
    );
    let before = newest[1]["seq"].as_u64().unwrap();
    let older = send(
        &gateway.router,
        Method::GET,
        &format!("{uri}&before={before}"),
    )
    .await
    .json();
    assert_eq!(older.as_array().unwrap().len(), 1);
    assert_eq!(older[0]["subject"], "Mail 1");
    for bad in ["limit=0", "limit=501", "limit=ten", "before=yesterday"] {
        let reply = send(
            &gateway.router,
            Method::GET,
            &format!("/_local/outbox?{bad}"),
        )
        .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(
            reply.json()["message"].as_str().unwrap().len() > 10,
            "{bad}"
        );
    }
}

#[tokio::test]
async fn a_kept_store_is_never_seeded_again_even_without_drinks() {
    use shared::auth::{AuthKeys, Role};
    let emulator = Emulator::for_tests();
    let names = LocalNames::unique();
    let dist = tempdir::Dir::new();
    let first = local::build(
        emulator,
        LocalStripe::for_tests(),
        &names,
        dist.path().to_path_buf(),
        SITE,
    )
    .await
    .unwrap();
    // Only the auth function holds the signing key.
    let token = AuthKeys::from_env(&first.env.lookup("AuthFunction"))
        .unwrap()
        .issue("admin@example.com", Role::Admin, 600)
        .unwrap();
    let products = send(&first.router, Method::GET, "/api/product/")
        .await
        .json();
    for product in products.as_array().unwrap() {
        let id = product["_id"].as_str().unwrap();
        let request = Request::builder()
            .method(Method::DELETE)
            .uri(format!("/api/product/delete/{id}"))
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        let status = first
            .router
            .clone()
            .oneshot(request)
            .await
            .unwrap()
            .status();
        assert!(status.is_success(), "deleting {id}: {status}");
    }
    let again = local::build(
        emulator,
        LocalStripe::for_tests(),
        &names,
        dist.path().to_path_buf(),
        SITE,
    )
    .await
    .unwrap();
    let products = send(&again.router, Method::GET, "/api/product/")
        .await
        .json();
    assert_eq!(
        products,
        serde_json::json!([]),
        "the owner's empty shop stays empty"
    );
}

/// The guard walk: every protected route the template declares, through the whole gateway.
#[tokio::test]
async fn every_protected_route_refuses_missing_bad_and_wrong_role_tokens() {
    use shared::auth::{AuthKeys, Role};
    use shared::routes::Access;
    let (gateway, _dist) = spawn_gateway().await;
    let keys = AuthKeys::signing(testkit::signing_key(), "shop", "shop").unwrap();
    let users = shared::auth::Users::new(
        gateway.env.dynamodb.clone(),
        gateway.env.names.table("UsersTable"),
    );
    testkit::put_user(&users, "guarded@example.com", Role::Customer).await;
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
        for (token, label) in testkit::bad_tokens("admin@example.com") {
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

async fn send_with(
    router: &Router,
    method: Method,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::from(body.to_owned())).unwrap())
        .await
        .unwrap();
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

const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");

#[tokio::test]
async fn the_stripe_stand_in_and_its_settings_are_served_locally() {
    let (gateway, _dist) = spawn_gateway().await;
    let settings = send_with(
        &gateway.router,
        Method::GET,
        "/_local/stripe",
        &[("host", "127.0.0.1:4321")],
        "",
    )
    .await;
    assert_eq!(settings.status, StatusCode::OK);
    assert_eq!(
        settings.json(),
        serde_json::json!({
            "apiBase": "http://127.0.0.1:4321/_local/stripe",
            "publishableKey": testkit::emulator::LOCAL_STRIPE_PUBLISHABLE_KEY,
        })
    );
    // A Host that could smuggle something into the address is not echoed.
    let odd = send_with(
        &gateway.router,
        Method::GET,
        "/_local/stripe",
        &[("host", "evil.example/x?")],
        "",
    )
    .await;
    assert_eq!(odd.json()["apiBase"], "http://127.0.0.1/_local/stripe");
    let script = send(&gateway.router, Method::GET, "/_local/stripe.js").await;
    assert_eq!(script.status, StatusCode::OK);
    assert!(script.content_type.starts_with("text/javascript"));
    let text = String::from_utf8(script.bytes).unwrap();
    for needed in [
        "window.Stripe = Stripe",
        "createPaymentMethod",
        "handleCardAction",
        "_registerWrapper",
        "cardNumber",
        "cardExpiry",
        "cardCvc",
    ] {
        assert!(text.contains(needed), "the stand-in lacks {needed}");
    }
    // The secret key stays in the gateway.
    assert!(!text.contains(testkit::emulator::LOCAL_STRIPE_SECRET_KEY));
    assert!(!settings.bytes.windows(3).any(|w| w == b"sk_"));
}

#[tokio::test]
async fn the_stripe_proxy_makes_a_payment_method_and_answers_a_challenge() {
    let (gateway, _dist) = spawn_gateway().await;
    let card = "type=card&card%5Bnumber%5D=4000002760003184&card%5Bexp_month%5D=12&card%5Bexp_year%5D=2040&card%5Bcvc%5D=123&billing_details%5Bname%5D=Layla%20Haddad";
    let method = send_with(
        &gateway.router,
        Method::POST,
        "/_local/stripe/v1/payment_methods",
        &[FORM],
        card,
    )
    .await;
    assert_eq!(method.status, StatusCode::OK, "{:?}", method.json());
    let method = method.json();
    let pm = method["id"].as_str().unwrap();
    assert!(pm.starts_with("pm_"), "{method}");
    assert_eq!(method["card"]["last4"], "3184");
    assert_eq!(method["billing_details"]["name"], "Layla Haddad");

    // The server's side, as the orders function does it: a PaymentIntent confirmed with that method.
    let stripe = LocalStripe::for_tests();
    let (status, intent) = local::stripe::post_form(
        &stripe.api_base,
        "/v1/payment_intents",
        format!("amount=1299&currency=gbp&payment_method={pm}&confirm=true").as_bytes(),
        Some(testkit::emulator::LOCAL_STRIPE_SECRET_KEY),
    )
    .await
    .unwrap();
    let intent: serde_json::Value = serde_json::from_slice(&intent).unwrap();
    assert_eq!(status, 200, "{intent}");
    assert_eq!(intent["status"], "requires_action");
    let id = intent["id"].as_str().unwrap();
    let secret = intent["client_secret"].as_str().unwrap();
    let path = format!("/_local/stripe/v1/payment_intents/{id}/_authenticate");

    let forged = send_with(
        &gateway.router,
        Method::POST,
        &path,
        &[FORM],
        &format!("client_secret={id}_secret_wrong&success=true"),
    )
    .await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
    let completed = send_with(
        &gateway.router,
        Method::POST,
        &path,
        &[FORM],
        &format!(
            "client_secret={secret}&success=true&key={}",
            testkit::emulator::LOCAL_STRIPE_PUBLISHABLE_KEY
        ),
    )
    .await;
    assert_eq!(completed.status, StatusCode::OK, "{:?}", completed.json());
    assert_eq!(completed.json()["status"], "succeeded");
}

#[tokio::test]
async fn the_stripe_proxy_refuses_every_other_call() {
    let (gateway, _dist) = spawn_gateway().await;
    for (method, path) in [
        (Method::GET, "/_local/stripe/v1/payment_intents"),
        (Method::POST, "/_local/stripe/v1/refunds"),
        (
            Method::POST,
            "/_local/stripe/v1/payment_intents/pi_x/cancel",
        ),
        (Method::POST, "/_local/stripe/_config/webhooks/x"),
        (
            Method::POST,
            "/_local/stripe/v1/payment_intents/../_authenticate",
        ),
    ] {
        let reply = send_with(&gateway.router, method.clone(), path, &[FORM], "a=b").await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{method} {path}");
        assert!(reply.json()["message"].is_string(), "{method} {path}");
    }
    let not_a_form = send_with(
        &gateway.router,
        Method::POST,
        "/_local/stripe/v1/payment_methods",
        &[("content-type", "application/json")],
        "{}",
    )
    .await;
    assert_eq!(not_a_form.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(not_a_form.json()["message"].is_string());
}

#[tokio::test]
async fn the_orders_expiry_runs_on_the_clock_a_test_gives_it() {
    let (gateway, _dist) = spawn_gateway().await;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    // Nothing is pending in a fresh shop: a run an hour ahead expires nothing and fails nothing.
    local::schedule::expire_once(&gateway.env, now + 3600)
        .await
        .expect("the expiry runs with OrdersExpiryFunction's settings");
    let vars = gateway.env.vars("OrdersExpiryFunction");
    assert_eq!(
        vars.get("STRIPE_API_BASE"),
        Some(&LocalStripe::for_tests().api_base)
    );
    assert_eq!(
        gateway
            .env
            .vars("OrdersFunction")
            .get("STRIPE_JS_URL")
            .map(String::as_str),
        Some("/_local/stripe.js")
    );
}

/// Reads one HTTP request from `listener` and answers 200; gives its head and body.
async fn one_request(listener: &tokio::net::TcpListener) -> (String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut stream, _) = listener.accept().await.unwrap();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let read = stream.read(&mut buffer).await.unwrap();
        assert!(
            read > 0,
            "the connection closed before a whole request arrived"
        );
        bytes.extend_from_slice(&buffer[..read]);
        let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&bytes[..end]).to_string();
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .unwrap_or(0);
        if bytes.len() >= end + 4 + length {
            stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}")
                .await
                .unwrap();
            return (head, bytes[end + 4..end + 4 + length].to_vec());
        }
    }
}

#[tokio::test]
async fn localstripe_delivers_signed_events_to_the_gateways_webhook_route() {
    // The gateway's port stands in as a listener of the test's own; the registration is what serve() does.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let stripe = LocalStripe::for_tests();
    local::stripe::register_webhook(stripe, port).await.unwrap();

    let key = Some(testkit::emulator::LOCAL_STRIPE_SECRET_KEY);
    let (_, method) = local::stripe::post_form(
        &stripe.api_base,
        "/v1/payment_methods",
        b"type=card&card%5Bnumber%5D=4242424242424242&card%5Bexp_month%5D=12&card%5Bexp_year%5D=2040&card%5Bcvc%5D=123",
        key,
    )
    .await
    .unwrap();
    let method: serde_json::Value = serde_json::from_slice(&method).unwrap();
    let (status, intent) = local::stripe::post_form(
        &stripe.api_base,
        "/v1/payment_intents",
        format!(
            "amount=499&currency=gbp&confirm=true&payment_method={}",
            method["id"].as_str().unwrap()
        )
        .as_bytes(),
        key,
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    let intent: serde_json::Value = serde_json::from_slice(&intent).unwrap();

    // Other events (the payment method's) may come first: wait for the intent's.
    let deadline = std::time::Duration::from_secs(20);
    let (head, body, event) = tokio::time::timeout(deadline, async {
        loop {
            let (head, body) = one_request(&listener).await;
            let event: serde_json::Value = serde_json::from_slice(&body).unwrap();
            if event["type"] == "payment_intent.succeeded" {
                return (head, body, event);
            }
        }
    })
    .await
    .expect("localstripe delivered payment_intent.succeeded");
    assert!(
        head.starts_with("POST /api/order/webhook/stripe/ "),
        "{head}"
    );
    assert_eq!(event["data"]["object"]["id"], intent["id"]);
    let signature = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("stripe-signature")
                .then(|| value.trim().to_owned())
        })
        .expect("a Stripe-Signature header");
    let timestamp = signature
        .split(',')
        .find_map(|part| part.strip_prefix("t="))
        .unwrap();
    let v1 = signature
        .split(',')
        .find_map(|part| part.strip_prefix("v1="))
        .unwrap();
    let hmac_key = ring::hmac::Key::new(
        ring::hmac::HMAC_SHA256,
        testkit::emulator::LOCAL_STRIPE_WEBHOOK_SECRET.as_bytes(),
    );
    let mut signed = format!("{timestamp}.").into_bytes();
    signed.extend_from_slice(&body);
    let expected: String = ring::hmac::sign(&hmac_key, &signed)
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v1, expected, "signed with the local webhook secret");
}

/// The storefront and the API answer with the headers of template.yaml's response headers policy,
/// so the browser journeys run under the deployed Content-Security-Policy.
#[tokio::test]
async fn every_response_carries_the_templates_security_headers() {
    let (gateway, _dist) = spawn_gateway().await;
    let expected = testkit::emulator::Template::load_default()
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

/// Links come from the gateway's configured address, whatever host the request names.
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
