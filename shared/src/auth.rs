//! Bearer-token auth: HS256 JWTs with issuer, audience and expiry checked, and the `Customer` and `Admin`
//! extractors every protected handler takes. The failure messages are the ones the front end reacts to.

use crate::config::{optional, required, ConfigError, Lookup};
use crate::error::{ApiError, NOT_AUTHORIZED, PERSON_GONE, TOKEN_FAILED};
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

/// The users table as every function reads it: is this person still there, and with which role. The auth
/// function owns the table; others get read-only access to it.
#[derive(Clone)]
pub struct Users {
    client: aws_sdk_dynamodb::Client,
    table: Arc<str>,
}

/// The key of a user's item: `pk = USER#email`, `sk = USER`.
pub fn user_key(email: &str) -> crate::dynamo::Item {
    crate::dynamo::Item::from([
        ("pk".to_owned(), crate::dynamo::s(format!("USER#{email}"))),
        ("sk".to_owned(), crate::dynamo::s("USER")),
    ])
}

impl Users {
    pub fn new(client: aws_sdk_dynamodb::Client, table: impl Into<Arc<str>>) -> Self {
        Users {
            client,
            table: table.into(),
        }
    }

    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// The stored role of `email`, or `None` when there is no such user.
    pub async fn role_of(&self, email: &str) -> Result<Option<Role>, ApiError> {
        let found = self
            .client
            .get_item()
            .table_name(&*self.table)
            .set_key(Some(user_key(email)))
            .projection_expression("#role")
            .expression_attribute_names("#role", "role")
            .consistent_read(true)
            .send()
            .await?;
        Ok(found
            .item()
            .map(|item| match item.get("role").and_then(|r| r.as_s().ok()) {
                Some(role) if role == "admin" => Role::Admin,
                _ => Role::Customer,
            }))
    }
}

/// What a protected route needs: token keys and the users table. Built once per cold start.
pub struct Auth {
    pub keys: AuthKeys,
    pub users: Users,
}

impl Auth {
    pub fn new(keys: AuthKeys, users: Users) -> Arc<Self> {
        Arc::new(Auth { keys, users })
    }
}

/// The auth settings every function with protected routes reads: the JWT settings and `USERS_TABLE`.
pub struct AuthConfig {
    pub keys: AuthKeys,
    pub users_table: String,
}

impl AuthConfig {
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        Ok(AuthConfig {
            keys: AuthKeys::from_env(env)?,
            users_table: required(env, "USERS_TABLE")?,
        })
    }

    pub fn into_auth(self, dynamodb: aws_sdk_dynamodb::Client) -> Arc<Auth> {
        Auth::new(self.keys, Users::new(dynamodb, self.users_table))
    }
}

/// The person behind a valid token, with the role the users table gives them now (a role change or a
/// deleted account takes effect at once, not when the token expires).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub email: String,
    pub role: Role,
}

async fn signed_in<S>(parts: &Parts, state: &S) -> Result<SignedIn, ApiError>
where
    Arc<Auth>: FromRef<S>,
{
    let auth = Arc::<Auth>::from_ref(state);
    let claims = auth.keys.verify(bearer(parts)?)?;
    let role = auth
        .users
        .role_of(&claims.sub)
        .await?
        .ok_or_else(|| ApiError::unauthorized(PERSON_GONE))?;
    Ok(SignedIn {
        email: claims.sub,
        role,
    })
}

/// Any signed-in user: a customer or an admin.
#[derive(Debug, Clone)]
pub struct Customer(pub SignedIn);

/// A signed-in admin; anyone else gets 403.
#[derive(Debug, Clone)]
pub struct Admin(pub SignedIn);

impl<S> FromRequestParts<S> for Customer
where
    S: Send + Sync,
    Arc<Auth>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        signed_in(parts, state).await.map(Customer)
    }
}

impl<S> FromRequestParts<S> for Admin
where
    S: Send + Sync,
    Arc<Auth>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let user = signed_in(parts, state).await?;
        if user.role != Role::Admin {
            return Err(ApiError::forbidden("Only an admin can do this"));
        }
        Ok(Admin(user))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::{Request, StatusCode};

    const SECRET: &[u8] = b"a-test-secret-that-is-long-enough-for-hs256";

    fn keys() -> AuthKeys {
        AuthKeys::new(SECRET, "shop", "shop")
    }

    fn parts(authorization: Option<&str>) -> Parts {
        let mut builder = Request::builder().uri("/");
        if let Some(value) = authorization {
            builder = builder.header(header::AUTHORIZATION, value);
        }
        builder.body(()).unwrap().into_parts().0
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

    #[test]
    fn a_missing_or_malformed_header_is_not_authorized() {
        for header in [None, Some("Basic abc"), Some("Bearer "), Some("Bearer")] {
            let err = bearer(&parts(header)).unwrap_err();
            assert_eq!(err.status(), StatusCode::UNAUTHORIZED);
            assert_eq!(err.message(), NOT_AUTHORIZED, "{header:?}");
        }
        assert_eq!(bearer(&parts(Some("bearer abc.def"))).unwrap(), "abc.def");
    }

    #[test]
    fn an_issued_token_verifies_with_its_claims() {
        let token = keys().issue("a@example.com", Role::Admin, 60).unwrap();
        let claims = keys().verify(&token).unwrap();
        assert_eq!(
            (claims.sub.as_str(), claims.role),
            ("a@example.com", Role::Admin)
        );
        assert_eq!(claims.exp - claims.iat, 60);
    }

    #[test]
    fn expired_forged_and_unsigned_tokens_fail() {
        let expired = token_with(claims("admin", -3600), SECRET, Algorithm::HS256);
        let forged = token_with(
            claims("admin", 3600),
            b"another-secret-another-secret-xx",
            Algorithm::HS256,
        );
        let other_alg = token_with(claims("admin", 3600), SECRET, Algorithm::HS512);
        let none = crate::testing::unsigned_token(&claims("admin", 3600));
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
            let err = keys().verify(&token).unwrap_err();
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
}
