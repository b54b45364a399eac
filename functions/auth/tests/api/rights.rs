//! Data rights: a customer downloads what the shop holds about them, and erases it with an e-mailed code;
//! afterwards no table names the address, the orders keep their totals and VAT, and the address logs in
//! again as a new customer with nothing. Addresses are found by keys made from the address whole: of two
//! addresses where one contains the other, an export or an erasure of either touches nothing of the other.

use crate::helpers::{latest_code, new_email, spawn_app, wrong, TestApp};
use aws_sdk_dynamodb::types::AttributeValue;
use http::{Method, StatusCode};
use serde_json::json;
use shared::dynamo::{n, s, Item};
use shared::personal::tagged;
use std::collections::{BTreeMap, BTreeSet};

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

fn an_order(id: &str, email: &str, status: orders::Status) -> orders::Order {
    orders::Order {
        id: id.into(),
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
        card_mark: None,
        status,
        fullname: "Layla Haddad".into(),
        address: "12 Olive Street, Leeds".into(),
        delivery: Some(
            shared::validation::UkAddress::parse("12 Olive Street", "", "Leeds", "LS6 2QT")
                .unwrap(),
        ),
        age_check: false,
        phone: "07700 900123".into(),
        email: email.into(),
        message: String::new(),
        card_brand: "visa".into(),
        card_last4: "4242".into(),
        payment_intent: format!("pi_{id}"),
        hold_until: 0,
        created_at: "2026-11-20T10:00:00Z".into(),
        updated_at: "2026-11-20T10:00:00Z".into(),
        history: Vec::new(),
        idempotency_key: None,
        refund_id: None,
        client: None,
        carrier: None,
        tracking_number: None,
        terms_version: None,
        unpaid_counted: false,
        archived_at: None,
        version: 1,
    }
}

/// Everything the other functions store about a customer, each item as its owner writes it (keys made from
/// the address, the `person` tag where the owner tags): an order that has ended with its customer entry and
/// unpaid counter, a review with its verified mark and window, a subscriber, a sign-up waiting and its
/// window, a code's once-per-address mark, a queued mail, a mailing's delivery record, the day's mail
/// counter, a contact message and its window, a back-in-stock alert and its window.
async fn shop_history(app: &TestApp, email: &str, tag: &str) {
    let tables = &app.state.data_tables;
    let order_id = format!("order-{tag}");
    put(
        app,
        &tables.orders,
        an_order(&order_id, email, orders::Status::Delivered).to_item(),
    )
    .await;
    let mut customer = orders::personal::customer_key(email);
    customer.insert("email".into(), s(email));
    put(app, &tables.orders, customer).await;
    let mut unpaid = orders::personal::open_unpaid_key(&format!("email#{email}"));
    unpaid.insert("open".into(), n(0));
    put(app, &tables.orders, unpaid).await;

    let review = tagged(
        Item::from([
            ("pk".into(), s(format!("REVIEW#r-{tag}"))),
            ("sk".into(), s("REVIEW")),
            ("email".into(), s(email)),
            ("fullname".into(), s("Layla Haddad")),
            ("comment".into(), s(format!("Lovely cola, says {tag}"))),
            ("rating".into(), n(5)),
        ]),
        email,
    );
    put(app, &tables.reviews, review).await;
    put(app, &tables.reviews, reviews::proof::mark_key(email, "p1")).await;
    let window = |scope: &str| {
        let mut item = shared::rate::email_window(scope, email);
        item.insert("sent".into(), AttributeValue::L(vec![n(1)]));
        item
    };
    put(app, &tables.reviews, window("REVIEW")).await;

    let lists: Vec<String> = LISTS.iter().map(|l| (*l).to_owned()).collect();
    put(
        app,
        &tables.subscription,
        newsletter::stored_subscriber(email, &lists, 1).unwrap(),
    )
    .await;
    let pending = newsletter::signup::Pending {
        id: newsletter::subscriber_id(email).unwrap(),
        email: email.into(),
        fullname: "Layla Haddad".into(),
        lists: vec!["Offers".into()],
        expires_at: shared::time::now_unix() + 3600,
        sent_at: shared::time::now_unix(),
    };
    put(app, &tables.subscription, pending.to_item()).await;
    put(app, &tables.subscription, window("SUBSCRIBE")).await;

    put(
        app,
        &tables.codes,
        discounts::use_mark("WELCOME", email, &order_id),
    )
    .await;

    put(
        app,
        &tables.mail,
        tagged(
            Item::from([
                ("pk".into(), s(format!("OUTBOX#m-{tag}"))),
                ("sk".into(), s("OUTBOX")),
                ("to".into(), s(email)),
                ("subject".into(), s("Your order")),
                ("text".into(), s(format!("Hello {email}"))),
            ]),
            email,
        ),
    )
    .await;
    put(
        app,
        &tables.mail,
        tagged(
            Item::from([
                ("pk".into(), s("DELIVERY#summer")),
                ("sk".into(), s(email)),
                ("state".into(), s("sent")),
            ]),
            email,
        ),
    )
    .await;
    let mut budget = shared::mail_budget::address_keys(email, shared::time::now_unix()).remove(0);
    budget.insert("sent".into(), n(2));
    put(app, &tables.mail, budget).await;

    put(
        app,
        &tables.content,
        tagged(
            Item::from([
                ("pk".into(), s(format!("FEEDBACK#f-{tag}"))),
                ("sk".into(), s("FEEDBACK")),
                ("email".into(), s(email)),
                ("fullname".into(), s("Layla Haddad")),
                ("message".into(), s("Where is my order?")),
            ]),
            email,
        ),
    )
    .await;
    let mut feedback_window = content::feedback::rate_key(email);
    feedback_window.insert("sent".into(), AttributeValue::L(vec![n(1)]));
    put(app, &tables.content, feedback_window).await;

    put(
        app,
        &tables.catalog,
        Item::from([
            ("pk".into(), s("ALERT#p1")),
            ("sk".into(), s(format!("EMAIL#{email}"))),
            ("email".into(), s(email)),
            ("gsi1pk".into(), s(catalog::alerts::alerts_of(email))),
            ("gsi1sk".into(), s("p1")),
        ]),
    )
    .await;
    put(app, &tables.catalog, window("ALERT")).await;
}

