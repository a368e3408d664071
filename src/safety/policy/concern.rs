//! Why a question is asked: one `Concern` per reason, each tied to the promise it is about and
//! with the words the permission card shows first (the same words `docs/permissions.md` uses).

use std::fmt;
use std::path::PathBuf;

use super::Containment;

/// The five promises of the containment design (see `docs/permissions.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Promise {
    /// 1. Nothing outside the project (now or later: hooks, configs) without a click.
    Project,
    /// 2. No network from a command without a click.
    Network,
    /// 3. No secret readable by a child.
    Secrets,
    /// 4. Nothing irreversible without a click.
    Undo,
    /// 5. Where containment is missing, only commands known to be harmless run unasked.
    Containment,
}

/// One reason a tool call needs the user's click.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Concern {
    /// Something the analysis recognises as dangerous ("deletes files: dir (rm -rf)").
    Recognised(String),
    /// Reads secrets (a credentials file, the environment).
    Secret(String),
    /// Writes a file that runs code later or holds credentials (git hook, `.git/config`,
    /// shell start-up file, `.env`…).
    Sensitive { path: PathBuf, why: String },
    /// Needs the network; the reasons name what needs it (empty: the model asked for it).
    Network(Vec<String>),
    /// Writes outside the project roots and the temp dir.
    Outside(PathBuf),
    /// The model asked to run it outside the OS sandbox.
    Unsandboxed,
    /// Not known to be harmless: unknown programs, project commands, scripts (default mode).
    NotHarmless(Vec<String>),
    /// Contained, but `/undo` could not restore everything it may change.
    NotUndoable,
    /// Runs without (full) OS containment, so only harmless commands run unasked.
    NotContained(Containment),
    /// An edit through a symlink: where it really lands.
    EditThrough { real: PathBuf, path: PathBuf },
    /// A plain edit in the default mode.
    Edit,
    /// An external tool its server marks as destructive.
    ServerDestructive,
}

impl Concern {
    /// The promise this concern is about.
    pub fn promise(&self) -> Promise {
        match self {
            Concern::Sensitive { .. } | Concern::Outside(_) | Concern::EditThrough { .. } => Promise::Project,
            Concern::Network(_) => Promise::Network,
            Concern::Secret(_) => Promise::Secrets,
            Concern::Recognised(_)
            | Concern::NotHarmless(_)
            | Concern::NotUndoable
            | Concern::Edit
            | Concern::ServerDestructive => Promise::Undo,
            Concern::Unsandboxed | Concern::NotContained(_) => Promise::Containment,
        }
    }
}

impl fmt::Display for Concern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Concern::Recognised(reason) | Concern::Secret(reason) => f.write_str(reason),
            Concern::Sensitive { path, why } => write!(f, "changes a sensitive file ({why}): {}", path.display()),
            Concern::Network(needs) if needs.is_empty() => f.write_str("needs the network (the model asked for it)"),
            Concern::Network(needs) => write!(f, "needs the network ({})", needs.join(", ")),
            Concern::Outside(path) => write!(f, "writes outside the project: {}", path.display()),
            Concern::Unsandboxed => f.write_str("runs outside the sandbox (it can write anywhere the user can)"),
            Concern::NotHarmless(what) => write!(f, "not known to be harmless: {}", what.join(", ")),
            Concern::NotUndoable => f.write_str("cannot be undone (no checkpoint covers what it may change)"),
            Concern::NotContained(Containment::Partial) => {
                f.write_str("not contained (the OS sandbox enforces only part of the promises here)")
            }
            Concern::NotContained(_) => f.write_str("not contained (no OS sandbox for this command)"),
            Concern::EditThrough { real, path } => write!(f, "edits {} (through {})", real.display(), path.display()),
            Concern::Edit => f.write_str("edit"),
            Concern::ServerDestructive => f.write_str("the tool's server marks it as destructive"),
        }
    }
}

/// The concerns as one line, most important first (the order they were found in).
pub fn describe(concerns: &[Concern]) -> String {
    concerns.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}
