//! Tokens an attacker or a careless client would send, for the guard tests of every function. Compiled
//! only with the `emulator` feature (tests and the local gateway), never into a Lambda.

use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};

fn claims(email: &str, role: &str, exp_offset: i64) -> serde_json::Value {
    let now = crate::time::now_unix();
    serde_json::json!({"sub": email, "role": role, "iat": now - 60, "exp": now + exp_offset,
        "iss": "shop", "aud": "shop"})
}

/// Signed with the right secret, expired an hour ago.
pub fn expired_token(secret: &[u8], email: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims(email, "admin", -3600),
        &EncodingKey::from_secret(secret),
    )
    .expect("token encodes")
}

/// Well-formed but signed with another secret.
pub fn forged_token(email: &str) -> String {
    encode(
        &Header::new(Algorithm::HS256),
        &claims(email, "admin", 3600),
        &EncodingKey::from_secret(b"an-attacker-secret-an-attacker-secret"),
    )
    .expect("token encodes")
}

/// `alg: none`, no signature.
pub fn unsigned_token(claims: &serde_json::Value) -> String {
    fn b64(input: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in input.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..=chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            }
        }
        out
    }
    format!(
        "{}.{}.",
        b64(br#"{"alg":"none","typ":"JWT"}"#),
        b64(claims.to_string().as_bytes())
    )
}

/// `alg: none` for `email` as an admin.
pub fn unsigned_admin_token(email: &str) -> String {
    unsigned_token(&claims(email, "admin", 3600))
}

/// Every bad token with the status and message it must get.
pub fn bad_tokens(secret: &[u8], email: &str) -> Vec<(String, &'static str)> {
    vec![
        (expired_token(secret, email), "expired"),
        (forged_token(email), "forged"),
        (unsigned_admin_token(email), "alg none"),
        ("not.a.jwt".to_owned(), "garbage"),
    ]
}

/// Stores a user as the auth function would, so tests of other functions can sign people in.
pub async fn put_user(users: &crate::auth::Users, email: &str, role: crate::auth::Role) {
    let mut item = crate::auth::user_key(email);
    item.insert("email".to_owned(), crate::dynamo::s(email));
    item.insert("role".to_owned(), crate::dynamo::s(role.as_str()));
    item.insert("gsi1pk".to_owned(), crate::dynamo::s("USERS"));
    item.insert(
        "gsi1sk".to_owned(),
        crate::dynamo::s(format!("{}#{email}", crate::time::now_iso())),
    );
    item.insert(
        "createdAt".to_owned(),
        crate::dynamo::s(crate::time::now_iso()),
    );
    users
        .client()
        .put_item()
        .table_name(users.table())
        .set_item(Some(item))
        .send()
        .await
        .expect("user stored");
}
