//! The API Gateway event fixtures in events/auth, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{latest_code, new_email, spawn_app};
use http::StatusCode;

#[tokio::test]
async fn every_auth_event_fixture_is_served() {
    let app = spawn_app().await;
    let admin = app.log_in(&app.admin_email).await;
    let customer_email = new_email("fixture");
    let customer = app.log_in(&customer_email).await;
    let other = new_email("other");
    app.log_in(&other).await;
    let email = new_email("event");
    let eraser_email = new_email("eraser");
    let eraser = app.log_in(&eraser_email).await;

    let dir = shared::emulator::repo_root().join("events/auth");
    let order = [
        "request-code",
        "verify-code",
        "show-profile",
        "update-profile",
        "list-users",
        "change-role",
        "delete-user",
        "export-my-data",
        "request-erasure",
        "confirm-erasure",
        "admin-erasure",
        "list-erasures",
        // Last: it ends the customer's token.
        "log-out",
    ];
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        auth::routes().len(),
        "one event per auth route"
    );
    for name in order {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let code = latest_code(&email).unwrap_or_default();
        let text = text
            .replace("OTHER_EMAIL", &other)
            .replace(
                "ERASE_CODE",
                &latest_code(&eraser_email).unwrap_or_default(),
            )
            .replace("EMAIL", &email)
            .replace("ERASER_TOKEN", &eraser)
            .replace("CODE", &code)
            .replace("ADMIN_TOKEN", &admin)
            .replace("CUSTOMER_TOKEN", &customer);
        let reply = app.client.send_event(&text).await;
        assert_eq!(reply.status, StatusCode::OK, "{name}: {}", reply.body);
    }
}
