//! The code itself: six random digits, kept only as a keyed hash (`CodeKey`, a secret of its own) and
//! compared in constant time.

use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use shared::ApiError;

/// The key codes are hashed with: a secret of its own (`LOGIN_CODE_KEY`), unrelated to token signing.
pub struct CodeKey(hmac::Key);

impl CodeKey {
    pub fn new(key: &[u8]) -> Self {
        CodeKey(hmac::Key::new(hmac::HMAC_SHA256, key))
    }

    pub(crate) fn tag(&self, email: &str, code: &str) -> String {
        hex(hmac::sign(&self.0, format!("{email}:{code}").as_bytes()).as_ref())
    }

    /// An HMAC of `message` with this key (the passkeys' user handles).
    pub(crate) fn sign(&self, message: &[u8]) -> hmac::Tag {
        hmac::sign(&self.0, message)
    }

    /// The name a viewer address's tries are kept under on a code: a keyed hash, so the code's item (which a
    /// data export shows its owner) holds no stranger's network address.
    pub(crate) fn client_tag(&self, client: &str) -> String {
        let tag = hmac::sign(&self.0, format!("client:{client}").as_bytes());
        hex(&tag.as_ref()[..8])
    }

    /// Constant-time comparison of a code against the stored tag.
    pub(crate) fn matches(&self, email: &str, code: &str, stored_hex: &str) -> bool {
        match unhex(stored_hex) {
            Some(tag) => hmac::verify(&self.0, format!("{email}:{code}").as_bytes(), &tag).is_ok(),
            None => false,
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

/// Six digits from the system's secure generator, without modulo bias.
pub(crate) fn new_code() -> Result<String, ApiError> {
    let rng = SystemRandom::new();
    loop {
        let mut bytes = [0u8; 4];
        rng.fill(&mut bytes)
            .map_err(|_| ApiError::internal("no secure randomness"))?;
        let value = u32::from_be_bytes(bytes);
        // 4_294_000_000 is the largest multiple of 1_000_000 below 2^32.
        if value < 4_294_000_000 {
            return Ok(format!("{:06}", value % 1_000_000));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..100 {
            let code = new_code().unwrap();
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn a_tag_matches_only_its_code_and_address() {
        let key = CodeKey::new(b"secret-secret-secret-secret-secret");
        let tag = key.tag("a@example.com", "123456");
        assert!(key.matches("a@example.com", "123456", &tag));
        assert!(!key.matches("a@example.com", "123457", &tag));
        assert!(!key.matches("b@example.com", "123456", &tag));
        assert!(!key.matches("a@example.com", "123456", "zz"));
        assert!(!tag.contains("123456"));
    }
}
