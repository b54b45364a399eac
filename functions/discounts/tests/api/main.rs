//! Integration tests of the discounts router against the AWS emulator: one binary, fresh tables per test.

mod codes;
mod controls;
mod helpers;
