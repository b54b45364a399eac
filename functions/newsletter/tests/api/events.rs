//! The API Gateway event fixtures in events/newsletter, parsed as Lambda would parse them and served by
//! the router: each must reach its handler and succeed.

use crate::helpers::{spawn_app, unsubscribe_path, welcome_of};
use testkit::new_email;

#[tokio::test]
async fn every_newsletter_event_fixture_is_served() {
    let app = spawn_app().await;
    let dir = testkit::emulator::repo_root().join("events/newsletter");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(
        files.len(),
        newsletter::routes().len(),
        "one event per newsletter route"
    );
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(format!("{name}.json")))
            .unwrap()
            .replace("ADMIN_TOKEN", &app.admin)
    };
    let email = new_email("fixture");
    let other = new_email("fixture");
    for name in [
        "create-subscriber",
        "open-subscription-confirmation",
        "confirm-subscription",
        "list-lists",
        "list-subscribers",
        "count-mailing-recipients",
        "send-mailing",
    ] {
        let mut event = read(name).replace("EMAIL", &email);
        if name.contains("confirm") {
            event = event.replace("CONFIRM_TOKEN", &app.confirm_token(&email).await);
        }
        let reply = app.client.send_event(&event).await;
        // An older mail's link only leads to the confirmation page.
        if name == "open-subscription-confirmation" {
            assert_eq!(reply.status, http::StatusCode::SEE_OTHER, "{name}");
            continue;
        }
        assert!(
            reply.status.is_success(),
            "{name}: {} {}",
            reply.status,
            reply.body
        );
    }
    let mailings = app.client.send_event(&read("list-mailings")).await;
    assert!(
        mailings.status.is_success(),
        "list-mailings: {}",
        mailings.body
    );
    let mailing = mailings.body["product"][0]["_id"].as_str().unwrap();
    let reply = app
        .client
        .send_event(&read("get-mailing").replace("MAILING_ID", mailing))
        .await;
    assert!(reply.status.is_success(), "get-mailing: {}", reply.body);
    assert_eq!(reply.body["_id"], mailing);
    let third = new_email("fixture");
    app.subscribe(&third, &["Newsletter"]).await;
    let other_link = unsubscribe_path(&welcome_of(&app, &third).await);
    let reply = app
        .client
        .send_event(
            &read("unsubscribe-one-click")
                .replace("UNSUBSCRIBE_TOKEN", other_link.rsplit('=').next().unwrap()),
        )
        .await;
    assert!(
        reply.status.is_success(),
        "one-click: {} {}",
        reply.status,
        reply.body
    );
    app.subscribe(&other, &["Newsletter"]).await;
    let link = unsubscribe_path(&welcome_of(&app, &email).await);
    let token = link.rsplit('=').next().unwrap();
    let reply = app
        .client
        .send_event(&read("unsubscribe").replace("UNSUBSCRIBE_TOKEN", token))
        .await;
    assert!(
        reply.status.is_success(),
        "unsubscribe: {} {}",
        reply.status,
        reply.body
    );
    let id = app.subscribers().await[0]["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let reply = app
        .client
        .send_event(&read("delete-subscriber").replace("SUBSCRIBER_ID", &id))
        .await;
    assert!(
        reply.status.is_success(),
        "delete: {} {}",
        reply.status,
        reply.body
    );
    assert!(app.subscribers().await.is_empty());
}
