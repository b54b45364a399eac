//! What the user admin's requests carry, read and checked before anything is written: a profile save's
//! fields (each optional, a blank one cleared, the UK address's four parts together) become the attributes
//! it sets and removes (`store::ProfileWrite`); a role change's role; the address in an admin's path.

use super::store::ProfileWrite;
use serde::Deserialize;
use shared::auth::Role;
use shared::validation::{
    without_controls, Address, Email, FullName, Lines, Phone, UkAddress, POSTCODE_PATTERN,
};
use shared::ApiError;

/// The answer for an address in the path that names no user.
pub const NO_SUCH_USER: &str = "No user has this e-mail";

/// The profile fields to change; a field left out (or null) stays as it is, a blank one is cleared.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct ProfileInput {
    /// More than 5 characters, at most 100 (trimmed), on one line; blank clears it.
    #[schemars(with = "Option<crate::schema::BlankOr<6, 100>>")]
    fullname: Option<String>,
    /// At least 10 characters, at most 30: digits, spaces and `+ - ( )` (trimmed); blank clears it.
    #[schemars(with = "Option<crate::schema::PhoneOrBlank>")]
    phone: Option<String>,
    /// More than 6 characters, at most 300 (trimmed), on as many lines as it needs; blank clears it.
    #[schemars(with = "Option<crate::schema::BlankOrLines<7, 300>>")]
    address: Option<String>,
    /// The UK address's first line: 2 to 100 characters on one line. The four parts go together (a part
    /// left out counts as blank): all blank clears them, else `town` and `postcode` are needed too, and
    /// `address` becomes the parts a line each.
    #[serde(rename = "addressLine1")]
    #[schemars(with = "Option<crate::schema::BlankOr<2, 100>>")]
    address_line1: Option<String>,
    /// An optional second line: 2 to 100 characters on one line, or blank.
    #[serde(rename = "addressLine2")]
    #[schemars(with = "Option<crate::schema::BlankOr<2, 100>>")]
    address_line2: Option<String>,
    /// The town: 2 to 60 characters on one line.
    #[schemars(with = "Option<crate::schema::BlankOr<2, 60>>")]
    town: Option<String>,
    /// A UK postcode, any case and spacing (kept upper-cased as `SW1A 1AA`), or blank.
    #[schemars(regex(pattern = postcode_or_blank()), length(max = 12))]
    postcode: Option<String>,
}

/// `POSTCODE_PATTERN`, or white space only.
fn postcode_or_blank() -> String {
    format!(r"^\s*$|{POSTCODE_PATTERN}")
}

type FieldParser = fn(&str) -> Result<String, ApiError>;

/// A profile field: its name, what was sent, its rule, its cap, and the lines it may span (none for a
/// phone number, whose form leaves control characters out).
type ProfileField<'a> = (
    &'static str,
    &'a Option<String>,
    FieldParser,
    usize,
    Option<Lines>,
);

impl ProfileInput {
    /// The attributes the save sets and removes, once every field sent passed its rule (the address's
    /// parts are checked first).
    pub fn write(&self) -> Result<ProfileWrite, ApiError> {
        let delivery = self.delivery()?;
        let mut write = ProfileWrite::default();
        for (name, raw, parse, max, lines) in self.fields() {
            if let Some(raw) = raw {
                let value = optional_field(raw, parse, max, name, lines)?;
                // Parts sent with it make the one-box address themselves.
                if name == "address" && matches!(delivery, Some(Some(_))) {
                    continue;
                }
                write.set.push((name, value));
            }
        }
        match delivery {
            None => {}
            Some(None) => write
                .remove
                .extend(["addressLine1", "addressLine2", "town", "postcode"]),
            Some(Some(parts)) => write.set.extend([
                ("address", parts.one_box()),
                ("addressLine1", parts.line1.clone()),
                ("addressLine2", parts.line2.clone()),
                ("town", parts.town.clone()),
                ("postcode", parts.postcode.as_str().to_owned()),
            ]),
        }
        Ok(write)
    }

