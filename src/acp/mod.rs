//! The protocol layer: the only module that knows ACP. It builds the `Agent.v1()` handler set,
//! converts prompts, bridges agent events to `session/update`s, renders tool cards, replays
//! history and maps errors. Handlers only book-keep and hand work to tokio tasks; nothing here
//! awaits the editor inside the SDK's dispatch loop.

mod attachments;
mod cards;
mod client;
mod commands;
pub mod convert;
mod elicitation;
mod errors;
mod events;
mod handlers;
mod keepalive;
mod mcp;
mod modes;
mod options;
mod permissions;
mod questions;
pub mod render;
mod replay;
mod server;
mod setup;
mod state;
mod subagents;
mod terminals;
mod user_content;
pub mod wire;

pub use server::{agent, serve_stdio};
pub use state::AcpState;
pub use wire::WireLimits;
