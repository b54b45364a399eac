//! Integration tests of the newsletter router against the AWS emulator: one binary, fresh tables per test.

mod controls;
mod events;
mod helpers;
mod mailer;
mod subscribers;
