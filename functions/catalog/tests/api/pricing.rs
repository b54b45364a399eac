//! Prices the law can check, and the label statements: the unit price, promotions between two days, the price
//! history with the genuine "was" price and the admin's reason, and the Annex III statements with the
//! sweetener check.

use crate::helpers::{drink, spawn_app, TestApp};
use catalog::pricing::{days, format_date, uk_day};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use shared::dynamo::{n, s};

async fn update(app: &TestApp, id: &str, body: Value) -> crate::helpers::Reply {
    app.call(
        Method::PUT,
        &format!("/api/product/update/{id}"),
        Some(&app.admin),
        Some(body),
    )
    .await
}

/// `GET /api/product/prices/{id}` with `token`.
async fn price_record(app: &TestApp, id: &str, token: Option<&str>) -> crate::helpers::Reply {
    app.call(
        Method::GET,
        &format!("/api/product/prices/{id}"),
        token,
        None,
    )
    .await
}

/// Moves each recorded price change of a drink back in time by the days given (oldest first), as if
/// they had been saved then.
async fn backdate(app: &TestApp, id: &str, ages_in_days: &[i64]) {
    let now = shared::time::now_unix();
    let mut update = String::from("SET ");
    let mut call = app
        .state
        .store
        .client()
        .update_item()
        .table_name(app.state.store.table())
        .key("pk", s(format!("PRODUCT#{id}")))
        .key("sk", s("PRODUCT"));
    for (index, age) in ages_in_days.iter().enumerate() {
        if index > 0 {
            update.push_str(", ");
        }
        update.push_str(&format!("priceHistory[{index}].#at = :at{index}"));
        call = call.expression_attribute_values(format!(":at{index}"), n(now - days(*age)));
    }
    call.update_expression(update)
        .expression_attribute_names("#at", "at")
        .send()
        .await
        .expect("history backdated");
}

#[tokio::test]
async fn every_drink_answers_the_price_of_a_litre_from_its_pack_label() {
    let app = spawn_app().await;
    let mut body = drink("Classic Cola", 17.99);
    body["qty"] = json!("24 x 330ml");
    let cola = app.create_drink(body).await;
    // £17.99 for 7.92 litres.
    assert_eq!(cola["pricePerLitre"], 2.27);
    // The unit price follows the price paid, discount included.
    let id = cola["_id"].as_str().unwrap();
    let cut = update(&app, id, json!({"discount": 50})).await;
    assert_eq!(cut.status, StatusCode::OK, "{}", cut.body);
    assert_eq!(
        (
            cut.body["Discountprice"].as_f64(),
            cut.body["pricePerLitre"].as_f64()
        ),
        (Some(9.0), Some(1.14))
    );
    let mut odd = drink("Mystery Case", 10.0);
    odd["qty"] = json!("A mixed case");
    assert_eq!(app.create_drink(odd).await["pricePerLitre"], Value::Null);
    // The shop's lists carry it too.
    let listed = app.get("/api/home/drinks/hom/uk/uk/").await;
    assert_eq!(listed.body["product"][0]["pricePerLitre"], 1.14);
}

