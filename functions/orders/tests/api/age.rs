//! Age-restricted drinks: a basket with a drink over 150 mg of caffeine a litre asks the buyer's date of
//! birth, refuses a missing or under-age one before anything is charged or held, and marks the order for an
//! age check on delivery; the shop's site info sets the age or turns the check off.

use crate::helpers::{checkout, spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::dynamo::n;

async fn energy_drink(app: &TestApp) -> String {
    let reply = app
        .catalog
        .call(Method::POST, "/api/product/create/", Some(&app.admin), Some(json!({
            "name": "Night Shift", "price": 2.5, "qty": "12 x 250ml", "TheNumber": 10, "discount": 0,
            "caffeineMgPerLitre": 320})))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(reply.body["minimumAge"], 16);
    reply.body["_id"].as_str().unwrap().to_owned()
}

/// A date of birth `years` years and one day ago (or one day short of it, when `short`).
fn born(years: i32, short: bool) -> String {
    let today = time::OffsetDateTime::now_utc().date();
    let birthday = today
        .replace_year(today.year() - years)
        .unwrap_or_else(|_| {
            today
                .replace_day(28)
                .unwrap()
                .replace_year(today.year() - years)
                .unwrap()
        });
    let date = if short {
        birthday.next_day().unwrap()
    } else {
        birthday
    };
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        date.month() as u8,
        date.day()
    )
}

async fn quote(app: &TestApp, lines: Value) -> Value {
    let reply = app
        .orders
        .call(
            Method::POST,
            "/api/order/quote/",
            None,
            Some(json!({"product": lines})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

#[tokio::test]
async fn a_high_caffeine_basket_needs_a_buyer_of_sixteen_and_the_order_carries_an_age_check() {
    let app = spawn_app().await;
    let energy = energy_drink(&app).await;
    let cola = app.drink("Cola", 1.99, 10, 0).await;
    let basket = json!([{"product": cola, "qty": 1}, {"product": energy, "qty": 2}]);
    assert_eq!(quote(&app, basket.clone()).await["minimumAge"], 16);
    assert_eq!(
        quote(&app, json!([{"product": cola, "qty": 1}])).await["minimumAge"],
        json!(null)
    );

    let body = checkout(&app.alice_email, basket);
    let missing = app.place(body.clone()).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        missing.body["message"],
        "dateOfBirth: Night Shift is sold only to buyers aged 16 or over: enter your date of birth"
    );
    let mut young = body.clone();
    young["dateOfBirth"] = json!(born(16, true));
    let refused = app.place(young).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.body["message"],
        "You must be 16 or over to buy Night Shift: remove it from your basket to order the rest"
    );
    let mut malformed = body.clone();
    malformed["dateOfBirth"] = json!("30/04/2001");
    assert_eq!(
        app.place(malformed).await.body["message"],
        "dateOfBirth must be a date as YYYY-MM-DD, e.g. 2001-04-30"
    );
    assert_eq!(app.stock(&energy).await, 10, "nothing held");
    let listed = app.admin(Method::GET, "/api/order", None).await.body;
    assert_eq!(listed["product"], json!([]), "nothing written");

    let mut sixteen = body;
    sixteen["dateOfBirth"] = json!(born(16, false));
    let placed = app.place(sixteen).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let order = app.stored(placed.body.as_str().unwrap()).await;
    assert_eq!(order["ageCheck"], true);
    assert!(
        order.get("dateOfBirth").is_none(),
        "the date is checked, never kept"
    );
    assert_eq!(app.stock(&energy).await, 8);

    let plain = app.paid_order(&cola, 1).await;
    assert_eq!(app.stored(&plain).await["ageCheck"], false);
}

#[tokio::test]
async fn the_site_info_sets_the_age_or_turns_the_check_off() {
    let app = spawn_app().await;
    let energy = energy_drink(&app).await;
    let basket = json!([{"product": energy, "qty": 1}]);
    let set_age = |age: u32| {
        let mut site = content::store::site_key();
        site.insert("minimumAge".to_owned(), n(age));
        app.state
            .db
            .put_item()
            .table_name(&app.state.tables.content)
            .set_item(Some(site))
            .send()
    };
    set_age(18).await.unwrap();
    assert_eq!(quote(&app, basket.clone()).await["minimumAge"], 18);
    let mut body = checkout(&app.alice_email, basket.clone());
    body["dateOfBirth"] = json!(born(17, false));
    let refused = app.place(body).await;
    assert_eq!(
        refused.body["message"],
        "You must be 18 or over to buy Night Shift: remove it from your basket to order the rest"
    );

    set_age(0).await.unwrap();
    assert_eq!(quote(&app, basket.clone()).await["minimumAge"], json!(null));
    let placed = app.place(checkout(&app.alice_email, basket)).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    assert_eq!(
        app.stored(placed.body.as_str().unwrap()).await["ageCheck"],
        false
    );
}
