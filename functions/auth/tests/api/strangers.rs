//! Nobody can keep someone else from logging in with codes: a stranger's request never spoils a code
//! already mailed, a stranger's wrong guesses never burn it, one network's requests for an address stop
//! before the address's own cap, and the day's mail budget bounds what any address is sent.

use crate::helpers::{
    latest_code, mails, new_email, spawn_app, spawn_app_with, verify_from, wrong,
};
use http::StatusCode;

const OWNER: &str = "198.51.100.20";
const STRANGER: &str = "203.0.113.77";

#[tokio::test]
async fn a_strangers_requests_never_invalidate_a_code_already_mailed() {
    let app = spawn_app().await;
    let email = app.admin_email.clone();
    assert_eq!(
        app.ask_code_from(OWNER, &email).await.status,
        StatusCode::OK
    );
    let mailed = latest_code(&email).unwrap();
    // The stranger asks as often as the limits let them, for the same address.
    for _ in 0..auth::MAX_CODES_PER_ADDRESS_CLIENT_HOUR {
        let reply = app.ask_code_from(STRANGER, &email).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert_eq!(
        app.code_items(&email).await.len(),
        1 + auth::MAX_CODES_PER_ADDRESS_CLIENT_HOUR,
        "every code is live"
    );
    let signed_in = verify_from(&app.client, Some(OWNER), &email, &mailed).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    assert_eq!(signed_in.body["userInfo"]["role"], "admin");
}

#[tokio::test]
async fn one_network_is_limited_for_an_address_before_the_addresss_own_cap() {
    let app = spawn_app().await;
    let email = new_email("target");
    for _ in 0..auth::MAX_CODES_PER_ADDRESS_CLIENT_HOUR {
        let reply = app.ask_code_from(STRANGER, &email).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let refused = app.ask_code_from(STRANGER, &email).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Several codes were asked for this address from your network"));
    assert!(refused.headers.contains_key("retry-after"));
    assert_eq!(mails(&email).len(), auth::MAX_CODES_PER_ADDRESS_CLIENT_HOUR);
    // The refusal used up none of the address's own cap: its owner still gets a code, and logs in.
    let owner = app.ask_code_from(OWNER, &email).await;
    assert_eq!(owner.status, StatusCode::OK, "{}", owner.body);
    let code = latest_code(&email).unwrap();
    let signed_in = verify_from(&app.client, Some(OWNER), &email, &code).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
}

#[tokio::test]
async fn a_strangers_wrong_guesses_never_burn_the_owners_code() {
    let app = spawn_app().await;
    let email = new_email("owner");
    app.ask_code_from(OWNER, &email).await;
    let code = latest_code(&email).unwrap();
    for left in (0..auth::MAX_TRIES).rev() {
        let reply = verify_from(&app.client, Some(STRANGER), &email, &wrong(&code)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        if left == 0 {
            assert_eq!(
                reply.body["message"],
                "That code is wrong, and now used up: ask for a new one"
            );
        }
    }
    // Used up for the stranger, right code or not...
    let stranger = verify_from(&app.client, Some(STRANGER), &email, &code).await;
    assert_eq!(
        stranger.status,
        StatusCode::BAD_REQUEST,
        "{}",
        stranger.body
    );
    assert!(stranger.body.get("token").is_none());
    // ... and still good for its owner.
    let owner = verify_from(&app.client, Some(OWNER), &email, &code).await;
    assert_eq!(owner.status, StatusCode::OK, "{}", owner.body);
}

#[tokio::test]
async fn the_days_mail_budget_per_address_stops_codes_and_the_answer_is_the_same_for_every_address()
{
    let app = spawn_app_with(&[("MAIL_DAILY_BUDGET_PER_ADDRESS", "2")]).await;
    let email = new_email("flooded");
    for ip in ["203.0.113.1", "203.0.113.2"] {
        let reply = app.ask_code_from(ip, &email).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let refused = app.ask_code_from("203.0.113.3", &email).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert_eq!(refused.body["message"], shared::mail_budget::OVER_ADDRESS);
    assert!(refused.headers.contains_key("retry-after"));
    assert_eq!(mails(&email).len(), 2, "the third mail was not sent");
    // Another address has its own budget.
    let other = new_email("calm");
    assert_eq!(
        app.ask_code_from("203.0.113.3", &other).await.status,
        StatusCode::OK
    );
    assert_eq!(mails(&other).len(), 1);
}

#[tokio::test]
async fn the_days_total_mail_budget_stops_every_code_once_spent() {
    let app = spawn_app_with(&[("MAIL_DAILY_BUDGET", "2")]).await;
    // The budget is the shop's, counted in the mail table this test has to itself.
    for name in ["first", "second"] {
        let reply = app.ask_code(&new_email(name)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let late = new_email("third");
    let refused = app.ask_code(&late).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert_eq!(refused.body["message"], shared::mail_budget::OVER_TOTAL);
    assert!(mails(&late).is_empty());
}
