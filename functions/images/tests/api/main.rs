//! The images function through its router, against the emulator's S3 and DynamoDB: one test binary.

mod events;
mod helpers;
mod images;
