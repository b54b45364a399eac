//! The API Gateway event fixtures in events/reviews, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{review_of, spawn_app};

#[tokio::test]
async fn every_reviews_event_fixture_is_served() {
    let app = spawn_app().await;
    let review = app.write(review_of(&app.cola, 5, "Layla Haddad")).await;
    let dir = shared::emulator::repo_root().join("events/reviews");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        reviews::routes().len(),
        "one event per reviews route"
    );
    // The delete goes last but for the restore, so every other fixture has a review to show.
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let stage = if name.starts_with("restore") {
            2
        } else if name.starts_with("delete") {
            1
        } else {
            0
        };
        (stage, name)
    });
    for path in files {
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("EMAIL", &shared::testing::new_email("fixture"))
            .replace("PRODUCT_ID", &app.cola)
            .replace("REVIEW_ID", review["_id"].as_str().unwrap())
            .replace("ADMIN_TOKEN", &app.admin);
        let reply = app.client.send_event(&text).await;
        assert!(
            reply.status.is_success(),
            "{}: {} {}",
            path.display(),
            reply.status,
            reply.body
        );
    }
    assert_eq!(
        app.summary().await["Thecount"],
        2,
        "two created, one deleted and restored"
    );
}
