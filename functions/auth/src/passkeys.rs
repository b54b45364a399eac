//! Passkeys (WebAuthn, through `webauthn-rs`): a signed-in user (the admin above all) registers one or more
//! from the profile page, and then signs in with one instead of an e-mailed code. No code request, wrong
//! code or mail limit touches a passkey sign-in, so nobody can keep the admin from logging in by flooding
//! their address. Each ceremony is two calls: `start` answers WebAuthn's options and keeps the ceremony's
//! state for five minutes under an id of its own (so two tabs, or a stranger starting sign-ins for the
//! same address, never spoil each other's); `finish` takes the browser's credential with that id, once.
//!
//! Keys, in the users table, all under the user's address (found by exact key for their data rights):
//! `pk = PASSKEY#{email}`, `sk = KEY#{credential id}` for a registered passkey (`name`, `createdAt`,
//! `lastUsedAt`, and `passkey`: webauthn-rs's record of the public key and its counter, as JSON), and
//! `sk = CEREMONY#{id}` for a ceremony under way (`expiresAt`, the table's TTL).
//!
//! The relying party is the shop's address (`SITE_URL`). Browsers refuse an IP address as a relying party,
//! so a site on a loopback address (the local gateway) is the relying party `localhost`, reached at
//! `http://localhost:{port}`.

use crate::users;
use crate::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use shared::auth::Customer;
use shared::dynamo::{get_s, get_s_or_default, is_condition_failed, n, s, Item};
use shared::extract::Path;
use shared::json::{Created, Message};
use shared::rate::AddressLimit;
use shared::validation::{bounded_text, Email};
use shared::{ApiError, ApiResult, Json};
use webauthn_rs::prelude::{
    CreationChallengeResponse, CredentialID, Passkey, PasskeyAuthentication, PasskeyRegistration,
    PublicKeyCredential, RegisterPublicKeyCredential, RequestChallengeResponse, Url, Uuid,
    Webauthn, WebauthnBuilder,
};

/// How long a ceremony may take between its two calls.
const CEREMONY_SECONDS: i64 = 5 * 60;
/// Passkeys one user may register.
pub const MAX_PASSKEYS: usize = 10;
const NAME_MAX: usize = 60;

/// Sign-ins started by one viewer address in an hour: a ceremony writes an item, so it is limited, but far
/// above what a person needs.
pub const SIGN_IN_LIMIT: AddressLimit = AddressLimit {
    scope: "PASSKEY-START",
    limit: 60,
    seconds: 60 * 60,
    refusal: "Many passkey sign-ins were started from your network in the last hour",
};

const NO_PASSKEY: &str =
    "No passkey of this address could be used: sign in with an e-mailed code instead";
const CEREMONY_GONE: &str = "This passkey request has expired or was used: start again";
const NOT_A_CREDENTIAL: &str = "credential is not a WebAuthn credential";

/// The relying party: the shop's address as browsers see it.
pub struct RelyingParty {
    webauthn: Webauthn,
    origin: Url,
}

impl RelyingParty {
    /// From `SITE_URL` (`https://host[:port]`; a loopback `http://127.0.0.1:port` becomes
    /// `http://localhost:port`) and the shop's name, which authenticators show.
    pub fn new(site_url: &str, shop_name: &str) -> Result<Self, String> {
        let mut origin = Url::parse(site_url).map_err(|e| e.to_string())?;
        if matches!(origin.host_str(), Some("127.0.0.1" | "[::1]")) {
            origin
                .set_host(Some("localhost"))
                .map_err(|e| e.to_string())?;
        }
        let rp_id = origin
            .host_str()
            .ok_or("the site address has no host")?
            .to_owned();
        let webauthn = WebauthnBuilder::new(&rp_id, &origin)
            .and_then(|builder| builder.rp_name(shop_name).build())
            .map_err(|e| format!("{rp_id} cannot be a passkey relying party: {e}"))?;
        Ok(RelyingParty { webauthn, origin })
    }

    /// The origin browsers sign for (`https://shop.example`, or `http://localhost:3000` locally).
    pub fn origin(&self) -> &Url {
        &self.origin
    }
}

/// A ceremony's options for the browser.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Challenge {
    /// Sent back with the credential.
    ceremony: String,
    /// WebAuthn's options for `navigator.credentials.create()` or `.get()` (`{publicKey: {...}}`), binary
    /// fields in base64url.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    options: serde_json::Value,
}

