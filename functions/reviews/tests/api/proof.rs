//! "Verified" means proven: a typed address proves nothing until its mailbox confirms, a signed-in buyer
//! and a delivered e-mail's link prove themselves, and no answer tells a writer whether an address bought
//! anything.

use crate::helpers::{review_of, spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};

fn verified(body: &Value) -> bool {
    body["verified"].as_bool().expect("every review says")
}

fn typed(email: &str, product: &str) -> Value {
    let mut body = review_of(product, 5, "Sami Haddad");
    body["email"] = json!(email);
    body
}

/// The answer to a create with everything that differs between two reviews taken out.
fn shape(body: &Value) -> Value {
    let mut body = body.clone();
    for varying in [
        "_id",
        "createdAt",
        "comment",
        "fullname",
        "products",
        "Date",
    ] {
        body.as_object_mut().unwrap().remove(varying);
    }
    body
}

async fn confirm(app: &TestApp, token: &str) -> testkit::Reply {
    app.post("/api/reviews/confirm/", json!({ "token": token }))
        .await
}

async fn stored_review(app: &TestApp, id: &Value) -> Value {
    let admin = app
        .admin(Method::GET, "/api/reviews?pageNumber=1", None)
        .await;
    admin.body["product"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["_id"] == *id)
        .cloned()
        .expect("the review is listed")
}

#[tokio::test]
async fn a_buyers_typed_address_gets_the_same_unverified_answer_as_anyone_until_the_mailbox_confirms(
) {
    let app = spawn_app().await;
    app.order("buyer@example.com", &app.cola, orders::Status::Paid)
        .await;
    let buyer = app.write(typed(" Buyer@Example.com ", &app.cola)).await;
    let stranger = app.write(typed("made.up@example.com", &app.cola)).await;
    // The old oracle: typing a buyer's address answered "verified". Now both answers are alike.
    assert!(!verified(&buyer), "{buyer}");
    assert_eq!(shape(&buyer), shape(&stranger));
    // Only the buyer's mailbox is asked to confirm: nobody else could be verified by it.
    assert!(app.confirmations_to("made.up@example.com").await.is_empty());
    let mails = app.confirmations_to("buyer@example.com").await;
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("Classic Cola"), "{}", mails[0]);
    assert!(mails[0].contains("https://shop.example.co.uk/confirm/review?token="));

    let token = app.confirmation_token("buyer@example.com").await.unwrap();
    let confirmed = confirm(&app, &token).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    assert_eq!(confirmed.body["message"], reviews::proof::CONFIRMED);
    assert!(verified(&stored_review(&app, &buyer["_id"]).await));
    let public = app
        .get(&format!(
            "/api/home_uk/palestine/comment/reviews?ProductsId={}",
            app.cola
        ))
        .await;
    let shown = public.body["product"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["_id"] == buyer["_id"])
        .cloned()
        .unwrap();
    assert!(verified(&shown));
    // Following the link again changes nothing.
    let again = confirm(&app, &token).await;
    assert_eq!(again.status, StatusCode::OK);
    assert!(!verified(&stored_review(&app, &stranger["_id"]).await));
}

#[tokio::test]
async fn a_confirmation_needs_a_genuine_unexpired_token() {
    let app = spawn_app().await;
    app.order("buyer@example.com", &app.cola, orders::Status::Paid)
        .await;
    let review = app.write(typed("buyer@example.com", &app.cola)).await;
    let id = review["_id"].as_str().unwrap();
    let now = shared::time::now_unix();
    for token in [
        String::new(),
        "nonsense".to_owned(),
        app.links.confirm_token(id, now - 1),
        reviews::proof::Links::new(b"another key of at least 32 characters!")
            .confirm_token(id, now + 600),
        // An invitation's signature does not confirm.
        app.invitation(id, &app.cola),
    ] {
        let reply = confirm(&app, &token).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{token}: {}",
            reply.body
        );
        assert_eq!(reply.body["message"], reviews::proof::BAD_CONFIRM);
    }
    for body in [json!({}), json!({"token": 5})] {
        let reply = app.post("/api/reviews/confirm/", body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        assert!(reply.body["message"].is_string());
    }
    assert!(!verified(&stored_review(&app, &review["_id"]).await));
    // A GET of the page's API path confirms nothing: there is no such route.
    let fetched = app
        .get(&format!(
            "/api/reviews/confirm/?token={}",
            app.links.confirm_token(id, now + 600)
        ))
        .await;
    assert_ne!(fetched.status, StatusCode::OK);
    assert!(!verified(&stored_review(&app, &review["_id"]).await));
}

