//! V4A multi-file patches: parsing (`parse`), in-memory application and validation (`plan`),
//! the tool's patch mode that resolves and approves every file (`run`), and writing the
//! approved plan with rollback (`apply`).

mod apply;
pub mod parse;
pub mod plan;
pub(super) mod run;

pub use parse::{OpKind, Operation, header_paths, parse};
pub use plan::{FileEdit, Plan, Snapshot, plan};

// Unix only: the tests check file modes.
#[cfg(all(test, unix))]
mod tests;