/// The shared counters no person owns.
async fn shop_counters(app: &TestApp) {
    put(
        app,
        &app.state.data_tables.subscription,
        Item::from([
            ("pk".into(), s("LISTCOUNT")),
            ("sk".into(), s("Newsletter")),
            ("subscribers".into(), n(2)),
        ]),
    )
    .await;
}

/// Every item of every table the function reaches, by table and key.
async fn everything(app: &TestApp) -> BTreeMap<(String, String, String), Item> {
    let tables = &app.state.data_tables;
    let mut all = BTreeMap::new();
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
        let mut start = None;
        loop {
            let page = app
                .state
                .auth
                .users
                .client()
                .scan()
                .table_name(table)
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            for item in page.items.unwrap_or_default() {
                let text = |name: &str| shared::personal::text(&item, name).to_owned();
                all.insert((table.clone(), text("pk"), text("sk")), item);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
    }
    all
}

/// Every address-like word in a value: its text split wherever an address cannot go on (`#`, spaces,
/// markup, punctuation), so `ALERTS-OF#jimbo@x.org` holds `jimbo@x.org` and not `bo@x.org`.
fn words(value: &AttributeValue, into: &mut BTreeSet<String>) {
    match value {
        AttributeValue::S(text) => into.extend(
            text.split(|c: char| !(c.is_ascii_alphanumeric() || "@._+-".contains(c)))
                .map(|w| w.trim_matches('.').to_lowercase()),
        ),
        AttributeValue::L(values) => values.iter().for_each(|v| words(v, into)),
        AttributeValue::M(fields) => fields.values().for_each(|v| words(v, into)),
        AttributeValue::Ss(texts) => texts
            .iter()
            .for_each(|t| words(&AttributeValue::S(t.clone()), into)),
        _ => {}
    }
}

fn names(item: &Item, email: &str) -> bool {
    let mut found = BTreeSet::new();
    item.values().for_each(|v| words(v, &mut found));
    found.contains(email)
}

fn json_names(value: &serde_json::Value, email: &str) -> bool {
    let mut found = BTreeSet::new();
    words(&AttributeValue::S(value.to_string()), &mut found);
    found.contains(email)
}

async fn erase_with_code(app: &TestApp, token: &str, email: &str) -> crate::helpers::Reply {
    let asked = app
        .call(Method::POST, "/api/user/erase/request/", Some(token), None)
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    let code = latest_code(email).expect("an erasure code was e-mailed");
    app.call(
        Method::POST,
        "/api/user/erase/confirm/",
        Some(token),
        Some(json!({ "code": code })),
    )
    .await
}

/// For each pair where one address contains the other, either way round: the export of one holds nothing
/// of the other, and its erasure leaves every item of the other exactly as it was, in every table.
#[tokio::test]
async fn an_export_or_an_erasure_of_an_address_inside_another_touches_nothing_of_the_other() {
    let unique = uuid::Uuid::new_v4().simple().to_string()[..8].to_owned();
    let pairs = [
        (
            format!("bo@example-{unique}.org"),
            format!("jimbo@example-{unique}.org"),
        ),
        (format!("jo@x-{unique}.com"), format!("anjo@x-{unique}.com")),
        (
            format!("a@shop-{unique}.co"),
            format!("a@shop-{unique}.co.uk"),
        ),
    ];
    for (short, long) in &pairs {
        for (erased, kept) in [(short, long), (long, short)] {
            let app = spawn_app().await;
            let erased_token = app.log_in(erased).await;
            let kept_token = app.log_in(kept).await;
            shop_history(&app, erased, "erased").await;
            shop_history(&app, kept, "kept").await;
            shop_counters(&app).await;

            for (token, me, other) in [(&erased_token, erased, kept), (&kept_token, kept, erased)] {
                let export = app
                    .call(Method::GET, "/api/user/export/", Some(token), None)
                    .await;
                assert_eq!(export.status, StatusCode::OK, "{}", export.body);
                let data = &export.body;
                assert_eq!(data["orders"].as_array().unwrap().len(), 1, "{data:#}");
                assert_eq!(data["reviews"].as_array().unwrap().len(), 1, "{data:#}");
                assert_eq!(
                    data["subscriptions"].as_array().unwrap().len(),
                    2,
                    "{data:#}"
                );
                assert_eq!(data["alerts"].as_array().unwrap().len(), 1, "{data:#}");
                assert_eq!(data["contactMessages"].as_array().unwrap().len(), 1);
                assert_eq!(data["discountCodes"][0]["code"], "WELCOME");
                assert_eq!(data["mail"].as_array().unwrap().len(), 2, "{data:#}");
                assert!(!data["loginHistory"].as_array().unwrap().is_empty());
                assert!(json_names(data, me));
                assert!(
                    !json_names(data, other),
                    "{me}'s export names {other}: {data:#}"
                );
            }

            let before = everything(&app).await;
            let theirs: Vec<_> = before
                .iter()
                .filter(|(_, item)| names(item, kept))
                .collect();
            // The kept address has something in every table.
            let tables: BTreeSet<&String> = theirs.iter().map(|((table, _, _), _)| table).collect();
            assert_eq!(tables.len(), 8, "{tables:?}");
            assert!(before.values().any(|item| names(item, erased)));

            let done = erase_with_code(&app, &erased_token, erased).await;
            assert_eq!(done.status, StatusCode::OK, "{}", done.body);
            assert_eq!(done.body["finished"], true);
            assert_eq!(done.body["erased"]["orders"], 1);
            assert_eq!(done.body["erased"]["reviews"], 1);
            assert_eq!(done.body["erased"]["subscriptions"], 1);

            let after = everything(&app).await;
            for (key, item) in theirs {
                assert_eq!(
                    after.get(key),
                    Some(item),
                    "erasing {erased} changed {kept}'s {key:?}"
                );
            }
            let left: Vec<_> = after
                .iter()
                .filter(|(_, item)| names(item, erased))
                .map(|(key, _)| key)
                .collect();
            assert!(left.is_empty(), "{erased} is still named by {left:#?}");
            // The other still signs in and sees all of theirs.
            let export = app
                .call(Method::GET, "/api/user/export/", Some(&kept_token), None)
                .await;
            assert_eq!(export.status, StatusCode::OK);
            assert_eq!(export.body["orders"].as_array().unwrap().len(), 1);
        }
    }
}

#[tokio::test]
async fn a_customer_downloads_their_data_then_erases_it_with_a_code() {
    let app = spawn_app().await;
    let email = new_email("layla");
    let token = app.log_in(&email).await;
    shop_history(&app, &email, "one").await;
    shop_counters(&app).await;

    let export = app
        .call(Method::GET, "/api/user/export/", Some(&token), None)
        .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    let data = &export.body;
    assert_eq!(data["email"], email.as_str());
    assert_eq!(data["profile"]["email"], email.as_str());
    assert_eq!(data["orders"][0]["address"], "12 Olive Street, Leeds");
    assert_eq!(data["orders"][0]["lines"][0]["name"], "Cola");
    assert_eq!(data["reviews"][0]["comment"], "Lovely cola, says one");
    assert_eq!(data["subscriptions"][0]["lists"], json!(["Newsletter"]));
    assert_eq!(data["alerts"][0]["drink"], "p1");
    assert!(data["limits"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["limit"] == "data downloads"));
    let text = export.body.to_string();
    for secret in ["codeHash", "tokenVersion", "\"person\"", "\"pk\""] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // The code is e-mailed; a wrong one changes nothing.
    let asked = app
        .call(Method::POST, "/api/user/erase/request/", Some(&token), None)
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert_eq!(asked.body["waitingOrders"], json!([]));
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
    assert!(everything(&app).await.values().any(|i| names(i, &email)));

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
    let all = everything(&app).await;
    let left: Vec<_> = all.iter().filter(|(_, i)| names(i, &email)).collect();
    assert!(left.is_empty(), "{left:#?}");
    // The order is kept for the accounts, totals and VAT included; the person is out of it.
    let order = &all[&(
        app.state.data_tables.orders.clone(),
        "ORDER#order-one".to_owned(),
        "ORDER".to_owned(),
    )];
    assert_eq!(order["totalPence"], AttributeValue::N("3598".into()));
    assert_eq!(order["vatPence"], AttributeValue::N("600".into()));
    assert_eq!(order["fullname"], s("Erased customer"));
    assert!(!format!("{order:?}").contains("Olive Street"));
    assert!(!format!("{order:?}").contains("LS6 2QT"));
    assert!(!format!("{order:?}").contains("07700"));
    // The review stays without its author.
    let review = &all[&(
        app.state.data_tables.reviews.clone(),
        "REVIEW#r-one".to_owned(),
        "REVIEW".to_owned(),
    )];
    assert_eq!(review["fullname"], s("Former customer"));
    // The list count followed the subscriber out.
    let count = &all[&(
        app.state.data_tables.subscription.clone(),
        "LISTCOUNT".to_owned(),
        "Newsletter".to_owned(),
    )];
    assert_eq!(count["subscribers"], AttributeValue::N("1".into()));

    // The old session is over, and stays over for the address's next account; the address logs in again
    // as a new customer with nothing.
    let old = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let again = app.log_in(&email).await;
    let old = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED, "{}", old.body);
    let fresh = app
        .call(Method::GET, "/api/user/export/", Some(&again), None)
        .await;
    assert_eq!(fresh.status, StatusCode::OK, "{}", fresh.body);
    assert_eq!(fresh.body["orders"], json!([]));
    assert_eq!(fresh.body["reviews"], json!([]));

    // The audit keeps who asked and how much changed, never the address.
    let admin = app.log_in(&app.admin_email).await;
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.status, StatusCode::OK);
    assert_eq!(audit.body[0]["by"], "the customer");
    assert_eq!(audit.body[0]["finished"], true);
    assert_eq!(audit.body[0]["erased"]["orders"], 1);
    assert!(!audit.body.to_string().contains(&email));
}

