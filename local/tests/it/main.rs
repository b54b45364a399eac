//! The gateway's tests, in one binary: each file under tests/ would otherwise link the whole shop again
//! (about 90 MB apiece), and CI's disk is not unlimited.

mod gateway;
mod invoke;
mod openapi;
mod owners;
mod restart;
mod secrets;
mod site_url;
mod state;
mod template_policies;
