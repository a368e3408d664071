//! Safety by construction: what a command or an edit really does, and whether it may run.
//! A leaf layer (it imports nothing else of ours) with four parts, each pure or narrow enough
//! to test as a table:
//!
//! - `command` — a real shell parse of a command line into every simple command it would run
//!   (through pipelines, substitutions, `sh -c`, `eval`, wrappers), classified by effect;
//!   whatever cannot be resolved to literal programs is "unknown" and asks.
//! - `policy` — the `Mode` enum and one pure function from (mode, effect, remembered rules) to
//!   Allow / Ask(reason) / Refuse(reason); `paths` says which edit targets are sensitive.
//! - `sandbox` — Landlock for the commands the agent runs itself: writes only inside the
//!   session cwd, the temp dir and configured roots.
//! - `secrets` — the secret values the agent knows: removed from children's environments and
//!   redacted by value at every sink.

pub mod command;
pub mod paths;
pub mod policy;
pub mod sandbox;
pub mod secrets;
