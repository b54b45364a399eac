//! The API Gateway event fixtures in events/images, parsed as Lambda would parse them (multipart bodies
//! base64-encoded, as API Gateway sends binary) and served by the router: each must reach its handler.

use crate::helpers::spawn_app;

#[tokio::test]
async fn every_images_event_fixture_is_served() {
    let app = spawn_app().await;
    let dir = testkit::emulator::repo_root().join("events/images");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), images::routes().len(), "one event per route");
    // Upload first, delete last.
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        (name.starts_with("delete"), name)
    });
    let mut uploaded = String::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("ADMIN_TOKEN", &app.admin)
            .replace("IMAGE_NAME", &uploaded);
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{}: {} {}",
            path.display(),
            reply.status,
            reply.body
        );
        if let Some(name) = reply.body.as_str() {
            uploaded = name.to_owned();
        }
    }
}