#[tokio::test]
async fn a_signed_in_buyer_is_verified_at_once_and_a_signed_in_stranger_is_not() {
    let app = spawn_app().await;
    app.order("shopper@example.com", &app.cola, orders::Status::Shipped)
        .await;
    let mut body = review_of(&app.cola, 5, "Shopper Person");
    body.as_object_mut().unwrap().remove("email");
    let signed_in = app
        .client
        .call(
            Method::POST,
            "/api/reviews/create/",
            Some(&app.customer),
            Some(body.clone()),
        )
        .await;
    assert_eq!(signed_in.status, StatusCode::CREATED, "{}", signed_in.body);
    assert!(verified(&signed_in.body));
    assert_eq!(
        stored_review(&app, &signed_in.body["_id"]).await["email"],
        "shopper@example.com"
    );
    // The same buyer's second review of the drink is shown, unverified: one verified review each.
    let second = app
        .client
        .call(
            Method::POST,
            "/api/reviews/create/",
            Some(&app.customer),
            Some(body.clone()),
        )
        .await;
    assert_eq!(second.status, StatusCode::CREATED);
    assert!(!verified(&second.body));
    // Signed in, but never bought mango: unverified, and nothing is mailed.
    body["products"] = json!(app.mango);
    let other = app
        .client
        .call(
            Method::POST,
            "/api/reviews/create/",
            Some(&app.customer),
            Some(body),
        )
        .await;
    assert_eq!(other.status, StatusCode::CREATED);
    assert!(!verified(&other.body));
    assert!(app.confirmations_to("shopper@example.com").await.is_empty());
    // A token that is sent must be good.
    let forged = app
        .client
        .call(
            Method::POST,
            "/api/reviews/create/",
            Some(&testkit::forged_token("shopper@example.com")),
            Some(review_of(&app.cola, 5, "Shopper Person")),
        )
        .await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_delivered_emails_link_writes_a_verified_review_without_an_address() {
    let app = spawn_app().await;
    let order = app
        .order("layla@example.com", &app.cola, orders::Status::Delivered)
        .await;
    let token = app.invitation(&order, &app.cola);
    let invitation = app
        .get(&format!("/api/reviews/invitation/?token={token}"))
        .await;
    assert_eq!(invitation.status, StatusCode::OK, "{}", invitation.body);
    assert_eq!(
        invitation.body,
        json!({"fullname": "Amira Haddad", "products": app.cola, "productName": "A drink"})
    );
    let body = json!({
        "rating": 5, "comment": "Just as I hoped it would be.", "fullname": "Amira Haddad",
        "products": app.cola, "token": token,
    });
    let written = app.write(body.clone()).await;
    assert!(verified(&written), "{written}");
    assert_eq!(
        stored_review(&app, &written["_id"]).await["email"],
        "layla@example.com"
    );
    // The link again: shown, but one verified review per buyer and drink.
    let again = app.write(body.clone()).await;
    assert!(!verified(&again));

    // A link for another drink, a forged or expired one, or one whose order is no purchase.
    let pending = app
        .order("pending@example.com", &app.cola, orders::Status::Pending)
        .await;
    let mut wrong_drink = body.clone();
    wrong_drink["products"] = json!(app.mango);
    let cases = [
        (wrong_drink, "products: this link is for another drink"),
        (
            json!({"rating": 5, "comment": "Just as I hoped.", "fullname": "Amira Haddad",
                   "products": app.cola, "token": app.invitation(&pending, &app.cola)}),
            reviews::proof::BAD_LINK,
        ),
        (
            json!({"rating": 5, "comment": "Just as I hoped.", "fullname": "Amira Haddad",
                   "products": app.cola, "token": app.invitation(&order, &app.mango)}),
            reviews::proof::BAD_LINK,
        ),
        (
            json!({"rating": 5, "comment": "Just as I hoped.", "fullname": "Amira Haddad",
                   "products": app.cola,
                   "token": app.links.invitations.token(&order, &app.cola, shared::time::now_unix() - 1)}),
            reviews::proof::BAD_LINK,
        ),
    ];
    for (body, message) in cases {
        for route in ["/api/reviews/create/", "/api/reviews/x/"] {
            let reply = app.post(route, body.clone()).await;
            assert_eq!(
                reply.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{route} {body}: {}",
                reply.body
            );
            assert_eq!(reply.body["message"], message, "{route} {body}");
        }
    }
    let bad = app.get("/api/reviews/invitation/?token=x.y.z.w").await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.summary().await["Thecount"], 2);
}

#[tokio::test]
async fn paid_shipped_and_delivered_orders_are_purchases_and_the_others_are_not() {
    let app = spawn_app().await;
    for (status, expected) in [
        (orders::Status::Pending, false),
        (orders::Status::Expired, false),
        (orders::Status::Refunded, false),
        (orders::Status::Paid, true),
        (orders::Status::Shipped, true),
        (orders::Status::Delivered, true),
    ] {
        let email = testkit::new_email("status");
        app.order(&email, &app.cola, status).await;
        let written = app.write(typed(&email, &app.cola)).await;
        assert!(!verified(&written));
        let mailed = app.confirmation_token(&email).await;
        assert_eq!(mailed.is_some(), expected, "{status:?}");
        if let Some(token) = mailed {
            let reply = confirm(&app, &token).await;
            assert_eq!(reply.status, StatusCode::OK);
            assert!(verified(&stored_review(&app, &written["_id"]).await));
        }
    }
}