#[tokio::test]
async fn an_erasure_cut_short_is_finished_by_the_next_request_with_nothing_erased_twice() {
    let app = spawn_app().await;
    let email = new_email("halfway");
    let token = app.log_in(&email).await;
    shop_history(&app, &email, "half").await;
    shop_counters(&app).await;

    // As if the function's time ran out after three of the steps.
    let progress = auth::rights::erase(
        &app.state,
        &email,
        "the customer",
        auth::rights::Allowance::steps(3),
    )
    .await
    .unwrap();
    assert_eq!(progress, auth::rights::Progress::Unfinished);
    let half = everything(&app).await;
    assert!(half.values().any(|i| names(i, &email)));
    // The session still works: the account goes last.
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(profile.status, StatusCode::OK);
    let admin = app.log_in(&app.admin_email).await;
    let listed = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(listed.body[0]["finished"], false);
    assert_eq!(listed.body[0]["email"], email.as_str());

    let done = erase_with_code(&app, &token, &email).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["finished"], true);
    // Counted once each, across the two calls.
    assert_eq!(done.body["erased"]["orders"], 1);
    assert_eq!(done.body["erased"]["reviews"], 1);
    assert_eq!(done.body["erased"]["subscriptions"], 1);
    let all = everything(&app).await;
    assert!(all.values().all(|i| !names(i, &email)));
    let count = &all[&(
        app.state.data_tables.subscription.clone(),
        "LISTCOUNT".to_owned(),
        "Newsletter".to_owned(),
    )];
    assert_eq!(count["subscribers"], AttributeValue::N("1".into()));
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    let entries = audit.body.as_array().unwrap();
    assert_eq!(entries.len(), 1, "{entries:#?}");
    assert_eq!(entries[0]["finished"], true);
}

