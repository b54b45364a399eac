//! The checks of shared::validation and of this function's inputs, as JSON Schema patterns for the OpenAPI
//! document. Each matches exactly the text the code accepts: surrounding whitespace is allowed where the
//! code trims, and a minimum length is one of the trimmed text (an upper one is `maxLength`, of the text as
//! sent). Free text refuses control characters as `shared::validation::Lines` says, the white space
//! around it too.

use schemars::Schema;
use serde_json::Value;
use shared::text_schema::{text, text_or_blank, Lines, LINE_SPACE, VISIBLE};

/// `Name::parse`: one line of at least 3 characters once trimmed.
pub fn name() -> String {
    text(Lines::One, 3, None)
}

/// `FullName::parse`: one line of more than 5 characters once trimmed.
pub fn full_name() -> String {
    text(Lines::One, 6, None)
}

/// The contact form's message: at least 10 characters once trimmed, on as many lines as it needs.
pub fn message() -> String {
    text(Lines::Many, 10, None)
}

/// One line of any length, blank too (`bounded_text`).
pub fn one_line() -> String {
    text_or_blank(Lines::One, 1, None)
}

/// Any number of lines, blank too (`bounded_lines`).
pub fn lines() -> String {
    text_or_blank(Lines::Many, 1, None)
}

/// `Email::parse_normalised`: letters, digits and `._-`, one `@`, a dot in the domain but not at its ends.
pub const EMAIL: &str = shared::validation::EMAIL_PATTERN;

/// An e-mail address, or blank to clear it.
pub const EMAIL_OR_BLANK: &str = r"^\s*((?=[A-Za-z0-9._@-]{5,254}\s*$)[A-Za-z0-9._-]+@[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9._-]*[A-Za-z0-9_-])?\s*$";

/// `Phone::parse`: 10 to 30 digits, spaces and `+-()` once trimmed.
pub const PHONE: &str = r"^\s*[0-9+()-][0-9 +()-]{8,28}[0-9+()-]\s*$";

/// A phone number, or blank to clear it.
pub const PHONE_OR_BLANK: &str = r"^\s*([0-9+()-][0-9 +()-]{8,28}[0-9+()-])?\s*$";

/// A social link: a web address without spaces, or blank to clear it (at most 500 bytes).
/// A UK VAT number or nothing: GB and 9 digits (12 for a group), spaces allowed between the groups.
pub const VAT_NUMBER_OR_BLANK: &str = r"^\s*(GB ?[0-9]{3} ?[0-9]{4} ?[0-9]{2}( ?[0-9]{3})?)?\s*$";

/// A Companies House company number or nothing: eight characters, two letters or digits then six digits
/// (01234567, SC123456), either case, white space around it allowed.
pub const COMPANY_NUMBER_OR_BLANK: &str = r"^\s*([A-Za-z0-9]{2}[0-9]{6})?\s*$";

pub fn social_link() -> String {
    format!("^{LINE_SPACE}*(https?://{VISIBLE}*)?{LINE_SPACE}*$")
}

/// `check_link`: a web address or a path in the shop, without white space or control characters (at
/// most 500 bytes); a path's second character is not `/` or `\` (a protocol-relative link leads to another
/// site).
pub fn link() -> String {
    format!("^{LINE_SPACE}*{}{LINE_SPACE}*$", link_itself())
}

/// A link, or blank for none (the entries that need no link).
pub fn link_or_blank() -> String {
    format!("^{LINE_SPACE}*(?:{})?{LINE_SPACE}*$", link_itself())
}

fn link_itself() -> String {
    let not_slash = format!("[^/\\\\{}", &VISIBLE[2..]);
    format!("(https?://{VISIBLE}*|/({not_slash}{VISIBLE}*)?)")
}

/// `schema` (an object's) with `fields` required and no longer `null`: what a create insists on where an
/// update takes each field or leaves it.
pub fn requiring(mut schema: Schema, fields: &[&str]) -> Schema {
    for field in fields {
        if let Some(property) = schema
            .get_mut("properties")
            .and_then(|properties| properties.get_mut(*field))
        {
            if let Some(Value::Array(types)) = property.get_mut("type") {
                types.retain(|kind| kind != "null");
                if let [only] = types.as_slice() {
                    let only = only.clone();
                    property["type"] = only;
                }
            }
        }
    }
    let required = schema
        .ensure_object()
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        for field in fields {
            if !required.iter().any(|name| name == field) {
                required.push(Value::from(*field));
            }
        }
    }
    schema
}

/// Sets `keyword` of property `field` of an object's schema.
pub fn set_property(schema: &mut Schema, field: &str, keyword: &str, value: Value) {
    if let Some(property) = schema
        .get_mut("properties")
        .and_then(|properties| properties.get_mut(field))
        .and_then(Value::as_object_mut)
    {
        property.insert(keyword.to_owned(), value);
    }
}
