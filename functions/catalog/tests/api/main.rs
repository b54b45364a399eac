//! Integration tests of the catalog router against the AWS emulator: one binary, a fresh table per test.

mod alerts;
mod browse;
mod controls;
mod events;
mod guards;
mod helpers;
mod home;
mod pricing;
mod products;
