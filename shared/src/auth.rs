//! Bearer-token auth: EdDSA (Ed25519) JWTs with issuer, audience, expiry and the user's token version
//! checked, and the `Customer` and `Admin` extractors every protected handler takes. Only the auth function
//! holds the private key (a secret); every other function verifies with the public key, a plain setting.
//! The failure messages are the ones the front end reacts to.

use crate::config::{optional, required, ConfigError, Lookup};
use crate::error::{ApiError, NOT_AUTHORIZED, PERSON_GONE, TOKEN_FAILED};
use axum::extract::{FromRef, FromRequestParts};
use base64::Engine;
use http::{header, request::Parts};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How long a customer's token lives by default: a week (`CUSTOMER_TOKEN_DAYS`).
pub const CUSTOMER_TOKEN_DAYS: i64 = 7;
/// How long an admin's token lives by default: a working day (`ADMIN_TOKEN_HOURS`).
pub const ADMIN_TOKEN_HOURS: i64 = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
    /// The user's token version when it was issued: logging out, a role change or a block raises the
    /// stored version and so ends every older token at once.
    #[serde(default)]
    pub ver: u64,
}

fn b64url(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A fresh Ed25519 private key as base64 PKCS#8: what the signing secret holds.
pub fn generate_signing_key() -> String {
    let pkcs8 = Ed25519KeyPair::generate_pkcs8(&ring::rand::SystemRandom::new())
        .expect("the system's secure generator works");
    base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref())
}

/// The public key (base64url of its 32 bytes, as a JWK's `x`) of a base64 PKCS#8 private key.
pub fn public_key_of(signing_key: &str) -> Result<String, String> {
    let pair = signing_pair(signing_key)?;
    Ok(b64url(pair.public_key().as_ref()))
}

fn signing_der(signing_key: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD
        .decode(signing_key.trim())
        .map_err(|_| "not base64".to_owned())
}

fn signing_pair(signing_key: &str) -> Result<Ed25519KeyPair, String> {
    Ed25519KeyPair::from_pkcs8_maybe_unchecked(&signing_der(signing_key)?)
        .map_err(|_| "not an Ed25519 private key in PKCS#8".to_owned())
}

/// Keys and checks for tokens; built once at cold start.
pub struct AuthKeys {
    /// Only the auth function has one.
    encoding: Option<EncodingKey>,
    decoding: DecodingKey,
    validation: Validation,
    issuer: String,
    audience: String,
    pub customer_ttl: i64,
    pub admin_ttl: i64,
}

impl AuthKeys {
    /// Verification only, with the public key (base64url, 32 bytes).
    pub fn verifying(public_key: &str, issuer: &str, audience: &str) -> Result<Self, String> {
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(public_key.trim().trim_end_matches('='))
            .map_err(|_| "not base64url".to_owned())?;
        if raw.len() != 32 {
            return Err("an Ed25519 public key is 32 bytes".to_owned());
        }
        // EdDSA pinned: a token naming any other algorithm, `none` and HS256 included, fails.
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Ok(AuthKeys {
            encoding: None,
            decoding: DecodingKey::from_ed_components(&b64url(&raw)).map_err(|e| e.to_string())?,
            validation,
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            customer_ttl: CUSTOMER_TOKEN_DAYS * 24 * 3600,
            admin_ttl: ADMIN_TOKEN_HOURS * 3600,
        })
    }

    /// Signing and verification, from the private key (base64 PKCS#8).
    pub fn signing(signing_key: &str, issuer: &str, audience: &str) -> Result<Self, String> {
        let public = public_key_of(signing_key)?;
        let mut keys = AuthKeys::verifying(&public, issuer, audience)?;
        keys.encoding = Some(EncodingKey::from_ed_der(&signing_der(signing_key)?));
        Ok(keys)
    }

    /// `TOKEN_PUBLIC_KEY` (required), `TOKEN_SIGNING_KEY` (the auth function's secret; it must belong to
    /// the public key), `JWT_ISSUER` and `JWT_AUDIENCE` (default `shop`), `CUSTOMER_TOKEN_DAYS` (7) and
    /// `ADMIN_TOKEN_HOURS` (12).
    pub fn from_env(env: &impl Lookup) -> Result<Self, ConfigError> {
        let public = required(env, "TOKEN_PUBLIC_KEY")?;
        let issuer = optional(env, "JWT_ISSUER", "shop");
        let audience = optional(env, "JWT_AUDIENCE", "shop");
        let mut keys = match env
            .get("TOKEN_SIGNING_KEY")
            .filter(|k| !k.trim().is_empty())
        {
            Some(signing) => {
                let keys = AuthKeys::signing(&signing, &issuer, &audience).map_err(|reason| {
                    ConfigError::Invalid {
                        name: "TOKEN_SIGNING_KEY",
                        reason,
                    }
                })?;
                if public_key_of(&signing).ok().as_deref() != Some(public.trim()) {
                    return Err(ConfigError::Invalid {
                        name: "TOKEN_PUBLIC_KEY",
                        reason: "it is not the public key of TOKEN_SIGNING_KEY".to_owned(),
                    });
                }
                keys
            }
            None => AuthKeys::verifying(&public, &issuer, &audience).map_err(|reason| {
                ConfigError::Invalid {
                    name: "TOKEN_PUBLIC_KEY",
                    reason,
                }
            })?,
        };
        keys.customer_ttl = positive(env, "CUSTOMER_TOKEN_DAYS", CUSTOMER_TOKEN_DAYS)? * 24 * 3600;
        keys.admin_ttl = positive(env, "ADMIN_TOKEN_HOURS", ADMIN_TOKEN_HOURS)? * 3600;
        Ok(keys)
    }

