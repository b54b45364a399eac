//! The API Gateway event fixtures in events/reviews, parsed as Lambda would parse them and served by the
//! router: each must reach its handler and succeed.

use crate::helpers::{review_of, spawn_app};

#[tokio::test]
async fn every_reviews_event_fixture_is_served() {
    let app = spawn_app().await;
    let review = app.write(review_of(&app.cola, 5, "Layla Haddad")).await;
    // A buyer's typed review waits for its confirmation; a delivered order's link invites another.
    app.order("fixture.buyer@example.com", &app.cola, orders::Status::Paid)
        .await;
    let mut typed = review_of(&app.cola, 4, "Fixture Buyer");
    typed["email"] = serde_json::json!("fixture.buyer@example.com");
    app.write(typed).await;
    let confirm_token = app
        .confirmation_token("fixture.buyer@example.com")
        .await
        .unwrap();
    let delivered = app
        .order(
            "fixture.link@example.com",
            &app.cola,
            orders::Status::Delivered,
        )
        .await;
    let invitation = app.invitation(&delivered, &app.cola);
    let dir = testkit::emulator::repo_root().join("events/reviews");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        reviews::routes().len(),
        "one event per reviews route"
    );
    // Hiding after the report (a hidden review cannot be reported), showing after the hide, and the delete
    // last but for the restore, so every other fixture has a review to show.
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let stage = ["hide", "unhide", "delete", "restore"]
            .iter()
            .position(|first| name.starts_with(first))
            .map_or(0, |at| at + 1);
        (stage, name)
    });
    for path in files {
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("EMAIL", &testkit::new_email("fixture"))
            .replace("PRODUCT_ID", &app.cola)
            .replace("REVIEW_ID", review["_id"].as_str().unwrap())
            .replace("CONFIRM_TOKEN", &confirm_token)
            .replace("INVITATION", &invitation)
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
        3,
        "three created (one by its fixture), one deleted and restored"
    );
}
