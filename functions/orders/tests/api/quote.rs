//! The quote and the total the shopper agreed to: the checkout shows the server's figures, and an order
//! whose total moved since is refused with the new ones before anything is charged or held.

use crate::helpers::{checkout, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_quote_prices_the_basket_as_the_order_is_charged() {
    let app = spawn_app().await;
    let cola = app.drink("Cola", 1.99, 20, 15).await;
    let lemon = app.drink("Lemon", 12.0, 20, 0).await;
    app.code(json!({"code": "TEN", "discount": 10})).await;
    let basket = json!([{"product": cola, "qty": 3}, {"product": lemon, "qty": "2"}]);
    let quote = app
        .orders
        .call(
            Method::POST,
            "/api/order/quote/",
            None,
            Some(json!({"product": basket, "code": "ten"})),
        )
        .await;
    assert_eq!(quote.status, StatusCode::OK, "{}", quote.body);
    // 3 x £1.69 + 2 x £12 = £29.07; 10% off is £2.91; £26.16 is below £40, so £4.99 delivery.
    assert_eq!(
        quote.body["lines"][0],
        json!({"product": cola, "name": "Cola", "quantity": "12 x 330ml", "qty": 3, "price": 1.69, "total": 5.07})
    );
    assert_eq!(quote.body["lines"][1]["total"], 24.0);
    assert_eq!(quote.body["subtotal"], 29.07);
    assert_eq!(quote.body["discount"], 2.91);
    assert_eq!(quote.body["codeRate"], 10);
    assert_eq!(quote.body["shipping"], 4.99);
    assert_eq!(quote.body["total"], 31.15);
    // VAT at 20% inside £31.15: £5.19.
    assert_eq!(
        (quote.body["vatRate"].clone(), quote.body["vat"].clone()),
        (json!(20), json!(5.19))
    );

    let mut order = checkout(&app.alice_email, basket);
    order["code"] = json!("TEN");
    order["expectedTotal"] = quote.body["total"].clone();
    let placed = app.place(order).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    let stored = app.stored(placed.body.as_str().unwrap()).await;
    assert_eq!(stored["total"], quote.body["total"]);
    assert_eq!(stored["vat"], quote.body["vat"]);
}

#[tokio::test]
async fn a_total_that_moved_since_the_quote_is_refused_with_the_new_figures_and_nothing_held() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 14.99, 10, 0).await;
    app.code(json!({"code": "HALF", "discount": 50, "maxUses": 5}))
        .await;
    let mut order = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    order["code"] = json!("HALF");
    // The shopper saw £7.50 + £4.99; the price goes up before they pay.
    order["expectedTotal"] = json!(12.49);
    let raised = app
        .catalog
        .call(
            Method::PUT,
            &format!("/api/product/update/{soda}"),
            Some(&app.admin),
            Some(json!({"price": 22.49})),
        )
        .await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.body);

    let refused = app.place(order.clone()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!(
        refused.body["message"],
        "The total is now £16.24 (you were shown £12.49): nothing was charged. Check the new figures and pay again."
    );
    assert_eq!(refused.body["quote"]["lines"][0]["price"], 22.49);
    assert_eq!(refused.body["quote"]["total"], 16.24);
    assert_eq!(app.stock(&soda).await, 10, "nothing held");
    assert_eq!(app.code_uses("HALF").await, 0);
    let listed = app.admin(Method::GET, "/api/order", None).await.body;
    assert_eq!(listed["product"], json!([]), "no order was written");

    // A penny off is still a different total; the new figure is accepted.
    order["expectedTotal"] = json!(16.23);
    assert_eq!(app.place(order.clone()).await.status, StatusCode::CONFLICT);
    order["expectedTotal"] = json!(16.24);
    let placed = app.place(order).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
    assert_eq!(app.stock(&soda).await, 9);
}

#[tokio::test]
async fn a_quote_refuses_what_an_order_would_refuse() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 2.0, 2, 0).await;
    let quote = |body: serde_json::Value| {
        let orders = app.orders.clone();
        async move {
            orders
                .call(Method::POST, "/api/order/quote/", None, Some(body))
                .await
        }
    };
    let missing = quote(json!({"product": [{"product": "no-such-drink", "qty": 1}]})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        missing.body["message"],
        "product no-such-drink does not exist"
    );
    let too_many = quote(json!({"product": [{"product": soda, "qty": 3}]})).await;
    assert_eq!(too_many.status, StatusCode::CONFLICT);
    assert_eq!(too_many.body["message"], "Only 2 of Soda left");
    let code = quote(json!({"product": [{"product": soda, "qty": 1}], "code": "NOPE"})).await;
    assert_eq!(code.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(code.body["message"], "code: this code does not exist");
    let empty = quote(json!({"product": []})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);

    let mut order = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
    order["expectedTotal"] = json!(6.999);
    let fraction = app.place(order).await;
    assert_eq!(fraction.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        fraction.body["message"],
        "expectedTotal must have at most 2 decimals"
    );
    assert_eq!(app.stock(&soda).await, 2);
}

#[tokio::test]
async fn an_order_in_the_contracts_shape_without_an_agreed_total_is_charged_todays_price() {
    let app = spawn_app().await;
    let soda = app.drink("Soda", 14.99, 10, 0).await;
    let raised = app
        .catalog
        .call(
            Method::PUT,
            &format!("/api/product/update/{soda}"),
            Some(&app.admin),
            Some(json!({"price": 22.49})),
        )
        .await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.body);
    // The order request as the API contract gives it: no quote, no `expectedTotal` (null is the same).
    for agreed in [None, Some(json!(null))] {
        let mut order = checkout(&app.alice_email, json!([{"product": soda, "qty": 1}]));
        assert!(order.get("expectedTotal").is_none());
        if let Some(agreed) = agreed {
            order["expectedTotal"] = agreed;
        }
        let placed = app.place(order).await;
        assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.body);
        let id = placed.body.as_str().unwrap();
        // £22.49 and £4.99 delivery, the server's price when it was placed.
        assert_eq!(app.stored(id).await["total"], 27.48);
        let intent = crate::helpers::intent_at_stripe(&app.intent_of(id).await);
        assert_eq!(intent["amount"], 2748);
    }
}
