//! What the alerts' public requests carry: the address to mail, a confirmation link's token, a stop link's
//! token.

use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct AlertRequest {
    /// Where to send the one e-mail when the drink is back.
    #[schemars(regex(pattern = shared::validation::EMAIL_PATTERN))]
    pub(super) email: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ConfirmAlert {
    /// The token of the confirmation link (`{address}.{drink}.{expires}.{signature}`).
    #[schemars(length(max = 1200))]
    pub(super) token: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct StopQuery {
    /// The token of the link in the alert e-mail; a made-up one is refused.
    #[schemars(required, regex(pattern = r"^[0-9a-f]{2,600}\.[0-9a-f]{64}$"))]
    pub(super) token: Option<String>,
}
