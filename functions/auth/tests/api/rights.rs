//! Data rights: a customer downloads what the shop holds about them, and erases it with an
//! e-mailed code; afterwards no table names the address, the orders keep their totals and VAT, and the
//! address logs in again as a new customer with nothing.

use crate::helpers::{latest_code, new_email, spawn_app, wrong, TestApp};
use aws_sdk_dynamodb::types::AttributeValue;
use http::{Method, StatusCode};
use serde_json::json;
use shared::dynamo::{n, s, Item};

const LISTS: [&str; 1] = ["Newsletter"];

async fn put(app: &TestApp, table: &str, item: Item) {
    app.state
        .auth
        .users
        .client()
        .put_item()
        .table_name(table)
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
}

/// What the other functions would have stored for a customer: a paid order with its customer entry and
/// unpaid counter, a review, a subscription (with its list count), a code's once-per-address mark, a queued
/// mail and a contact-form rate window.
async fn shop_history(app: &TestApp, email: &str) {
    let tables = &app.state.data_tables;
    let order = orders::Order {
        id: "order-1".into(),
        number: Some(10_001),
        lines: vec![orders::Line {
            product: "p1".into(),
            name: "Cola".into(),
            image: String::new(),
            qty: 2,
            quantity: "24 x 330ml".into(),
            price_pence: 1_799,
        }],
        subtotal: shared::money::Pence::new(3_598).unwrap(),
        discount: shared::money::Pence::ZERO,
        shipping: shared::money::Pence::ZERO,
        total: shared::money::Pence::new(3_598).unwrap(),
        vat_rate: Some(20),
        vat: Some(shared::money::Pence::new(600).unwrap()),
        code: None,
        code_rate: shared::money::Percent::ZERO,
        code_marked: false,
        status: orders::Status::Paid,
        fullname: "Layla Haddad".into(),
        address: "12 Olive Street, Leeds".into(),
        delivery: Some(
            shared::validation::UkAddress::parse("12 Olive Street", "", "Leeds", "LS6 2QT")
                .unwrap(),
        ),
        age_check: false,
        phone: "07700 900123".into(),
        email: email.into(),
        message: "Leave it with the neighbour".into(),
        card_brand: "visa".into(),
        card_last4: "4242".into(),
        payment_intent: "pi_1".into(),
        hold_until: 0,
        idempotency_key: None,
        refund_id: None,
        client: Some("203.0.113.9".into()),
        carrier: None,
        tracking_number: None,
        history: Vec::new(),
        terms_version: None,
        archived_at: None,
        created_at: "2026-11-20T10:00:00Z".into(),
        updated_at: "2026-11-20T10:00:00Z".into(),
        version: 1,
    };
    put(app, &tables.orders, order.to_item()).await;
    put(
        app,
        &tables.orders,
        Item::from([
            ("pk".into(), s(format!("CUSTOMER#{email}"))),
            ("sk".into(), s("CUSTOMER")),
            ("email".into(), s(email)),
        ]),
    )
    .await;
    put(
        app,
        &tables.reviews,
        Item::from([
            ("pk".into(), s("REVIEW#r1")),
            ("sk".into(), s("REVIEW")),
            ("email".into(), s(email)),
            ("fullname".into(), s("Layla Haddad")),
            ("comment".into(), s("Lovely cola")),
            ("rating".into(), n(5)),
        ]),
    )
    .await;
    let lists: Vec<String> = LISTS.iter().map(|l| (*l).to_owned()).collect();
    put(
        app,
        &tables.subscription,
        subscription::stored_subscriber(email, &lists, 1).unwrap(),
    )
    .await;
    put(
        app,
        &tables.subscription,
        Item::from([
            ("pk".into(), s("LISTCOUNT")),
            ("sk".into(), s("Newsletter")),
            ("subscribers".into(), n(1)),
        ]),
    )
    .await;
    put(app, &tables.codes, codes::use_marker("WELCOME", email)).await;
    put(
        app,
        &tables.mail,
        Item::from([
            ("pk".into(), s("OUTBOX#m1")),
            ("sk".into(), s("OUTBOX")),
            ("to".into(), s(email)),
            ("subject".into(), s("Your order")),
        ]),
    )
    .await;
    put(
        app,
        &tables.content,
        Item::from([
            ("pk".into(), s(format!("FEEDBACK-RATE#email#{email}"))),
            ("sk".into(), s("RATE")),
        ]),
    )
    .await;
}

