//! VAT: prices include it at the site info's rate; each order keeps the rate and the VAT of its total,
//! rounded once; the month's results add it up; the confirmation is the durable record (VAT, trader,
//! cancellation, terms, receipt).

use crate::helpers::{checkout, spawn_app, TestApp};
use http::{Method, StatusCode};
use serde_json::json;
use shared::dynamo::{n, s};

/// The site info as an admin saved it (the content function owns the record; the orders function reads it).
pub async fn site_info(app: &TestApp, vat_rate: u32, vat_number: &str) {
    let mut item = content::store::site_key();
    item.extend([
        ("id".to_owned(), s("main")),
        ("name".to_owned(), s("Fizz Ltd")),
        ("address".to_owned(), s("1 Mill Yard, Leeds LS1 1AA")),
        ("email".to_owned(), s("hello@fizz.example")),
        ("vatRate".to_owned(), n(vat_rate)),
        ("vatNumber".to_owned(), s(vat_number)),
        ("deliveryEstimate".to_owned(), s("1 to 2 working days")),
        ("version".to_owned(), n(1)),
    ]);
    app.state
        .db
        .put_item()
        .table_name(&app.state.tables.content)
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn an_order_keeps_the_vat_of_its_total_rounded_once_and_a_discount_lowers_it() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    // No site info yet: the standard 20%. 2 x 2.00 + 4.99 delivery = 8.99, of which VAT 8.99 / 6 = 1.498.
    let id = app.paid_order(&soda, 2).await;
    let order = app.order(&id).await;
    assert_eq!(
        (order["vatRate"].clone(), order["vat"].clone()),
        (json!(20), json!(1.5))
    );

    // A 10% code: 3.60 + 4.99 = 8.59, VAT 1.4317 -> 1.43.
    app.code(json!({"code": "TEN", "discount": 10})).await;
    let mut body = checkout(&app.alice_email, json!([{"product": soda, "qty": 2}]));
    body["code"] = json!("TEN");
    let placed = app.place(body).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let discounted = app.order(placed.body.as_str().unwrap()).await;
    assert_eq!(discounted["total"], 8.59);
    assert_eq!(discounted["vat"], 1.43);

    let results = app.admin(Method::GET, "/api/order/results/", None).await;
    assert_eq!(
        results.body["results"][0]["totalVat"], 2.93,
        "{}",
        results.body
    );
    assert_eq!(results.body["results"][0]["totalPayments"], 17.58);
}

#[tokio::test]
async fn the_rate_comes_from_the_site_info_at_the_time_of_sale() {
    let app = spawn_app().await;
    site_info(&app, 5, "GB123456789").await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let id = app.paid_order(&soda, 1).await;
    let order = app.order(&id).await;
    // 2.00 + 4.99 = 6.99 at 5%: 6.99 x 5 / 105 = 0.3329.
    assert_eq!(
        (order["vatRate"].clone(), order["vat"].clone()),
        (json!(5), json!(0.33))
    );
    // A later change of rate leaves the order as it was sold.
    site_info(&app, 20, "").await;
    assert_eq!(app.order(&id).await["vatRate"], 5);
}

#[tokio::test]
async fn the_confirmation_carries_the_vat_the_trader_the_right_to_cancel_and_the_receipt() {
    let app = spawn_app().await;
    site_info(&app, 20, "GB123456789").await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let id = app.paid_order(&soda, 2).await;
    let mails = app.queued_mails(&app.alice_email).await;
    assert_eq!(mails.len(), 1);
    let html = &mails[0].1;
    let site = testkit::SITE_URL;
    for expected in [
        "VAT included".to_owned(),
        "£1.50 (at 20%)".to_owned(),
        "Fizz Ltd, 1 Mill Yard, Leeds LS1 1AA".to_owned(),
        "VAT number GB123456789".to_owned(),
        "1 to 2 working days".to_owned(),
        "within 14 days".to_owned(),
        format!("{site}/drinks/policies/returns#model-cancellation-form"),
        format!("{site}/drinks/policies/terms"),
        format!("{site}/order/{id}/receipt?key="),
    ] {
        assert!(html.contains(&expected), "{expected} in {html}");
    }
    assert!(
        mails[0].0.starts_with("Your Fizz Ltd order"),
        "{}",
        mails[0].0
    );
}
