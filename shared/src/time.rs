//! Timestamps as the API shows them: ISO 8601 in UTC, to the second.

use time::{format_description::well_known::Rfc3339, OffsetDateTime};

/// Now, as `2026-11-22T10:00:00Z`.
pub fn now_iso() -> String {
    iso(OffsetDateTime::now_utc())
}

pub fn iso(at: OffsetDateTime) -> String {
    at.replace_nanosecond(0)
        .unwrap_or(at)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// Seconds since the Unix epoch, for TTLs and token expiry.
pub fn now_unix() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn iso_drops_fractions_and_uses_z() {
        assert_eq!(
            iso(datetime!(2026-11-22 10:00:00.123 UTC)),
            "2026-11-22T10:00:00Z"
        );
    }
}
