//! How alert sign-ups are limited and timed: per address and per network like the other public forms, a
//! confirmation link good for two days, and no second confirmation mail within the hour.

use shared::rate::{PerSender, Window};

const HOUR: i64 = 3600;

/// Names the alert requests' windows (`ALERT-RATE#…`).
pub const RATE_SCOPE: &str = "ALERT";

pub const LIMITS: PerSender<'static> = PerSender {
    scope: RATE_SCOPE,
    per_email: Window {
        limit: 5,
        seconds: HOUR,
    },
    per_email_refusal: "This address asked for several alerts already",
    per_ip: Window {
        limit: 30,
        seconds: HOUR,
    },
    per_ip_refusal: "Many alerts were asked from your network in the last hour",
};

/// How long an alert's confirmation link works.
pub const PENDING_HOURS: i64 = 48;
/// A repeated sign-up for the same drink within this long mails no second confirmation.
pub const RESEND_AFTER_SECONDS: i64 = 3600;
