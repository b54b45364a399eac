//! Sign-up, the admin's subscribers and lists, delete, unsubscribe links, the admin guard and the limits.

use crate::helpers::{spawn_app, unsubscribe_path, welcome_of};
use http::{header, Method, Request, StatusCode};
use serde_json::json;
use testkit::new_email;

#[tokio::test]
async fn signing_up_twice_keeps_one_subscriber_and_merges_the_lists() {
    let app = spawn_app().await;
    let email = new_email("layla");
    let first = app
        .sign_up(json!({"email": format!("  {}  ", email.to_uppercase()), "fullname": "Layla"}))
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let second = app
        .sign_up(json!({"email": email, "lists": ["offers and new drinks"]}))
        .await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.body);
    // Nobody is on a list until the mailed link is followed (double opt-in); one link covers both.
    assert!(app.subscribers().await.is_empty());
    assert_eq!(
        app.queued(&email, "Confirm your subscription to Palestine Drinks")
            .await
            .len(),
        1,
        "a second sign-up within the hour mails no second confirmation"
    );
    app.confirm(&email).await;
    // The same answer for a new and a known address: the form does not tell who is subscribed.
    assert_eq!(first.body, second.body);
    assert!(first.body["message"]
        .as_str()
        .unwrap()
        .contains("unsubscribe at any time"));

    let all = app.subscribers().await;
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0]["email"], email);
    assert_eq!(all[0]["fullname"], "Layla");
    assert_eq!(
        all[0]["lists"],
        json!(["Newsletter", "Offers and new drinks"])
    );
    let lists = app.admin(Method::GET, "/api/sub/", None).await;
    assert_eq!(
        lists.body,
        json!([{"name": "Newsletter", "count": 1}, {"name": "Offers and new drinks", "count": 1}])
    );
    // One welcome, with an unsubscribe link, however often the address signs up.
    let welcomes = app.queued(&email, "Welcome to Palestine Drinks").await;
    assert_eq!(welcomes.len(), 1);
    assert!(welcomes[0]
        .0
        .contains("/api/subscription/unsubscribe/?token="));
    // Queued with the sign-up, one-click unsubscribe headers included, and put on the mail queue.
    let headers = &welcomes[0].1;
    assert!(headers
        .iter()
        .any(|(n, v)| n == "List-Unsubscribe-Post" && v == "List-Unsubscribe=One-Click"));
    assert!(app
        .jobs()
        .await
        .iter()
        .any(|job| matches!(job, shared::outbox::Job::Outbox { .. })));
}