#[tokio::test]
async fn an_erasure_waits_for_an_order_on_its_way_and_finishes_when_it_is_delivered() {
    let app = spawn_app().await;
    let email = new_email("waiting");
    let token = app.log_in(&email).await;
    shop_history(&app, &email, "done").await;
    let tables = &app.state.data_tables;
    let on_its_way = an_order("order-paid", &email, orders::Status::Paid);
    put(&app, &tables.orders, on_its_way.to_item()).await;

    let asked = app
        .call(Method::POST, "/api/user/erase/request/", Some(&token), None)
        .await;
    assert_eq!(asked.body["waitingOrders"][0]["_id"], "order-paid");
    assert!(asked.body["message"]
        .as_str()
        .unwrap()
        .contains("Order 10001 is still on its way"));
    let code = latest_code(&email).unwrap();
    let done = app
        .call(
            Method::POST,
            "/api/user/erase/confirm/",
            Some(&token),
            Some(json!({ "code": code })),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["erased"]["orders"], 1);
    assert_eq!(done.body["waitingOrders"][0]["status"], "paid");

    // The paid order keeps what the shop needs to deliver it; nothing else names the address.
    let all = everything(&app).await;
    let left: Vec<_> = all
        .iter()
        .filter(|(_, i)| names(i, &email))
        .map(|(key, _)| key.1.clone())
        .collect();
    assert_eq!(left, vec!["ORDER#order-paid".to_owned()]);
    let admin = app.log_in(&app.admin_email).await;
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.body[0]["waitingOrders"][0]["_id"], "order-paid");

    // Not yet: the expiry run leaves it while it is on its way.
    let db = app.state.auth.users.client();
    assert_eq!(
        orders::personal::finish_waiting(db, &tables.orders)
            .await
            .unwrap(),
        0
    );
    let mut delivered = on_its_way.clone();
    delivered.status = orders::Status::Delivered;
    let mut item = delivered.to_item();
    item.insert("erasureWaiting".into(), AttributeValue::Bool(true));
    put(&app, &tables.orders, item).await;
    assert_eq!(
        orders::personal::finish_waiting(db, &tables.orders)
            .await
            .unwrap(),
        1
    );
    assert!(everything(&app).await.values().all(|i| !names(i, &email)));
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.body[0]["waitingOrders"], json!([]));
}

