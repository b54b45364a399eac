//! Integration tests of the orders router against the AWS emulator, with the catalog and codes routers
//! beside it on the same tables, as the local gateway and AWS would have them.

mod age;
mod bank;
mod checkout;
mod controls;
mod events;
mod fulfilment;
mod helpers;
mod holds;
mod hostage;
mod interleavings;
mod manage;
mod numbers;
mod payments;
mod quote;
mod reconcile;
mod refunds;
mod security;
mod stripe_calls;
mod terms;
mod vat;
