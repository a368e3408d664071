//! The `patch` tool: targeted edits in two modes. Replace mode finds old_string with Hermes'
//! nine-strategy fuzzy matcher and replaces it; patch mode applies a multi-file V4A patch all
//! or nothing. Both validate everything, then ask the user per file, then write.

mod outcome;
mod replace;
mod tool;
pub mod v4a;

pub use tool::PatchTool;

// Unix only: the tests check file modes.
#[cfg(all(test, unix))]
mod tests;