#[tokio::test]
async fn downloads_and_wrong_erasure_codes_are_limited_per_day() {
    let app = spawn_app().await;
    let email = new_email("limits");
    let token = app.log_in(&email).await;
    for _ in 0..5 {
        let export = app
            .call(Method::GET, "/api/user/export/", Some(&token), None)
            .await;
        assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    }
    let refused = app
        .call(Method::GET, "/api/user/export/", Some(&token), None)
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("downloaded your data several times today"));

    // Nine wrong codes today already (from earlier codes): the tenth is the last.
    let day = shared::time::now_unix().div_euclid(86_400);
    put(
        &app,
        &app.table,
        Item::from([
            ("pk".into(), s(format!("ERASE#{email}"))),
            ("sk".into(), s(format!("WRONG#{day}"))),
            ("wrong".into(), n(9)),
        ]),
    )
    .await;
    let asked = app
        .call(Method::POST, "/api/user/erase/request/", Some(&token), None)
        .await;
    assert_eq!(asked.status, StatusCode::OK);
    let code = latest_code(&email).unwrap();
    let confirm = |code: String| {
        app.call(
            Method::POST,
            "/api/user/erase/confirm/",
            Some(&token),
            Some(json!({ "code": code })),
        )
    };
    assert_eq!(confirm(wrong(&code)).await.status, StatusCode::BAD_REQUEST);
    let blocked = confirm(code.clone()).await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        blocked.body
    );
    // Nothing was erased.
    let profile = app
        .call(Method::GET, "/api/user/profile/", Some(&token), None)
        .await;
    assert_eq!(profile.status, StatusCode::OK);
}

#[tokio::test]
async fn an_admin_erases_for_a_request_by_e_mail_but_not_their_own_account() {
    let app = spawn_app().await;
    let email = new_email("request");
    app.log_in(&email).await;
    shop_history(&app, &email, "req").await;
    shop_counters(&app).await;
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
    assert!(everything(&app).await.values().all(|i| !names(i, &email)));
    let audit = app
        .call(Method::GET, "/api/user/erasures/", Some(&admin), None)
        .await;
    assert_eq!(audit.body[0]["by"], format!("admin {}", app.admin_email));
}
