//! Which OS sandbox a local command runs under, decided per call from the process-wide
//! settings (`ToolServices::sandbox`), the session (folders, read-only mode, private scratch
//! dir), the call's `unsandboxed` flag and what the user's approval granted (the network, a
//! write to a protected path); and how a denial is reported to the model. Commands sent to the
//! editor's terminal are never sandboxed by us (the editor runs them).

mod sweep;

use std::path::{Path, PathBuf};

pub use sweep::Sweep;

use crate::runtime::{ToolContext, ToolServices};
use crate::safety::policy::Containment;
use crate::safety::sandbox::{
    self, CommandScope, NetworkMode, PreparedSandbox, SandboxError, SandboxMode, SandboxStatus, launch,
};

/// What one command may do beyond the default sandbox, because the user approved it (or the
/// config allows it for every command).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Grants {
    /// The command may use the network.
    pub network: bool,
    /// The command may write the protected paths (git hooks, configs that run code).
    pub protected_writes: bool,
}

/// True when commands the agent runs locally get some OS sandbox right now (the mode is not
/// `off` and the kernel has Landlock).
pub fn sandbox_active(services: &ToolServices) -> bool {
    services.sandbox.mode != SandboxMode::Off && sandbox::status().is_available()
}

/// How far the OS contains a command the agent runs (`in_editor`: it runs in the editor's
/// terminal, through our launcher when our own executable can be found). Only `Full` — no
/// write outside the session's folders, no network, no secret, no protected path, nothing
/// outliving the command — lets the approval policy run an unknown command unasked.
pub fn containment(services: &ToolServices, in_editor: bool) -> Containment {
    if services.sandbox.mode == SandboxMode::Off || (in_editor && std::env::current_exe().is_err()) {
        return Containment::None;
    }
    match sandbox::status() {
        SandboxStatus::Contained { .. } => Containment::Full,
        SandboxStatus::Confined { .. } => Containment::Partial,
        SandboxStatus::Unavailable(_) => Containment::None,
    }
}

/// True when the config gives every command the network (`terminal.network: allow`).
pub fn network_open(services: &ToolServices) -> bool {
    services.sandbox.network == NetworkMode::Allow
}

/// The one-time notice for the editor when the sandbox is wanted but the kernel cannot give it.
pub fn unavailable_notice(services: &ToolServices) -> Option<String> {
    sandbox::unavailable_notice(services.sandbox.mode)
}

/// The sandbox for one local command. `Ok(None)` runs it unsandboxed: the mode is `off`, the
/// call asked for `unsandboxed` (approved upstream), or the kernel has no Landlock (the policy
/// already knows, through [`sandbox_active`]). `Err(message)`: Landlock is there but the ruleset
/// could not be built — the command must not run (fail closed).
pub fn for_command(ctx: &ToolContext, unsandboxed: bool, grants: Grants) -> Result<Option<PreparedSandbox>, String> {
    let Some(policy) = policy_for(ctx, unsandboxed, grants) else {
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

/// For a command shown in the editor's terminal: the spec file our launcher enforces there
/// (see `safety::sandbox::launch`) and whether it contains fully; `Ok(None)` runs it
/// unsandboxed, as [`for_command`] would; `Err` when the spec cannot be written (fail closed).
pub fn for_editor_terminal(
    ctx: &ToolContext,
    unsandboxed: bool,
    grants: Grants,
) -> Result<Option<EditorSandbox>, String> {
    let Some(policy) = policy_for(ctx, unsandboxed, grants) else {
        return Ok(None);
    };
    let contained = match sandbox::status() {
        SandboxStatus::Contained { .. } => true,
        SandboxStatus::Confined { .. } => false,
        SandboxStatus::Unavailable(_) => return Ok(None),
    };
    let trusted = ctx
        .session
        .state
        .processes
        .shell_state()
        .trusted_dir(ctx.services.hermes_home.as_deref());
    let spec = trusted.join(format!("sandbox-{}.json", fastrand::u64(..)));
    let program = super::shell_program().to_path_buf();
    let written = launch::write_spec(
        &spec,
        &launch::Spec {
            policy,
            contained,
            program,
        },
    );
    written.map_err(|e| format!("could not set up the OS sandbox: {e}"))?;
    Ok(Some(EditorSandbox { spec, contained }))
}

/// A sandbox our launcher sets up inside the editor's terminal; the spec file goes with it.
#[derive(Debug)]
pub struct EditorSandbox {
    pub spec: PathBuf,
    pub contained: bool,
}

impl Drop for EditorSandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.spec);
    }
}

