//! Command-line modes other than serving: `--check` and `--setup`. These talk to a person on a
//! terminal, so they (and only they) print to stdout.

pub mod check;
pub mod setup;
mod yaml_edit;
