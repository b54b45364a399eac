//! Integration tests of the reviews router against the AWS emulator: one binary, fresh tables per test.

mod controls;
mod events;
mod helpers;
mod limits;
mod moderation;
mod proof;
mod reviews;