#[tokio::test]
async fn bad_sign_ups_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    for (body, status, message) in [
        (
            json!({"email": "not-an-address"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "email must be a valid e-mail address",
        ),
        (
            json!({"email": "ok@example.com", "lists": ["Gossip"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "lists must be among: Newsletter, Offers and new drinks",
        ),
        (
            json!({"email": "ok@example.com", "fullname": "x".repeat(101)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "fullname must be at most 100 characters",
        ),
    ] {
        let reply = app.sign_up(body.clone()).await;
        assert_eq!(reply.status, status, "{body}");
        assert_eq!(reply.body["message"], message, "{body}");
    }
    let missing = app.sign_up(json!({"fullname": "No Address"})).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST, "{}", missing.body);
    assert!(app.subscribers().await.is_empty());
}

#[tokio::test]
async fn admins_page_subscribers_newest_first_and_delete_them() {
    let app = spawn_app().await;
    let emails: Vec<String> = (0..22).map(|n| new_email(&format!("p{n}"))).collect();
    for email in &emails {
        app.subscribe(email, &["Newsletter"]).await;
    }
    let first = app.admin(Method::GET, "/api/subscription/", None).await;
    assert_eq!(first.body["pages"], 2);
    assert_eq!(first.body["product"].as_array().unwrap().len(), 20);
    assert_eq!(first.body["product"][0]["email"], emails[21].as_str());
    assert_eq!(first.body["result"]["next"]["page"], 2);
    let all = app.subscribers().await;
    assert_eq!(all.len(), 22);
    assert_eq!(all[21]["email"], emails[0].as_str());

    let id = all[0]["_id"].as_str().unwrap().to_owned();
    let deleted = app
        .admin(
            Method::DELETE,
            &format!("/api/subscription/delete/{id}"),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(app.subscribers().await.len(), 21);
    for unknown in [id.as_str(), "x1"] {
        let again = app
            .admin(
                Method::DELETE,
                &format!("/api/subscription/delete/{unknown}"),
                None,
            )
            .await;
        assert_eq!(again.status, StatusCode::NOT_FOUND, "{unknown}");
        assert_eq!(again.body["message"], "No subscriber has this id");
    }
}

#[tokio::test]
async fn a_welcome_link_unsubscribes_and_a_forged_one_does_not() {
    let app = spawn_app().await;
    let stays = new_email("stays");
    let leaves = new_email("leaves");
    app.subscribe(&stays, &["Newsletter"]).await;
    app.subscribe(&leaves, &["Newsletter"]).await;
    let link = unsubscribe_path(&welcome_of(&app, &leaves).await);

    // Someone else's id with this signature, a made-up signature, and no token at all.
    let stays_id = app
        .subscribers()
        .await
        .iter()
        .find(|s| s["email"] == stays.as_str())
        .unwrap()["_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let signature = link.rsplit('.').next().unwrap();
    for forged in [
        format!("/api/subscription/unsubscribe/?token={stays_id}.{signature}"),
        format!(
            "/api/subscription/unsubscribe/?token={stays_id}.{}",
            "ab".repeat(32)
        ),
        "/api/subscription/unsubscribe/".to_owned(),
    ] {
        let reply = app.client.get(&forged).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{forged}");
        assert!(reply.body.as_str().unwrap().contains("not valid"));
    }
    assert_eq!(app.subscribers().await.len(), 2);

    let page = app.client.get(&link).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.as_str().unwrap().contains("You are unsubscribed"));
    let left = app.subscribers().await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["email"], stays.as_str());

    // Following the link again, asking for JSON, is harmless.
    let request = Request::builder()
        .uri(&link)
        .header(header::ACCEPT, "application/json")
        .body(axum::body::Body::empty())
        .unwrap();
    let again = app.client.send(request).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body, json!({"message": subscription_message()}));
}

fn subscription_message() -> &'static str {
    "You are unsubscribed: you will get no more e-mails from our mail lists."
}

#[tokio::test]
async fn admin_routes_refuse_missing_bad_and_customer_tokens() {
    let app = spawn_app().await;
    let routes = [
        (Method::GET, "/api/sub/"),
        (Method::GET, "/api/subscription/"),
        (Method::DELETE, "/api/subscription/delete/x1"),
        (Method::POST, "/api/subscription/mailer/"),
    ];
    for (method, uri) in routes {
        let body = Some(json!({}));
        let none = app
            .client
            .call(method.clone(), uri, None, body.clone())
            .await;
        assert_eq!(none.status, StatusCode::UNAUTHORIZED, "{method} {uri}");
        for (token, label) in testkit::bad_tokens("admin@example.com") {
            let reply = app
                .client
                .call(method.clone(), uri, Some(&token), body.clone())
                .await;
            assert_eq!(
                reply.status,
                StatusCode::UNAUTHORIZED,
                "{method} {uri} {label}"
            );
        }
        let customer = app
            .client
            .call(method.clone(), uri, Some(&app.customer), body.clone())
            .await;
        assert_eq!(customer.status, StatusCode::FORBIDDEN, "{method} {uri}");
    }
}

#[tokio::test]
async fn one_address_signs_up_five_times_an_hour() {
    let app = spawn_app().await;
    let email = new_email("eager");
    for n in 0..newsletter::LIMIT_PER_EMAIL {
        let written = if n % 2 == 0 {
            email.clone()
        } else {
            email.to_uppercase()
        };
        let reply = app
            .sign_up(json!({"email": written, "lists": ["Newsletter"]}))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }
    let refused = app.sign_up(json!({"email": email})).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("This e-mail address was signed up several times already: try again in"));
    // Someone else is not held up.
    app.subscribe(&new_email("other"), &["Newsletter"]).await;
}

#[tokio::test]
async fn one_viewer_address_signs_up_thirty_times_an_hour() {
    let app = spawn_app().await;
    let sign_up = |email: String| {
        let client = app.client.clone();
        async move {
            client
                .call_from(
                    "203.0.113.7",
                    Method::POST,
                    "/api/subscription/create/",
                    Some(json!({ "email": email })),
                )
                .await
        }
    };
    for _ in 0..newsletter::LIMIT_PER_IP {
        let reply = sign_up(new_email("crowd")).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }
    let refused = sign_up(new_email("crowd")).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Many sign-ups came from your network in the last hour"));
    // Each is waiting for its confirmation: none is on a list yet.
    assert!(app.subscribers().await.is_empty());
    // Another viewer behind the same CloudFront edge is not held up.
    let other = app
        .client
        .call_from(
            "198.51.100.20",
            Method::POST,
            "/api/subscription/create/",
            Some(json!({ "email": new_email("neighbour") })),
        )
        .await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.body);
}

/// A sign-up naming another host still mails a link to the shop's configured address.
#[tokio::test]
async fn the_welcome_link_points_at_the_configured_address_whatever_the_request_says() {
    let app = spawn_app().await;
    let email = new_email("victim");
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/subscription/create/")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::HOST, "evil.example")
        .header("x-forwarded-host", "evil.example")
        .body(axum::body::Body::from(
            json!({ "email": email }).to_string(),
        ))
        .unwrap();
    let reply = app.client.send(request).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let confirm = app.confirm_path(&email).await;
    assert!(confirm.starts_with("/confirm/subscription?token="));
    let mailed = app
        .queued(&email, "Confirm your subscription to Palestine Drinks")
        .await;
    assert!(mailed[0].0.contains(&format!(
        "{}/confirm/subscription?token=",
        testkit::SITE_URL
    )));
    app.confirm(&email).await;
    // The welcome is queued in the confirmation's transaction; its body is what the sender will send.
    let welcome = welcome_of(&app, &email).await;
    assert!(!welcome.contains("evil.example"), "{welcome}");
    assert!(
        welcome.contains(&format!(
            "{}/api/subscription/unsubscribe/?token=",
            testkit::SITE_URL
        )),
        "{welcome}"
    );
}

#[tokio::test]
async fn the_one_click_post_unsubscribes_and_a_forged_token_or_a_stray_post_does_not() {
    let app = spawn_app().await;
    let stays = new_email("stays");
    let leaves = new_email("leaves");
    app.subscribe(&stays, &["Newsletter"]).await;
    app.subscribe(&leaves, &["Newsletter"]).await;
    let link = unsubscribe_path(&welcome_of(&app, &leaves).await);
    let post = |uri: String, content_type: &'static str, body: &'static str| {
        Request::post(uri)
            .header(header::CONTENT_TYPE, content_type)
            .body(axum::body::Body::from(body))
            .unwrap()
    };
    let form = "application/x-www-form-urlencoded";

    // A forged signature, no token, and a POST without RFC 8058's body (a link scanner) change nothing.
    let forged = format!("{}{}", &link[..link.len() - 4], "abcd");
    for (request, status) in [
        (
            post(forged, form, "List-Unsubscribe=One-Click"),
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                "/api/subscription/unsubscribe/".to_owned(),
                form,
                "List-Unsubscribe=One-Click",
            ),
            StatusCode::BAD_REQUEST,
        ),
        (post(link.clone(), form, ""), StatusCode::BAD_REQUEST),
        (
            post(link.clone(), form, "unsubscribe=yes"),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let reply = app.client.send(request).await;
        assert_eq!(reply.status, status, "{}", reply.body);
        assert!(reply.body["message"].is_string(), "{}", reply.body);
    }
    assert_eq!(app.subscribers().await.len(), 2);

    // The mail client's POST: form-encoded, no cookie, no page; a second one is harmless.
    for _ in 0..2 {
        let reply = app
            .client
            .send(post(link.clone(), form, "List-Unsubscribe=One-Click"))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert!(reply.body["message"]
            .as_str()
            .unwrap()
            .contains("You are unsubscribed"));
    }
    let left: Vec<_> = app.subscribers().await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["email"], stays.as_str());

    // Multipart bodies, which some clients send, work too.
    let third = new_email("third");
    app.subscribe(&third, &["Newsletter"]).await;
    let link = unsubscribe_path(&welcome_of(&app, &third).await);
    let reply = app
        .client
        .send(post(
            link,
            "multipart/form-data; boundary=XyZ",
            "--XyZ\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--XyZ--\r\n",
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(app.subscribers().await.len(), 1);
}

#[tokio::test]
async fn a_complaint_unsubscribes_and_counts_once_on_its_mailing() {
    let app = spawn_app().await;
    let complains = new_email("complains");
    let bounces = new_email("bounces");
    let stays = new_email("stays");
    for email in [&complains, &bounces, &stays] {
        app.subscribe(email, &["Newsletter"]).await;
    }
    let sent = app
        .mail(
            json!({"MailList": ["Newsletter"], "data": {"subject": "Summer", "sections": [
            {"title": "Title", "description": "Text"}]}}),
        )
        .await;
    let mailing = sent.body["_id"].as_str().unwrap().to_owned();

    // As SES publishes them through SNS (raw delivery) to the feedback queue.
    let complaint = json!({"eventType": "Complaint",
        "complaint": {"complainedRecipients": [{"emailAddress": complains}]},
        "mail": {"tags": {"mailing": [mailing]}}});
    let bounce = json!({"Type": "Notification", "Message": json!({"eventType": "Bounce",
        "bounce": {"bounceType": "Permanent", "bouncedRecipients": [{"emailAddress": bounces}]},
        "mail": {"tags": {"mailing": [mailing]}}}).to_string()});
    let soft = json!({"eventType": "Bounce",
        "bounce": {"bounceType": "Transient", "bouncedRecipients": [{"emailAddress": stays}]}});
    let mut event = aws_lambda_events::event::sqs::SqsEvent::default();
    for (i, body) in [&complaint, &bounce, &soft, &complaint].iter().enumerate() {
        let mut record = aws_lambda_events::event::sqs::SqsMessage::default();
        record.message_id = Some(format!("m{i}"));
        record.body = Some(body.to_string());
        event.records.push(record);
    }
    let answer = newsletter::feedback::handle(&app.state, event).await;
    assert!(answer.batch_item_failures.is_empty());

    let left: Vec<_> = app.subscribers().await;
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0]["email"], stays.as_str());
    let counted = app
        .admin(
            Method::GET,
            &format!("/api/subscription/mailings/{mailing}"),
            None,
        )
        .await;
    // The complaint came twice (a redelivery) and counts once.
    assert_eq!(counted.body["complained"], 1, "{}", counted.body);
    assert_eq!(counted.body["bounced"], 1, "{}", counted.body);
}