    pub fn can_sign(&self) -> bool {
        self.encoding.is_some()
    }

    /// How long a fresh token for `role` lives.
    pub fn ttl_for(&self, role: Role) -> i64 {
        match role {
            Role::Admin => self.admin_ttl,
            Role::Customer => self.customer_ttl,
        }
    }

    /// Signs a token for `email` with `role`, valid for `ttl_seconds`, at token version 0.
    pub fn issue(&self, email: &str, role: Role, ttl_seconds: i64) -> Result<String, ApiError> {
        self.issue_at_version(email, role, ttl_seconds, 0)
    }

    /// Signs a token for `email` at the user's current token `version`.
    pub fn issue_at_version(
        &self,
        email: &str,
        role: Role,
        ttl_seconds: i64,
        version: u64,
    ) -> Result<String, ApiError> {
        let encoding = self
            .encoding
            .as_ref()
            .ok_or_else(|| ApiError::internal("this function has no token-signing key"))?;
        let now = crate::time::now_unix();
        let claims = Claims {
            sub: email.to_owned(),
            role,
            iat: now,
            exp: now + ttl_seconds,
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            ver: version,
        };
        encode(&Header::new(Algorithm::EdDSA), &claims, encoding).map_err(ApiError::internal)
    }

    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|_| ApiError::unauthorized(TOKEN_FAILED))
    }
}

fn positive(env: &impl Lookup, name: &'static str, default: i64) -> Result<i64, ConfigError> {
    optional(env, name, &default.to_string())
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|v| *v > 0)
        .ok_or(ConfigError::Invalid {
            name,
            reason: "use a whole number above 0".to_owned(),
        })
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

    /// The stored role and token version of `email`, or `None` when there is no such user or they are
    /// blocked (a deleted account stays blocked until an admin lets it back).
    pub async fn account_of(&self, email: &str) -> Result<Option<Account>, ApiError> {
        let found = self
            .client
            .get_item()
            .table_name(&*self.table)
            .set_key(Some(user_key(email)))
            .projection_expression("#role, tokenVersion, blocked")
            .expression_attribute_names("#role", "role")
            .consistent_read(true)
            .send()
            .await?;
        let Some(item) = found.item() else {
            return Ok(None);
        };
        if item.get("blocked").and_then(|b| b.as_bool().ok()) == Some(&true) {
            return Ok(None);
        }
        Ok(Some(Account {
            role: match item.get("role").and_then(|r| r.as_s().ok()) {
                Some(role) if role == "admin" => Role::Admin,
                _ => Role::Customer,
            },
            token_version: crate::dynamo::get_n(item, "tokenVersion").unwrap_or(0),
        }))
    }

    /// The stored role of `email`, or `None` when there is no such user.
    pub async fn role_of(&self, email: &str) -> Result<Option<Role>, ApiError> {
        Ok(self.account_of(email).await?.map(|a| a.role))
    }
}

/// What a protected request re-reads about its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    pub role: Role,
    pub token_version: u64,
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

/// The person behind a valid token, with the role the users table gives them now (a role change, a logout
/// or a deleted account takes effect at once, not when the token expires).
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
    let account = auth
        .users
        .account_of(&claims.sub)
        .await?
        .ok_or_else(|| ApiError::unauthorized(PERSON_GONE))?;
    if claims.ver != account.token_version {
        // Logged out, or the role changed, since this token was issued.
        return Err(ApiError::unauthorized(TOKEN_FAILED));
    }
    Ok(SignedIn {
        email: claims.sub,
        role: account.role,
    })
}

/// Any signed-in user: a customer or an admin.
#[derive(Debug, Clone)]
pub struct Customer(pub SignedIn);

/// A signed-in user when the request sends a token, else nobody: for public routes that do more for the
/// signed-in (a review by a buyer is verified). A token that is sent must be valid (401 otherwise).
#[derive(Debug, Clone)]
pub struct MaybeSignedIn(pub Option<SignedIn>);

