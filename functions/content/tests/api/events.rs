//! The API Gateway event fixtures in events/content, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::spawn_app;
use http::Method;
use serde_json::json;

#[tokio::test]
async fn every_content_event_fixture_is_served() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    for kind in ["about", "whoweare", "policy", "link"] {
        let created = app
            .admin(
                Method::POST,
                &format!("/api/{kind}/create/"),
                Some(json!({"name": "Fixture", "link": "/shop/drinks/"})),
            )
            .await;
        ids.push((
            format!("{}_ID", kind.to_uppercase()),
            created.body["_id"].as_str().unwrap().to_owned(),
        ));
    }
    let dir = testkit::emulator::repo_root().join("events/content");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        content::routes().len(),
        "one event per content route"
    );
    // Create the site before updating it, and delete last.
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        (
            if name.starts_with("create-site") {
                0
            } else if name.starts_with("delete") {
                2
            } else {
                1
            },
            name,
        )
    });
    for path in files {
        let mut text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("EMAIL", &testkit::new_email("fixture"));
        for (placeholder, id) in &ids {
            text = text.replace(placeholder.as_str(), id);
        }
        let text = text.replace("ADMIN_TOKEN", &app.admin);
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{}: {} {}",
            path.display(),
            reply.status,
            reply.body
        );
    }
}
