//! What two or more of the shop's Lambdas need: configuration, AWS clients, the one error type, the JSON
//! extractor, auth extractors, domain types, money, paging, the route table and the Lambda entry point.

pub mod auth;
pub mod aws;
pub mod aws_http;
pub mod clients;
pub mod config;
pub mod consumer;
pub mod delivery;
pub mod dynamo;
pub mod edge;
pub mod error;
pub mod extract;
pub mod form;
pub mod https;
pub mod json;
pub mod lambda;
pub mod mail;
pub mod mail_budget;
pub mod mail_records;
pub mod mime;
pub mod money;
pub mod openapi;
#[cfg(test)]
mod openapi_tests;
pub mod outbox;
pub mod paging;
pub mod personal;
pub mod rate;
pub mod ratings;
pub mod recycle_bin;
pub mod review_links;
pub mod routes;
pub mod secrets;
pub mod signed;
pub mod site;
pub mod startup;
pub mod store;
pub mod text_schema;
pub mod time;
pub mod trader;
pub mod validation;

pub use error::ApiError;
pub use json::Json;

/// What a handler returns.
pub type ApiResult<T> = Result<T, ApiError>;
