//! Integration tests of the auth router against the AWS emulator: one binary, fresh tables per test,
//! a fresh e-mail address per test so the shared SES outbox never mixes them up.

mod controls;
mod events;
mod helpers;
mod login;
mod passkeys;
mod rights;
mod security;
mod strangers;
mod users;
