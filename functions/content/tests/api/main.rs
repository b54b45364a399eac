//! Integration tests of the content router against the AWS emulator: one binary, fresh tables per test.

mod controls;
mod entries;
mod events;
mod feedback;
mod helpers;
mod policies;
mod site;