impl<S> FromRequestParts<S> for MaybeSignedIn
where
    S: Send + Sync,
    Arc<Auth>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if !parts.headers.contains_key(header::AUTHORIZATION) {
            return Ok(MaybeSignedIn(None));
        }
        signed_in(parts, state)
            .await
            .map(|user| MaybeSignedIn(Some(user)))
    }
}

impl crate::openapi::DocumentArg for MaybeSignedIn {
    fn document(doc: &mut crate::openapi::Doc) {
        doc.errors.insert(401);
    }
}

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
    use std::sync::OnceLock;

    fn signing_key() -> &'static str {
        static KEY: OnceLock<String> = OnceLock::new();
        KEY.get_or_init(generate_signing_key)
    }

    fn keys() -> AuthKeys {
        AuthKeys::signing(signing_key(), "shop", "shop").unwrap()
    }

    fn parts(authorization: Option<&str>) -> Parts {
        let mut builder = Request::builder().uri("/");
        if let Some(value) = authorization {
            builder = builder.header(header::AUTHORIZATION, value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    fn claims(role: &str, exp_offset: i64) -> serde_json::Value {
        let now = crate::time::now_unix();
        serde_json::json!({"sub": "a@example.com", "role": role, "iat": now, "exp": now + exp_offset,
            "iss": "shop", "aud": "shop"})
    }

    fn ed_token(claims: serde_json::Value, signing: &str) -> String {
        let der = signing_der(signing).unwrap();
        encode(
            &Header::new(Algorithm::EdDSA),
            &claims,
            &EncodingKey::from_ed_der(&der),
        )
        .unwrap()
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
    fn an_issued_token_verifies_with_the_public_key_alone() {
        let token = keys()
            .issue_at_version("a@example.com", Role::Admin, 60, 3)
            .unwrap();
        let public = public_key_of(signing_key()).unwrap();
        let verifier = AuthKeys::verifying(&public, "shop", "shop").unwrap();
        let claims = verifier.verify(&token).unwrap();
        assert_eq!(
            (claims.sub.as_str(), claims.role, claims.ver),
            ("a@example.com", Role::Admin, 3)
        );
        assert_eq!(claims.exp - claims.iat, 60);
    }

    #[test]
    fn a_verifying_function_cannot_mint_tokens() {
        let public = public_key_of(signing_key()).unwrap();
        let verifier = AuthKeys::verifying(&public, "shop", "shop").unwrap();
        assert!(!verifier.can_sign());
        assert!(verifier.issue("a@example.com", Role::Admin, 60).is_err());
    }

    #[test]
    fn expired_forged_and_hs256_tokens_fail() {
        let expired = ed_token(claims("admin", -3600), signing_key());
        let forged = ed_token(claims("admin", 3600), &generate_signing_key());
        // The public key is public: an HS256 token keyed with it must not pass (algorithm confusion).
        let public = public_key_of(signing_key()).unwrap();
        let hs256 = encode(
            &Header::new(Algorithm::HS256),
            &claims("admin", 3600),
            &EncodingKey::from_secret(public.as_bytes()),
        )
        .unwrap();
        let wrong_audience = {
            let mut c = claims("admin", 3600);
            c["aud"] = "elsewhere".into();
            ed_token(c, signing_key())
        };
        for token in [expired, forged, hs256, wrong_audience, "garbage".to_owned()] {
            let err = keys().verify(&token).unwrap_err();
            assert_eq!(err.status(), StatusCode::UNAUTHORIZED, "{token}");
            assert_eq!(err.message(), TOKEN_FAILED, "{token}");
        }
    }

    #[test]
    fn token_lifetimes_are_settings_by_role() {
        let public = public_key_of(signing_key()).unwrap();
        let env = |name: &str| match name {
            "TOKEN_PUBLIC_KEY" => Some(public.clone()),
            "ADMIN_TOKEN_HOURS" => Some("8".to_owned()),
            _ => None,
        };
        let keys = AuthKeys::from_env(&env).unwrap();
        assert_eq!(keys.ttl_for(Role::Admin), 8 * 3600);
        assert_eq!(keys.ttl_for(Role::Customer), 7 * 24 * 3600);
    }

    #[test]
    fn a_signing_key_that_does_not_match_the_public_key_is_refused_at_start_up() {
        let other = public_key_of(&generate_signing_key()).unwrap();
        let env = |name: &str| match name {
            "TOKEN_PUBLIC_KEY" => Some(other.clone()),
            "TOKEN_SIGNING_KEY" => Some(signing_key().to_owned()),
            _ => None,
        };
        assert!(matches!(
            AuthKeys::from_env(&env),
            Err(ConfigError::Invalid {
                name: "TOKEN_PUBLIC_KEY",
                ..
            })
        ));
        let missing = |_: &str| None;
        assert!(matches!(
            AuthKeys::from_env(&missing),
            Err(ConfigError::Missing("TOKEN_PUBLIC_KEY"))
        ));
    }
}
