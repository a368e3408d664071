//! Tests for the command-safety core: the whole catalogue as a table, normalisation,
//! parser limits, read-only detection and the message texts.

mod catalogue;
mod messages;
mod normalization;
mod read_only;