#[tokio::test]
async fn a_reduction_shows_a_was_price_only_after_28_days_at_the_old_price() {
    let app = spawn_app().await;
    let created = app.create_drink(drink("Ginger Beer", 10.0)).await;
    let id = created["_id"].as_str().unwrap().to_owned();
    assert_eq!(created["wasPrice"], Value::Null);
    // Reduced at once: £10 was never charged long enough.
    let reduced = update(&app, &id, json!({"price": 8})).await;
    assert_eq!(reduced.body["wasPrice"], Value::Null);
    let record = price_record(&app, &id, Some(&app.admin)).await;
    assert_eq!(record.status, StatusCode::OK, "{}", record.body);
    assert_eq!(record.body["wasPrice"], Value::Null);
    let reason = record.body["reason"].as_str().unwrap();
    assert!(
        reason.contains("£10.00 was charged for 0 days") && reason.contains("28 days"),
        "{reason}"
    );
    let history: Vec<f64> = record.body["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|change| change["price"].as_f64().unwrap())
        .collect();
    assert_eq!(history, [8.0, 10.0], "newest first");
    // An edit that leaves the price alone records nothing.
    update(&app, &id, json!({"TheNumber": 3})).await;
    let record = price_record(&app, &id, Some(&app.admin)).await;
    assert_eq!(record.body["history"].as_array().unwrap().len(), 2);

    // Had £10 been charged for 40 days before the reduction ten days ago, it is the was price.
    backdate(&app, &id, &[50, 10]).await;
    let shown = app.get(&format!("/api/product/{id}")).await;
    assert_eq!(shown.body["wasPrice"], 10.0);
    assert_eq!(shown.body["Discountprice"], 8.0);
    let record = price_record(&app, &id, Some(&app.admin)).await;
    assert!(record.body["reason"]
        .as_str()
        .unwrap()
        .starts_with("Shown: £10.00 was charged from"));
    // Only an admin reads the record.
    assert_eq!(
        price_record(&app, &id, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        price_record(&app, &id, Some(&app.customer)).await.status,
        StatusCode::FORBIDDEN
    );
    // The price back up ends the reduction, and with it the was price.
    let back = update(&app, &id, json!({"price": 10})).await;
    assert_eq!(back.body["wasPrice"], Value::Null);
}

#[tokio::test]
async fn a_promotion_runs_from_its_first_day_to_its_last_and_the_admin_sets_both() {
    let app = spawn_app().await;
    let now = shared::time::now_unix();
    let today = format_date(uk_day(now));
    let tomorrow = format_date(uk_day(now + days(1)));
    let mut body = drink("Mango Passion", 10.0);
    body["discount"] = json!(20);
    body["promotionStart"] = json!(tomorrow);
    body["promotionEnd"] = json!(format_date(uk_day(now + days(14))));
    let planned = app.create_drink(body).await;
    // Not yet: the price paid is the full one until the first day.
    assert_eq!(
        (
            planned["Discountprice"].as_f64(),
            planned["promotionStart"].as_str()
        ),
        (Some(10.0), Some(tomorrow.as_str()))
    );
    let id = planned["_id"].as_str().unwrap().to_owned();
    let running = update(&app, &id, json!({"promotionStart": today})).await;
    assert_eq!(running.body["Discountprice"], 8.0);
    // A discount given without a first day starts today; an end before the start is refused.
    let mut plain = drink("Lemon & Lime", 5.0);
    plain["discount"] = json!(10);
    let plain = app.create_drink(plain).await;
    assert_eq!(
        (plain["promotionStart"].as_str(), &plain["promotionEnd"]),
        (Some(today.as_str()), &Value::Null)
    );
    let plain_id = plain["_id"].as_str().unwrap();
    let backwards = update(
        &app,
        plain_id,
        json!({"promotionEnd": format_date(uk_day(now - days(3)))}),
    )
    .await;
    assert_eq!(
        (backwards.status, backwards.body["message"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("promotionEnd must not be before promotionStart")
        )
    );
    let bad = update(&app, plain_id, json!({"promotionStart": "1 April"})).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Ending the discount ends the promotion.
    let over = update(&app, plain_id, json!({"discount": 0})).await;
    assert_eq!(
        (&over.body["promotionStart"], &over.body["promotionEnd"]),
        (&Value::Null, &Value::Null)
    );
}

#[tokio::test]
async fn a_drink_naming_a_sweetener_needs_the_sweetener_statement_and_high_caffeine_follows_the_caffeine(
) {
    let app = spawn_app().await;
    let mut body = drink("Zero Cola", 17.99);
    body["ingredients"] = json!(
        "Carbonated water, colour (caramel E150d), sweeteners (sucralose, acesulfame K), caffeine."
    );
    let refused = app
        .call(
            Method::POST,
            "/api/product/create/",
            Some(&app.admin),
            Some(body.clone()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = refused.body["message"].as_str().unwrap();
    assert!(
        message.starts_with("statements: the ingredients name a sweetener (sucralose)"),
        "{message}"
    );
    assert_eq!(app.product_count().await, 0, "nothing stored");

    body["statements"] = json!(["with-sweeteners"]);
    body["caffeineMgPerLitre"] = json!(320);
    let created = app.create_drink(body).await;
    assert_eq!(
        created["statements"],
        json!(["with-sweeteners", "high-caffeine"])
    );
    let id = created["_id"].as_str().unwrap().to_owned();

    // Aspartame in a later edit needs the phenylalanine statement too; the stored drink is unchanged.
    let aspartame = update(
        &app,
        &id,
        json!({"ingredients": "Water, sweeteners (aspartame, sucralose)."}),
    )
    .await;
    assert_eq!(aspartame.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(aspartame.body["message"]
        .as_str()
        .unwrap()
        .contains("pick phenylalanine"));
    assert_eq!(app.get(&format!("/api/product/{id}")).await.body, created);
    let fixed = update(
        &app,
        &id,
        json!({"ingredients": "Water, sweeteners (aspartame, sucralose).", "statements": ["phenylalanine", "with-sweeteners"],
            "caffeineMgPerLitre": 100}),
    )
    .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.body);
    assert_eq!(
        fixed.body["statements"],
        json!(["with-sweeteners", "phenylalanine"])
    );
    // Unknown ids, and high-caffeine on a drink without much caffeine, are refused.
    for (statements, start) in [
        (
            json!(["sugar-free"]),
            "statements: \"sugar-free\" is not a statement id",
        ),
        (
            json!(["with-sweeteners", "phenylalanine", "high-caffeine"]),
            "statements: high-caffeine is for a drink over 150 mg",
        ),
    ] {
        let reply = update(&app, &id, json!({"statements": statements})).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        let message = reply.body["message"].as_str().unwrap();
        assert!(message.starts_with(start), "{message}");
    }
}
