//! The API Gateway event fixtures in events/catalog, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{drink, spawn_app};
use http::{Method, StatusCode};

fn events_dir() -> std::path::PathBuf {
    testkit::emulator::repo_root().join("events/catalog")
}

#[tokio::test]
async fn every_catalog_event_fixture_is_served() {
    let app = spawn_app().await;
    let category = app
        .call(
            Method::POST,
            "/api/category/create/",
            Some(&app.admin),
            Some(serde_json::json!({"name": "Fixtures"})),
        )
        .await
        .body["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let product = app.create_drink(drink("Fixture Fizz", 1.0)).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let mut sold_out = drink("Fixture Ginger", 1.0);
    sold_out["TheNumber"] = serde_json::json!(0);
    let sold_out = app.create_drink(sold_out).await["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let stop_token = app
        .state
        .alerts
        .as_ref()
        .unwrap()
        .links
        .token("fixture@example.com");
    // The confirmation link of an alert asked for the sold-out drink (as notify-when-back's mail carries).
    let confirm_token = app.state.alerts.as_ref().unwrap().links.confirm_token(
        "confirmer@example.com",
        &sold_out,
        shared::time::now_unix() + 3600,
    );
    let asked = app
        .call(
            Method::POST,
            &format!("/api/product/notify/{sold_out}"),
            None,
            Some(serde_json::json!({"email": "confirmer@example.com"})),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.body);

    let mut files: Vec<_> = std::fs::read_dir(events_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    // Deletes last, so the updates find their targets; then the restore, which needs a deleted drink.
    files.sort_by_key(|path| {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("restore") {
            2
        } else {
            u8::from(name.starts_with("delete"))
        }
    });
    let routes = catalog::routes();
    assert_eq!(files.len(), routes.len(), "one event per catalog route");
    for path in files {
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("ADMIN_TOKEN", &app.admin)
            .replace("PRODUCT_ID", &product)
            .replace("SOLD_OUT_ID", &sold_out)
            .replace("STOP_TOKEN", &stop_token)
            .replace("CONFIRM_TOKEN", &confirm_token)
            .replace("CATEGORY_ID", &category);
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status == StatusCode::OK || reply.status == StatusCode::CREATED,
            "{}: {} {}",
            path.display(),
            reply.status,
            reply.body
        );
    }
}