/// What the sandbox of one command would be, before anything is opened.
fn policy_for(ctx: &ToolContext, unsandboxed: bool, grants: Grants) -> Option<sandbox::SandboxPolicy> {
    if unsandboxed {
        return None;
    }
    let shell_state = ctx.session.state.processes.shell_state();
    // Every folder of the session is writable (the cwd and the additional ones).
    let roots = ctx.session.workspace.roots();
    // Nested repositories the turn's checkpoint found: their hooks and configuration are
    // protected like the project's own.
    let git_dirs = ctx.session.checkpoints.repositories();
    // The session's saved shell state lives in Hermes' hidden folder: shown read-only.
    let shown = [shell_state
        .trusted_dir(ctx.services.hermes_home.as_deref())
        .to_path_buf()];
    let scope = CommandScope {
        roots: &roots,
        private_dir: shell_state.dir(),
        shown: &shown,
        read_only: ctx.session.state.is_read_only(),
        network: grants.network,
        protect: !grants.protected_writes,
        git_dirs: &git_dirs,
    };
    ctx.services.sandbox.policy(&scope)
}

/// What kind of denial a failed sandboxed command ran into, for the result's `sandbox` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denial {
    /// It needed the network it does not have.
    Offline,
    /// A write was blocked.
    Write,
}

impl Denial {
    /// The value of the result's `sandbox` key.
    pub fn key(self) -> &'static str {
        match self {
            Denial::Offline => "network denied",
            Denial::Write => "denied",
        }
    }
}

/// The kind and note for the model when a sandboxed command failed on what looks like a
/// sandbox denial (see `looks_offline` and `looks_denied` for the heuristics); `None` when it
/// does not look like one.
pub fn denial_note(
    sandbox: &PreparedSandbox,
    private_dir: &Path,
    exit_code: i64,
    output: &str,
) -> Option<(Denial, String)> {
    if exit_code == 0 {
        return None;
    }
    if !sandbox.network() && sandbox::looks_offline(output) {
        return Some((
            Denial::Offline,
            "network denied: commands run without the network. If this command really needs it \
             (a package install, a fetch), call terminal again with \"network\": true — the user \
             will be asked to allow the network for this command."
                .to_string(),
        ));
    }
    if !sandbox::looks_denied(output, sandbox.writable()) {
        return None;
    }
    // The session's scratch dir is an implementation detail; only name the user's roots.
    let private = private_dir.canonicalize().unwrap_or_else(|_| private_dir.to_path_buf());
    let roots: Vec<&PathBuf> = sandbox.writable().iter().filter(|r| **r != private).collect();
    let blocked = if roots.is_empty() {
        "The OS sandbox blocked a write (commands may not write files in read-only mode).".to_string()
    } else {
        let list: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        format!(
            "The OS sandbox blocked a write outside {} (or to a file that runs code later, such as \
             a git hook, .git/config or an editor configuration, which stay read-only).",
            list.join(", ")
        )
    };
    Some((
        Denial::Write,
        format!(
            "{blocked} If the write is really needed, call terminal again with \"unsandboxed\": \
             true (the user will be asked)."
        ),
    ))
}

/// The sweep for a command about to run under `sandbox` with `grants`: only a contained
/// command whose protected paths stay protected needs one (an approved write to them, or a
/// command outside the sandbox, was the user's call).
pub fn sweep_for(ctx: &ToolContext, sandbox: Option<&PreparedSandbox>, grants: Grants) -> Option<Sweep> {
    let contained = sandbox.is_some_and(PreparedSandbox::contained);
    (contained && !grants.protected_writes).then(|| Sweep::before(&ctx.session.workspace.roots()))
}

/// The result key and note for what a sweep did.
pub fn sweep_note(sweep: Option<&Sweep>) -> Option<String> {
    sweep.and_then(|s| sweep::note(&s.after()))
}

// The sandbox's promises are tested through the tools that run commands
// (`tools/terminal/tests/sandbox.rs`, `containment.rs`).
