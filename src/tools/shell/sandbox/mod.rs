//! Which OS sandbox a local command runs under, decided per call from the process-wide
//! settings (`ToolServices::sandbox`), the session (cwd, read-only mode, private scratch dir)
//! and the call's `unsandboxed` flag; and how a denial is reported to the model. Commands sent
//! to the editor's terminal are never sandboxed by us (the editor runs them).

use std::path::{Path, PathBuf};

use crate::safety::sandbox::{self, PreparedSandbox, SandboxError, SandboxMode};
use crate::tools::{ToolContext, ToolServices};

/// True when commands the agent runs locally are sandboxed right now (the mode is not `off`
/// and the kernel has Landlock). When false, the approval policy treats writes outside the
/// project as destructive, since nothing below it would stop them.
pub fn sandbox_active(services: &ToolServices) -> bool {
    services.sandbox.mode != SandboxMode::Off && sandbox::status().is_available()
}

/// The one-time notice for the editor when the sandbox is wanted but the kernel cannot give it.
pub fn unavailable_notice(services: &ToolServices) -> Option<String> {
    sandbox::unavailable_notice(services.sandbox.mode)
}

/// The sandbox for one local command. `Ok(None)` runs it unsandboxed: the mode is `off`, the
/// call asked for `unsandboxed` (approved upstream), or the kernel has no Landlock (the policy
/// already knows, through [`sandbox_active`]). `Err(message)`: Landlock is there but the ruleset
/// could not be built — the command must not run (fail closed).
pub fn for_command(ctx: &ToolContext, unsandboxed: bool) -> Result<Option<PreparedSandbox>, String> {
    if unsandboxed {
        return Ok(None);
    }
    let private = ctx.session.state.processes.shell_state().dir();
    let root = ctx.session.workspace.root();
    let Some(policy) = ctx
        .services
        .sandbox
        .policy(&root, ctx.session.state.is_read_only(), private)
    else {
        return Ok(None);
    };
    match policy.prepare() {
        Ok(prepared) => Ok(Some(prepared)),
        Err(SandboxError::Unavailable(reason)) => {
            tracing::debug!(%reason, "running a command without the OS sandbox");
            Ok(None)
        }
        Err(e @ SandboxError::Setup(_)) => Err(e.to_string()),
    }
}

/// The note for the model when a sandboxed command failed on what looks like a sandbox denial
/// (see `looks_denied` for the heuristic); `None` when it does not look like one.
pub fn denial_note(sandbox: &PreparedSandbox, private_dir: &Path, exit_code: i64, output: &str) -> Option<String> {
    if exit_code == 0 || !sandbox::looks_denied(output, sandbox.writable()) {
        return None;
    }
    // The session's scratch dir is an implementation detail; only name the user's roots.
    let private = private_dir.canonicalize().unwrap_or_else(|_| private_dir.to_path_buf());
    let roots: Vec<&PathBuf> = sandbox.writable().iter().filter(|r| **r != private).collect();
    let blocked = if roots.is_empty() {
        "The OS sandbox blocked a write (commands may not write files in read-only mode).".to_string()
    } else {
        let list: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        format!("The OS sandbox blocked a write outside {}.", list.join(", "))
    };
    Some(format!(
        "{blocked} If the write is really needed, call terminal again with \"unsandboxed\": true \
         (the user will be asked)."
    ))
}

#[cfg(test)]
mod tests;
