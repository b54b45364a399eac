//! Every admin route of the catalog refuses callers without a valid admin token, and changes nothing.

use crate::helpers::{drink, spawn_app};
use shared::auth::Role;
use shared::routes::Access;
use testkit::bad_tokens;

fn concrete(path: &str) -> String {
    path.replace("{_id}", "00000000-0000-4000-8000-000000000000")
}

#[tokio::test]
async fn admin_routes_answer_401_or_403_without_an_admin_token() {
    let app = spawn_app().await;
    // A valid signature for someone who is not (or no longer) in the users table.
    let gone = app
        .keys
        .issue("gone@example.com", Role::Admin, 600)
        .unwrap();
    // Claims admin, but the users table says customer: the table wins.
    let claims_admin = app
        .keys
        .issue("shopper@example.com", Role::Admin, 600)
        .unwrap();
    let mut cases: Vec<(Option<String>, u16, &str)> = vec![
        (None, 401, "Not authorized"),
        (Some(gone), 401, "The person does not exist in the database"),
        (Some(app.customer.clone()), 403, "Only an admin can do this"),
        (Some(claims_admin), 403, "Only an admin can do this"),
    ];
    for (token, _) in bad_tokens("admin@example.com") {
        cases.push((Some(token), 401, "token failed"));
    }
    let admin_routes: Vec<_> = catalog::routes()
        .into_iter()
        .filter(|r| r.access == Access::Admin)
        .collect();
    assert!(admin_routes.len() >= 6);
    for route in admin_routes {
        let uri = concrete(route.path);
        for (token, status, message) in &cases {
            let reply = app
                .call(
                    route.method.clone(),
                    &uri,
                    token.as_deref(),
                    Some(drink("Guarded Cola", 1.0)),
                )
                .await;
            assert_eq!(
                reply.status.as_u16(),
                *status,
                "{} {uri} {token:?}",
                route.method
            );
            assert_eq!(reply.body["message"], *message, "{} {uri}", route.method);
        }
    }
    assert_eq!(app.product_count().await, 0);
}
