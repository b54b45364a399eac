//! The rules of this function's inputs as JSON Schema patterns. The code trims a value before it checks it
//! (Rust's `str::trim`), so a pattern allows the same white space around the value and counts the
//! characters of what is left, as the code does.

use shared::text_schema::{capped, email, padded, string};

pub use shared::text_schema::{BlankOr, BlankOrLines};

shared::text_type!(
    /// The login rule: an e-mail address longer than 7 characters.
    LoginEmail,
    string(email(8))
);
shared::text_type!(
    /// The six digits of a login code.
    LoginCode,
    string(padded("[0-9]{6}"))
);
shared::text_type!(
    /// A phone number, or blank to clear it: 10 to 30 characters once trimmed, digits, spaces and `+ - ( )`.
    PhoneOrBlank,
    capped(padded(r"(?:[0-9+()-][0-9 +()-]{8,28}[0-9+()-])?"), 30)
);