/// A registered passkey as its owner sees it.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PasskeyInfo {
    /// The credential's id (base64url): what deleting it names.
    #[serde(rename = "_id")]
    id: String,
    name: String,
    #[serde(rename = "createdAt")]
    created_at: String,
    /// When it last signed in, or empty.
    #[serde(rename = "lastUsedAt")]
    last_used_at: String,
}

fn passkey_pk(email: &str) -> String {
    format!("PASSKEY#{email}")
}

/// The partition of one address's passkeys and ceremonies: the address whole.
pub(crate) fn partition(email: &str) -> String {
    passkey_pk(email)
}

fn key(email: &str, sk: String) -> Item {
    Item::from([
        ("pk".to_owned(), s(passkey_pk(email))),
        ("sk".to_owned(), s(sk)),
    ])
}

fn credential_sk(id: &str) -> String {
    format!("KEY#{id}")
}

fn ceremony_sk(id: &str) -> String {
    format!("CEREMONY#{id}")
}

/// The user handle authenticators keep: stable for the address, derived with the login-code key so it says
/// nothing about the address to whoever reads an authenticator.
fn user_handle(state: &AppState, email: &str) -> Uuid {
    let tag = state.codes.sign(format!("user-handle:{email}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&tag.as_ref()[..16]);
    Uuid::from_bytes(bytes)
}

struct Stored {
    id: String,
    passkey: Passkey,
    info: PasskeyInfo,
}

fn stored_from(item: &Item) -> Result<Stored, ApiError> {
    let passkey: Passkey =
        serde_json::from_str(&get_s(item, "passkey")?).map_err(ApiError::internal)?;
    let id = get_s(item, "sk")?.trim_start_matches("KEY#").to_owned();
    Ok(Stored {
        info: PasskeyInfo {
            id: id.clone(),
            name: get_s_or_default(item, "name"),
            created_at: get_s_or_default(item, "createdAt"),
            last_used_at: get_s_or_default(item, "lastUsedAt"),
        },
        id,
        passkey,
    })
}

/// The passkeys `email` registered, oldest first.
async fn passkeys_of(state: &AppState, email: &str) -> Result<Vec<Stored>, ApiError> {
    let found = state
        .db()
        .query()
        .table_name(state.table())
        .key_condition_expression("pk = :pk AND begins_with(sk, :key)")
        .expression_attribute_values(":pk", s(passkey_pk(email)))
        .expression_attribute_values(":key", s("KEY#"))
        .consistent_read(true)
        .send()
        .await?;
    let mut stored = found
        .items()
        .iter()
        .map(stored_from)
        .collect::<Result<Vec<_>, _>>()?;
    stored.sort_by(|a, b| a.info.created_at.cmp(&b.info.created_at));
    Ok(stored)
}

/// Keeps a ceremony's state (webauthn-rs's, as JSON) for its second call.
async fn keep_ceremony(
    state: &AppState,
    email: &str,
    kind: &str,
    ceremony: &impl Serialize,
) -> Result<String, ApiError> {
    let id = shared::store::new_id();
    let mut item = key(email, ceremony_sk(&id));
    item.extend([
        ("kind".to_owned(), s(kind)),
        (
            "state".to_owned(),
            s(serde_json::to_string(ceremony).map_err(ApiError::internal)?),
        ),
        (
            "expiresAt".to_owned(),
            n(shared::time::now_unix() + CEREMONY_SECONDS),
        ),
    ]);
    state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(item))
        .send()
        .await?;
    Ok(id)
}

/// Takes a ceremony's state, once: only one of two racing calls gets it; an expired one is gone.
async fn take_ceremony<T: serde::de::DeserializeOwned>(
    state: &AppState,
    email: &str,
    kind: &str,
    id: &str,
) -> Result<T, ApiError> {
    if id.len() > 64 || !id.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        return Err(ApiError::bad_request(CEREMONY_GONE));
    }
    let taken = state
        .db()
        .delete_item()
        .table_name(state.table())
        .set_key(Some(key(email, ceremony_sk(id))))
        .condition_expression("attribute_exists(pk) AND #kind = :kind AND expiresAt > :now")
        .expression_attribute_names("#kind", "kind")
        .expression_attribute_values(":kind", s(kind))
        .expression_attribute_values(":now", n(shared::time::now_unix()))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllOld)
        .send()
        .await;
    let item = match taken {
        Ok(output) => output.attributes.unwrap_or_default(),
        Err(error) if is_condition_failed(&error) => {
            return Err(ApiError::bad_request(CEREMONY_GONE))
        }
        Err(error) => return Err(error.into()),
    };
    serde_json::from_str(&get_s(&item, "state")?).map_err(ApiError::internal)
}

