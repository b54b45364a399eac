//! Integration tests of the mail sender against the AWS emulator: mailings and outbox mails queued through
//! the newsletter router, drained through the sender's handler as Lambda's SQS event source would.

mod helpers;
mod mailings;
mod outbox;
mod recount;
