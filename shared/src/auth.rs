//! Bearer-token auth: HS256 JWTs with issuer, audience and expiry checked, and the `Customer` and `Admin`
//! extractors every protected handler takes. The failure messages are the ones the front end reacts to.

use crate::config::{optional, required, ConfigError, Lookup};
use crate::error::{ApiError, NOT_AUTHORIZED, TOKEN_FAILED};
use axum::extract::{FromRef, FromRequestParts};
use http::{header, request::Parts};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How long a token lives: a week, after which the shopper logs in again.
pub const TOKEN_TTL_SECONDS: i64 = 7 * 24 * 60 * 60;

/// Secrets shorter than this are refused at start-up: HS256 is only as strong as its key.
const MIN_SECRET_LEN: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Customer,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Customer => "customer",
            Role::Admin => "admin",
        }
    }
}

/// What a token says about its bearer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The user's e-mail address, lower case.
    pub sub: String,
    pub role: Role,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

/// Keys and checks for tokens; built once at cold start.
pub struct AuthKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
}

impl AuthKeys {
    pub fn new(secret: &[u8], issuer: &str, audience: &str) -> Self {
        // HS256 pinned: a token naming any other algorithm, `none` included, fails.
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        AuthKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
        }
    }

    /// `JWT_SECRET` (required, 32+ characters), `JWT_ISSUER` and `JWT_AUDIENCE` (default `shop`).
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let secret = required(env, "JWT_SECRET")?;
        if secret.len() < MIN_SECRET_LEN {
            return Err(ConfigError::Invalid {
                name: "JWT_SECRET",
                reason: format!("use at least {MIN_SECRET_LEN} characters"),
            });
        }
        Ok(AuthKeys::new(
            secret.as_bytes(),
            &optional(env, "JWT_ISSUER", "shop"),
            &optional(env, "JWT_AUDIENCE", "shop"),
        ))
    }

    /// Signs a token for `email` with `role`, valid for `ttl_seconds`.
    pub fn issue(&self, email: &str, role: Role, ttl_seconds: i64) -> Result<String, ApiError> {
        let now = crate::time::now_unix();
        let claims = Claims {
            sub: email.to_owned(),
            role,
            iat: now,
            exp: now + ttl_seconds,
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(ApiError::internal)
    }

    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|_| ApiError::unauthorized(TOKEN_FAILED))
    }
}

fn bearer(parts: &Parts) -> Result<&str, ApiError> {
    let value = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| ApiError::unauthorized(NOT_AUTHORIZED))?;
    let (scheme, token) = value
        .trim()
        .split_once(' ')
        .ok_or_else(|| ApiError::unauthorized(NOT_AUTHORIZED))?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(ApiError::unauthorized(NOT_AUTHORIZED));
    }
    Ok(token)
}

fn claims_from<S>(parts: &Parts, state: &S) -> Result<Claims, ApiError>
where
    Arc<AuthKeys>: FromRef<S>,
{
    let keys = Arc::<AuthKeys>::from_ref(state);
    keys.verify(bearer(parts)?)
}

/// Any signed-in user: a customer or an admin.
#[derive(Debug, Clone)]
pub struct Customer(pub Claims);

/// A signed-in admin; anyone else gets 403.
#[derive(Debug, Clone)]
pub struct Admin(pub Claims);

impl<S> FromRequestParts<S> for Customer
where
    S: Send + Sync,
    Arc<AuthKeys>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        claims_from(parts, state).map(Customer)
    }
}