/// `POST /api/user/passkey/register/start/`: the options to create a passkey for the signed-in user.
pub async fn start_registration(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Challenge>> {
    let email = me.email.as_str();
    let existing = passkeys_of(&state, email).await?;
    if existing.len() >= MAX_PASSKEYS {
        return Err(ApiError::invalid(format!(
            "You have {MAX_PASSKEYS} passkeys already: delete one first"
        )));
    }
    // The user's passkeys are excluded, so one authenticator is not registered twice.
    let exclude: Vec<CredentialID> = existing
        .iter()
        .map(|stored| stored.passkey.cred_id().clone())
        .collect();
    let (options, registration): (CreationChallengeResponse, PasskeyRegistration) = state
        .passkeys
        .webauthn
        .start_passkey_registration(user_handle(&state, email), email, email, Some(exclude))
        .map_err(ApiError::internal)?;
    let ceremony = keep_ceremony(&state, email, "register", &registration).await?;
    Ok(Json(Challenge {
        ceremony,
        options: serde_json::to_value(options).map_err(ApiError::internal)?,
    }))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct FinishRegistration {
    /// The `ceremony` of the start's answer.
    #[schemars(length(max = 64))]
    ceremony: String,
    /// What `navigator.credentials.create()` answered, binary fields in base64url.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    credential: serde_json::Value,
    /// A name to tell this passkey from others ("Laptop"); the date when absent.
    #[serde(default)]
    #[schemars(length(max = 60))]
    name: Option<String>,
}

/// `POST /api/user/passkey/register/finish/`: the new passkey is kept; 201 with it.
pub async fn finish_registration(
    Customer(me): Customer,
    State(state): State<AppState>,
    Json(body): Json<FinishRegistration>,
) -> ApiResult<Created<PasskeyInfo>> {
    let email = me.email.as_str();
    let name = bounded_text("name", body.name.as_deref().unwrap_or_default(), NAME_MAX)?;
    let credential: RegisterPublicKeyCredential = serde_json::from_value(body.credential)
        .map_err(|_| ApiError::bad_request(NOT_A_CREDENTIAL))?;
    let registration: PasskeyRegistration =
        take_ceremony(&state, email, "register", &body.ceremony).await?;
    let passkey = state
        .passkeys
        .webauthn
        .finish_passkey_registration(&credential, &registration)
        .map_err(|error| {
            tracing::info!(%error, "a passkey registration was refused");
            ApiError::bad_request("The passkey could not be checked: try again")
        })?;
    let now = shared::time::now_iso();
    let id = shared::signed::hex(passkey.cred_id().as_ref());
    let info = PasskeyInfo {
        id: id.clone(),
        name: if name.is_empty() {
            format!("Passkey added {}", &now[..10])
        } else {
            name
        },
        created_at: now,
        last_used_at: String::new(),
    };
    let mut item = key(email, credential_sk(&id));
    item.extend([
        ("email".to_owned(), s(email)),
        ("name".to_owned(), s(&info.name)),
        ("createdAt".to_owned(), s(&info.created_at)),
        ("lastUsedAt".to_owned(), s("")),
        (
            "passkey".to_owned(),
            s(serde_json::to_string(&passkey).map_err(ApiError::internal)?),
        ),
    ]);
    let put = state
        .db()
        .put_item()
        .table_name(state.table())
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match put {
        Err(error) if is_condition_failed(&error) => {
            Err(ApiError::conflict("This passkey is registered already"))
        }
        other => {
            other?;
            Ok(Created(info))
        }
    }
}

/// `GET /api/user/passkeys/`: the signed-in user's passkeys, oldest first.
pub async fn list_passkeys(
    Customer(me): Customer,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<PasskeyInfo>>> {
    Ok(Json(
        passkeys_of(&state, &me.email)
            .await?
            .into_iter()
            .map(|stored| stored.info)
            .collect(),
    ))
}

/// `DELETE /api/user/passkeys/{id}`: the passkey no longer signs in.
pub async fn delete_passkey(
    Customer(me): Customer,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Message>> {
    let gone = || ApiError::not_found("You have no passkey with this id");
    if id.len() > 2048 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(gone());
    }
    let deleted = state
        .db()
        .delete_item()
        .table_name(state.table())
        .set_key(Some(key(&me.email, credential_sk(&id))))
        .condition_expression("attribute_exists(pk)")
        .send()
        .await;
    match deleted {
        Err(error) if is_condition_failed(&error) => Err(gone()),
        other => {
            other?;
            Ok(Message::new("The passkey was removed"))
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct StartSignIn {
    /// The address whose passkey signs in.
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
}

/// `POST /api/user/passkey/login/start/`: the options to sign `email` in with one of its passkeys; 400 when
/// it has none.
pub async fn start_sign_in(
    State(state): State<AppState>,
    Json(body): Json<StartSignIn>,
) -> ApiResult<Json<Challenge>> {
    let email = Email::parse_normalised(&body.email)?;
    let email = email.as_str();
    let passkeys: Vec<Passkey> = passkeys_of(&state, email)
        .await?
        .into_iter()
        .map(|stored| stored.passkey)
        .collect();
    if passkeys.is_empty() {
        return Err(ApiError::bad_request(NO_PASSKEY));
    }
    let (options, authentication): (RequestChallengeResponse, PasskeyAuthentication) = state
        .passkeys
        .webauthn
        .start_passkey_authentication(&passkeys)
        .map_err(ApiError::internal)?;
    let ceremony = keep_ceremony(&state, email, "sign-in", &authentication).await?;
    Ok(Json(Challenge {
        ceremony,
        options: serde_json::to_value(options).map_err(ApiError::internal)?,
    }))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct FinishSignIn {
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
    /// The `ceremony` of the start's answer.
    #[schemars(length(max = 64))]
    ceremony: String,
    /// What `navigator.credentials.get()` answered, binary fields in base64url.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    credential: serde_json::Value,
}

/// `POST /api/user/passkey/login/finish/`: with a passkey's signature, a session as a code gives.
pub async fn finish_sign_in(
    State(state): State<AppState>,
    Json(body): Json<FinishSignIn>,
) -> ApiResult<Json<crate::codes::Session>> {
    let email = Email::parse_normalised(&body.email)?;
    let email = email.as_str();
    let credential: PublicKeyCredential = serde_json::from_value(body.credential)
        .map_err(|_| ApiError::bad_request(NOT_A_CREDENTIAL))?;
    let authentication: PasskeyAuthentication =
        take_ceremony(&state, email, "sign-in", &body.ceremony).await?;
    let result = state
        .passkeys
        .webauthn
        .finish_passkey_authentication(&credential, &authentication)
        .map_err(|error| {
            tracing::info!(%error, "a passkey sign-in was refused");
            ApiError::bad_request("The passkey could not be checked: try again")
        })?;
    let id = shared::signed::hex(result.cred_id().as_ref());
    let found = state
        .db()
        .get_item()
        .table_name(state.table())
        .set_key(Some(key(email, credential_sk(&id))))
        .consistent_read(true)
        .send()
        .await?;
    let Some(item) = found.item() else {
        // Removed between the two calls.
        return Err(ApiError::bad_request(NO_PASSKEY));
    };
    let mut stored = stored_from(item)?;
    // The authenticator's counter and backup state move on; a record that no longer matches is refused.
    stored.passkey.update_credential(&result);
    state
        .db()
        .update_item()
        .table_name(state.table())
        .set_key(Some(key(email, credential_sk(&stored.id))))
        .update_expression("SET passkey = :passkey, lastUsedAt = :now")
        .condition_expression("attribute_exists(pk)")
        .expression_attribute_values(
            ":passkey",
            s(serde_json::to_string(&stored.passkey).map_err(ApiError::internal)?),
        )
        .expression_attribute_values(":now", s(shared::time::now_iso()))
        .send()
        .await
        .map_err(|error| {
            if is_condition_failed(&error) {
                ApiError::bad_request(NO_PASSKEY)
            } else {
                ApiError::internal(error)
            }
        })?;
    let user = users::account(&state, email)
        .await?
        .ok_or_else(|| ApiError::bad_request(NO_PASSKEY))?;
    Ok(Json(crate::codes::Session::of(&state, user)?))
}
