//! What the login's two requests carry, checked before anything is read or written: the address (valid,
//! longer than 7 characters, compared lower-cased) and the six digits.

use serde::Deserialize;
use shared::validation::{check, Email};
use shared::ApiError;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct LoginRequest {
    /// A valid e-mail address longer than 7 characters (trimmed, compared lower-cased).
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
}

impl LoginRequest {
    pub fn email(&self) -> Result<Email, ApiError> {
        login_email(&self.email)
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct VerifyRequest {
    /// The address the code was sent to.
    #[schemars(with = "crate::schema::LoginEmail")]
    email: String,
    /// The 6 digits from the e-mail.
    #[schemars(with = "crate::schema::LoginCode")]
    code: String,
}

impl VerifyRequest {
    /// The address and the code (trimmed), the address checked first.
    pub fn read(&self) -> Result<(Email, &str), ApiError> {
        let email = login_email(&self.email)?;
        let code = self.code.trim();
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(ApiError::invalid(
                "code must be the 6 digits from the e-mail",
            ));
        }
        Ok((email, code))
    }
}

/// The login rule of the spec: valid, and longer than 7 characters.
fn login_email(raw: &str) -> Result<Email, ApiError> {
    // The parser's own refusal says what was wrong (a malformed address, or one past 254 characters).
    let email = Email::parse_normalised(raw)?;
    if !check(
        "login_email",
        &serde_json::Value::String(email.as_str().to_owned()),
    ) {
        return Err(ApiError::invalid("email must be longer than 7 characters"));
    }
    Ok(email)
}
