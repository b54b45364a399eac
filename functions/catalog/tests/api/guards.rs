//! Every admin route of the catalog refuses callers without a valid admin token, and changes nothing.

use crate::helpers::{drink, spawn_app, TEST_SECRET};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use shared::routes::Access;

fn concrete(path: &str) -> String {
    path.replace("{_id}", "00000000-0000-4000-8000-000000000000")
}

#[tokio::test]
async fn admin_routes_answer_401_or_403_without_an_admin_token() {
    let app = spawn_app().await;
    let now = shared::time::now_unix();
    let expired = encode(
        &Header::new(Algorithm::HS256),
        &serde_json::json!({"sub": "admin@example.com", "role": "admin", "iat": now - 7200, "exp": now - 3600, "iss": "shop", "aud": "shop"}),
        &EncodingKey::from_secret(TEST_SECRET.as_bytes()),
    )
    .unwrap();
    let forged = encode(
        &Header::new(Algorithm::HS256),
        &serde_json::json!({"sub": "admin@example.com", "role": "admin", "iat": now, "exp": now + 3600, "iss": "shop", "aud": "shop"}),
        &EncodingKey::from_secret(b"not-the-secret-not-the-secret-not"),
    )
    .unwrap();
    let admin_routes: Vec<_> = catalog::routes()
        .into_iter()
        .filter(|r| r.access == Access::Admin)
        .collect();
    assert!(admin_routes.len() >= 6);
    for route in admin_routes {
        let uri = concrete(route.path);
        let body = Some(drink("Guarded Cola", 1.0));
        for (token, status, message) in [
            (None, 401, "Not authorized"),
            (Some(expired.as_str()), 401, "token failed"),
            (Some(forged.as_str()), 401, "token failed"),
            (Some("not.a.jwt"), 401, "token failed"),
            (
                Some(app.customer.as_str()),
                403,
                "Only an admin can do this",
            ),
        ] {
            let reply = app
                .call(route.method.clone(), &uri, token, body.clone())
                .await;
            assert_eq!(reply.status.as_u16(), status, "{} {uri}", route.method);
            assert_eq!(reply.body["message"], message, "{} {uri}", route.method);
        }
    }
    assert_eq!(app.product_count().await, 0);
}