impl<S> FromRequestParts<S> for Admin
where
    S: Send + Sync,
    Arc<AuthKeys>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let claims = claims_from(parts, state)?;
        if claims.role != Role::Admin {
            return Err(ApiError::forbidden("Only an admin can do this"));
        }
        Ok(Admin(claims))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::{Request, StatusCode};

    const SECRET: &[u8] = b"a-test-secret-that-is-long-enough-for-hs256";

    fn keys() -> Arc<AuthKeys> {
        Arc::new(AuthKeys::new(SECRET, "shop", "shop"))
    }

    fn parts(authorization: Option<&str>) -> Parts {
        let mut builder = Request::builder().uri("/");
        if let Some(value) = authorization {
            builder = builder.header(header::AUTHORIZATION, value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    async fn admin(authorization: Option<&str>) -> Result<Admin, ApiError> {
        Admin::from_request_parts(&mut parts(authorization), &keys()).await
    }

    async fn customer(authorization: Option<&str>) -> Result<Customer, ApiError> {
        Customer::from_request_parts(&mut parts(authorization), &keys()).await
    }

    fn token_with(claims: serde_json::Value, secret: &[u8], alg: Algorithm) -> String {
        encode(
            &Header::new(alg),
            &claims,
            &EncodingKey::from_secret(secret),
        )
        .unwrap()
    }

    fn claims(role: &str, exp_offset: i64) -> serde_json::Value {
        let now = crate::time::now_unix();
        serde_json::json!({"sub": "a@example.com", "role": role, "iat": now, "exp": now + exp_offset,
            "iss": "shop", "aud": "shop"})
    }

    #[tokio::test]
    async fn no_header_is_not_authorized() {
        let err = customer(None).await.unwrap_err();
        assert_eq!(err.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(err.message(), NOT_AUTHORIZED);
        assert_eq!(
            customer(Some("Basic abc")).await.unwrap_err().message(),
            NOT_AUTHORIZED
        );
        assert_eq!(
            customer(Some("Bearer ")).await.unwrap_err().message(),
            NOT_AUTHORIZED
        );
    }

    #[tokio::test]
    async fn an_issued_token_passes_for_its_role() {
        let token = keys().issue("a@example.com", Role::Admin, 60).unwrap();
        let Admin(claims) = admin(Some(&format!("Bearer {token}"))).await.unwrap();
        assert_eq!(claims.sub, "a@example.com");
        let token = keys().issue("b@example.com", Role::Customer, 60).unwrap();
        assert!(customer(Some(&format!("bearer {token}"))).await.is_ok());
    }

    #[tokio::test]
    async fn a_customer_on_an_admin_route_is_forbidden() {
        let token = keys().issue("b@example.com", Role::Customer, 60).unwrap();
        let err = admin(Some(&format!("Bearer {token}"))).await.unwrap_err();
        assert_eq!(err.status(), StatusCode::FORBIDDEN);
    }

    #[tokio::test]
    async fn expired_forged_and_unsigned_tokens_fail() {
        let expired = token_with(claims("admin", -3600), SECRET, Algorithm::HS256);
        let forged = token_with(
            claims("admin", 3600),
            b"another-secret-another-secret-xx",
            Algorithm::HS256,
        );
        let other_alg = token_with(claims("admin", 3600), SECRET, Algorithm::HS512);
        // alg none: header and claims with an empty signature.
        let none = {
            use base64_helpers::b64;
            format!(
                "{}.{}.",
                b64(br#"{"alg":"none","typ":"JWT"}"#),
                b64(claims("admin", 3600).to_string().as_bytes())
            )
        };
        let wrong_audience = {
            let mut c = claims("admin", 3600);
            c["aud"] = "elsewhere".into();
            token_with(c, SECRET, Algorithm::HS256)
        };
        for token in [
            expired,
            forged,
            other_alg,
            none,
            wrong_audience,
            "garbage".to_owned(),
        ] {
            let err = admin(Some(&format!("Bearer {token}"))).await.unwrap_err();
            assert_eq!(err.status(), StatusCode::UNAUTHORIZED, "{token}");
            assert_eq!(err.message(), TOKEN_FAILED, "{token}");
        }
    }

    #[test]
    fn a_short_secret_is_refused_at_start_up() {
        let env = |name: &str| (name == "JWT_SECRET").then(|| "short".to_owned());
        assert!(matches!(
            AuthKeys::from_env(&env),
            Err(ConfigError::Invalid {
                name: "JWT_SECRET",
                ..
            })
        ));
    }

    mod base64_helpers {
        /// URL-safe base64 without padding, enough to hand-craft an unsigned token.
        pub fn b64(input: &[u8]) -> String {
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
    }
}
