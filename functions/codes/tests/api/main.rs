//! Integration tests of the codes router against the AWS emulator: one binary, fresh tables per test.

mod codes;
mod controls;
mod helpers;
