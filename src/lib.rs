//! hermes-acp: a coding agent served over the Agent Client Protocol (ACP v1).
//!
//! Data flows one way: `acp` (protocol) → `session` (per-session owners) → `agent` (the turn
//! loop) → `llm` (providers) / `tools` (the toolset) → `store` (SQLite). `config` is read once at
//! start; `transcript` is the shared message model. See ARCHITECTURE.md for the code map.
#![deny(clippy::print_stdout)]

pub mod acp;
pub mod agent;
pub mod app;
pub mod cli;
pub mod config;
pub mod duration;
pub mod home;
pub mod llm;
pub mod logging;
pub mod mcp;
pub mod net;
pub mod runtime;
pub mod safety;
pub mod services;
pub mod session;
pub mod signals;
pub mod store;
pub mod sync;
pub mod text;
pub mod tools;
pub mod transcript;
