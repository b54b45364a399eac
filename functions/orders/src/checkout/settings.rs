//! What the checkout needs before the shopper types anything: Stripe's publishable key and script, and the
//! delivery terms every order is priced by.

use crate::AppState;
use axum::extract::State;
use shared::money::Pence;
use shared::Json;

/// What the checkout needs to draw Stripe's card fields.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct PaymentSettings {
    /// Stripe's publishable key (empty when none is set).
    #[serde(rename = "publishableKey")]
    publishable_key: String,
    /// Where Stripe.js is loaded from.
    #[serde(rename = "jsUrl")]
    js_url: String,
    /// The UK delivery charge in pounds, as every order is priced (the one source for every page that
    /// names it: drink pages, cards, the basket, the delivery policy, the checkout).
    #[serde(rename = "deliveryFee")]
    delivery_fee: Pence,
    /// Delivery is free from this basket value in pounds, after the code's discount.
    #[serde(rename = "freeDeliveryFrom")]
    free_delivery_from: Pence,
}

/// What the checkout needs to draw Stripe's card fields, and the delivery terms every order is priced by.
pub async fn show_payment_settings(State(state): State<AppState>) -> Json<PaymentSettings> {
    Json(PaymentSettings {
        publishable_key: state.payment_settings.publishable_key.clone(),
        js_url: state.payment_settings.js_url.clone(),
        delivery_fee: state.delivery.fee,
        free_delivery_from: state.delivery.free_from,
    })
}