    fn fields(&self) -> [ProfileField<'_>; 3] {
        [
            (
                "fullname",
                &self.fullname,
                |v| Ok(FullName::parse(v)?.to_string()),
                100,
                Some(Lines::One),
            ),
            (
                "phone",
                &self.phone,
                |v| Ok(Phone::parse(v)?.to_string()),
                30,
                None,
            ),
            (
                "address",
                &self.address,
                |v| Ok(Address::parse(v)?.to_string()),
                300,
                Some(Lines::Many),
            ),
        ]
    }

    /// The address parts to write, when any was sent: `Some(None)` clears them, `Some(Some(parts))` sets
    /// them.
    fn delivery(&self) -> Result<Option<Option<UkAddress>>, ApiError> {
        let sent = [
            &self.address_line1,
            &self.address_line2,
            &self.town,
            &self.postcode,
        ];
        if sent.iter().all(|part| part.is_none()) {
            return Ok(None);
        }
        let [line1, line2, town, postcode] = sent.map(|part| part.as_deref().unwrap_or_default());
        // As sent, before trimming: a part of blanks longer than its field is refused, not cleared.
        for (name, raw, max) in [
            ("addressLine1", line1, 100),
            ("addressLine2", line2, 100),
            ("town", town, 60),
            ("postcode", postcode, 12),
        ] {
            if raw.chars().count() > max {
                return Err(ApiError::invalid(format!(
                    "{name} must be at most {max} characters"
                )));
            }
        }
        if [line1, line2, town, postcode]
            .iter()
            .all(|part| part.trim().is_empty())
        {
            return Ok(Some(None));
        }
        UkAddress::parse(line1, line2, town, postcode).map(|parts| Some(Some(parts)))
    }
}

/// An empty field clears it; anything else must pass its rule. Free text (`lines`) refuses control
/// characters as sent, blank or not; a phone number's own form leaves them out.
pub(crate) fn optional_field<T>(
    raw: &str,
    parse: impl Fn(&str) -> Result<T, ApiError>,
    max: usize,
    name: &str,
    lines: Option<Lines>,
) -> Result<String, ApiError>
where
    T: ToString,
{
    if raw.chars().count() > max {
        return Err(ApiError::invalid(format!(
            "{name} must be at most {max} characters"
        )));
    }
    if let Some(lines) = lines {
        without_controls(name, raw, lines)?;
    }
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(String::new());
    }
    Ok(parse(raw)?.to_string())
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct RoleInput {
    pub(super) role: Role,
}

/// The user an admin's path names: a 404 for an address no user can have.
pub fn target(email: &str) -> Result<Email, ApiError> {
    Email::parse_normalised(email).map_err(|_| ApiError::not_found(NO_SUCH_USER))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(json: serde_json::Value) -> ProfileInput {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_save_sets_what_was_sent_and_clears_what_was_blank() {
        let write = input(serde_json::json!({"fullname": "Layla Haddad", "phone": "  "}))
            .write()
            .unwrap();
        assert_eq!(
            write.set,
            [
                ("fullname", "Layla Haddad".to_owned()),
                ("phone", String::new())
            ]
        );
        assert!(write.remove.is_empty());
    }

    #[test]
    fn the_address_parts_make_the_one_box_address_or_clear_together() {
        let parts = input(serde_json::json!({
            "address": "ignored box",
            "addressLine1": "1 High Street",
            "town": "Leeds",
            "postcode": "ls1 1aa",
        }))
        .write()
        .unwrap();
        let names: Vec<&str> = parts.set.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "address",
                "addressLine1",
                "addressLine2",
                "town",
                "postcode"
            ]
        );
        assert_eq!(parts.set[4].1, "LS1 1AA");
        let cleared = input(serde_json::json!({"town": " "})).write().unwrap();
        assert!(cleared.set.is_empty());
        assert_eq!(
            cleared.remove,
            ["addressLine1", "addressLine2", "town", "postcode"]
        );
    }
}