/// Every item of every table the function reaches, as text.
async fn everything(app: &TestApp) -> Vec<String> {
    let tables = &app.state.data_tables;
    let mut all = Vec::new();
    for table in [
        &app.table,
        &tables.orders,
        &tables.reviews,
        &tables.subscription,
        &tables.codes,
        &tables.content,
        &tables.mail,
        &tables.catalog,
    ] {
        let scanned = app
            .state
            .auth
            .users
            .client()
            .scan()
            .table_name(table)
            .send()
            .await
            .unwrap();
        all.extend(
            scanned
                .items
                .unwrap_or_default()
                .iter()
                .map(|item| format!("{table}: {item:?}")),
        );
    }
    all
}

#[tokio::test]
async fn a_customer_downloads_their_data_then_erases_it_with_a_code() {
    let app = spawn_app().await;
    let email = new_email("layla");
    let token = app.log_in(&email).await;
    shop_history(&app, &email).await;

    let export = app
        .call(Method::GET, "/api/user/export/", Some(&token), None)
        .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    let data = &export.body;
    assert_eq!(data["email"], email.as_str());
    assert_eq!(data["profile"]["email"], email.as_str());
    assert_eq!(data["orders"].as_array().unwrap().len(), 1);
    assert_eq!(data["orders"][0]["address"], "12 Olive Street, Leeds");
    assert_eq!(data["reviews"][0]["comment"], "Lovely cola");
    assert_eq!(data["subscriptions"][0]["lists"], json!(["Newsletter"]));
    assert!(!export.body.to_string().contains("codeHash"));

    // The code is e-mailed; a wrong one changes nothing.
    let asked = app
        .call(Method::POST, "/api/user/erase/request/", Some(&token), None)
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    let code = latest_code(&email).expect("an erasure code was e-mailed");
    let refused = app
        .call(
            Method::POST,
            "/api/user/erase/confirm/",
            Some(&token),
            Some(json!({"code": wrong(&code)})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(everything(&app).await.iter().any(|i| i.contains(&email)));

    let done = app
        .call(
            Method::POST,
            "/api/user/erase/confirm/",
            Some(&token),
            Some(json!({"code": code})),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["erased"]["orders"], 1);
    assert_eq!(done.body["erased"]["reviews"], 1);
    assert_eq!(done.body["erased"]["subscriptions"], 1);

    // Nothing names the address any more, anywhere.
    let left: Vec<String> = everything(&app)
        .await
        .into_iter()
        .filter(|item| item.contains(&email))
        .collect();
    assert!(left.is_empty(), "{left:#?}");
    // The order is kept for the accounts, totals and VAT included; the person is out of it.
    let order = app
        .state
        .auth
        .users
        .client()
        .get_item()
        .table_name(&app.state.data_tables.orders)
        .key("pk", s("ORDER#order-1"))
        .key("sk", s("ORDER"))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(order["totalPence"], AttributeValue::N("3598".into()));
    assert_eq!(order["vatPence"], AttributeValue::N("600".into()));
    assert_eq!(order["fullname"], s("Erased customer"));
    assert!(!format!("{order:?}").contains("Olive Street"));
    assert!(!format!("{order:?}").contains("LS6 2QT"));
    assert!(!format!("{order:?}").contains("07700"));
    // The list count followed the subscriber out.
    let count = app
        .state
        .auth
        .users
        .client()
        .get_item()
        .table_name(&app.state.data_tables.subscription)
        .key("pk", s("LISTCOUNT"))
        .key("sk", s("Newsletter"))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(count["subscribers"], AttributeValue::N("0".into()));

    // The old session is over; the address logs in again as a new customer with nothing.
    let old = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let again = app.log_in(&email).await;
    let fresh = app
        .call(Method::GET, "/api/user/export/", Some(&again), None)
        .await;
    assert_eq!(fresh.body["orders"], json!([]));
    assert_eq!(fresh.body["reviews"], json!([]));

    // The audit keeps who asked and how much changed, never the address.
    let admin = app.log_in(&app.admin_email).await;
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.status, StatusCode::OK);
    assert_eq!(audit.body[0]["by"], "the customer");
    assert_eq!(audit.body[0]["erased"]["orders"], 1);
    assert!(!audit.body.to_string().contains(&email));
}

#[tokio::test]
async fn an_admin_erases_for_a_request_by_e_mail_but_not_their_own_account() {
    let app = spawn_app().await;
    let email = new_email("request");
    app.log_in(&email).await;
    shop_history(&app, &email).await;
    let admin = app.log_in(&app.admin_email).await;
    let own = app
        .call(
            Method::POST,
            &format!("/api/user/erasure/{}", app.admin_email),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(own.status, StatusCode::UNPROCESSABLE_ENTITY);
    let done = app
        .call(
            Method::POST,
            &format!("/api/user/erasure/{email}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert!(everything(&app).await.iter().all(|i| !i.contains(&email)));
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.body[0]["by"], format!("admin {}", app.admin_email));
}