/// An address past 254 characters is a 422 (it was a 500), and nothing is stored.
#[tokio::test]
async fn an_address_over_254_characters_is_refused() {
    let app = spawn_app().await;
    let reply = app
        .sign_up(json!({"email": format!("{}@example.com", "a".repeat(3_000))}))
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(
        reply.body["message"],
        "email must be at most 254 characters"
    );
    let listed = app.admin(Method::GET, "/api/subscription/", None).await;
    assert_eq!(listed.body["product"], json!([]), "{}", listed.body);
}

/// Double opt-in. A sign-up joins nothing and welcomes nobody until its link is followed; a link
/// works once, only for its address, and not after it expires.
#[tokio::test]
async fn a_sign_up_joins_only_through_its_link_once_before_it_expires() {
    let app = spawn_app().await;
    let email = new_email("optin");
    let reply = app.sign_up(json!({"email": email})).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    assert!(app.subscribers().await.is_empty());
    assert!(app
        .queued(&email, "Welcome to Palestine Drinks")
        .await
        .is_empty());
    let lists = app.admin(Method::GET, "/api/sub/", None).await;
    assert_eq!(lists.body[0]["count"], 0);

    let token = app.confirm_token(&email).await;
    // A mail scanner fetching the link (or an older mail's API address) confirms nothing.
    for fetched in [
        format!("/api/subscription/confirm/?token={token}"),
        app.confirm_path(&email).await,
    ] {
        let reply = app.client.call(Method::GET, &fetched, None, None).await;
        assert_ne!(reply.status, StatusCode::OK, "{fetched}");
    }
    assert!(app.subscribers().await.is_empty());
    let redirect = app
        .client
        .call(
            Method::GET,
            &format!("/api/subscription/confirm/?token={token}"),
            None,
            None,
        )
        .await;
    assert_eq!(redirect.status, StatusCode::SEE_OTHER);
    assert_eq!(
        redirect.headers["location"],
        format!("{}/confirm/subscription?token={token}", testkit::SITE_URL).as_str()
    );
    let forged = app.confirm_with(&format!("{token}0")).await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST);
    assert_eq!(forged.body["message"], newsletter::signup::BAD_CONFIRM);
    app.confirm(&email).await;
    assert_eq!(app.subscribers().await.len(), 1);
    assert_eq!(
        app.queued(&email, "Welcome to Palestine Drinks")
            .await
            .len(),
        1
    );
    let again = app.confirm_with(&token).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "a link works once");

    // An unconfirmed sign-up whose time ran out cannot be confirmed.
    let late = new_email("late");
    app.sign_up(json!({"email": late})).await;
    let late_token = app.confirm_token(&late).await;
    let id = newsletter::subscriber_id(&late).unwrap();
    app.state
        .store
        .client()
        .update_item()
        .table_name(app.state.store.table())
        .key("pk", shared::dynamo::s(format!("PENDING#{id}")))
        .key("sk", shared::dynamo::s("PENDING"))
        .update_expression("SET expiresAt = :past")
        .expression_attribute_values(":past", shared::dynamo::n(1))
        .send()
        .await
        .unwrap();
    let expired = app.confirm_with(&late_token).await;
    assert_eq!(expired.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.subscribers().await.len(), 1);
}
