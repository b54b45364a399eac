//! The confirmation as the durable medium (the terms' key points, the statutory cancellation form in full,
//! who pays to send drinks back, how to complain, the company), and the version of the terms each order is
//! sold under.

use crate::helpers::{spawn_app, TestApp};
use shared::dynamo::s;

/// The site info as an admin saved it (vat.rs's, trading as `name`), with the company's details.
async fn company_site_info(app: &TestApp, name: &str) {
    crate::vat::site_info(app, 20, "").await;
    app.state
        .db
        .update_item()
        .table_name(&app.state.tables.content)
        .set_key(Some(content::store::site_key()))
        .update_expression("SET #name = :name, companyName = :company, companyNumber = :number, registeredOffice = :office")
        .expression_attribute_names("#name", "name")
        .expression_attribute_values(":name", s(name))
        .expression_attribute_values(":company", s("Fizz Drinks Ltd"))
        .expression_attribute_values(":number", s("01234567"))
        .expression_attribute_values(":office", s("2 Park Row, Leeds LS1 5AB"))
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn the_confirmation_holds_the_key_terms_the_model_form_return_costs_and_how_to_complain() {
    let app = spawn_app().await;
    company_site_info(&app, "Fizz").await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let id = app.paid_order(&soda, 1).await;
    let pending = testkit::outbox_pending(&app.state.outbox).await;
    let mail = &pending
        .iter()
        .find(|item| item.mail.mail.to == app.alice_email)
        .expect("the confirmation")
        .mail
        .mail;
    let site = testkit::SITE_URL;
    for expected in [
        "Fizz Drinks Ltd, company number 01234567, registered office 2 Park Row, Leeds LS1 5AB, trading as Fizz, 1 Mill Yard, Leeds LS1 1AA".to_owned(),
        "The key points of our terms".to_owned(),
        "The contract is in English".to_owned(),
        shared::consumer::RETURN_COSTS.to_owned(),
        "How to complain".to_owned(),
        "(Complete and return this form only if you wish to withdraw from the contract)".to_owned(),
        "To Fizz, 1 Mill Yard, Leeds LS1 1AA, hello@fizz.example:".to_owned(),
        "I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract of sale of the following goods".to_owned(),
        "Signature of consumer(s) (only if this form is notified on paper),".to_owned(),
        "[*] Delete as appropriate.".to_owned(),
        format!("{site}/drinks/policies/terms?version=1"),
    ] {
        assert!(mail.text.contains(&expected), "text: {expected} in {}", mail.text);
        let html = shared::mail::escape_html(&expected);
        assert!(mail.html.contains(&html), "html: {html} in {}", mail.html);
    }
    assert_eq!(app.order(&id).await["termsVersion"], 1);
}

#[tokio::test]
async fn each_order_records_the_version_of_the_terms_it_was_sold_under() {
    let app = spawn_app().await;
    company_site_info(&app, "Fizz").await;
    let soda = app.drink("Soda", 2.0, 20, 0).await;
    let first = app.paid_order(&soda, 1).await;
    let second = app.paid_order(&soda, 1).await;
    // The trading name changes the standard terms' words: the next order is sold under a new version.
    company_site_info(&app, "Fizz and Co").await;
    let third = app.paid_order(&soda, 1).await;
    let mut versions = Vec::new();
    for id in [&first, &second, &third] {
        versions.push(app.order(id).await["termsVersion"].clone());
    }
    assert_eq!(versions, [1, 1, 2]);
}
