//! The OS sandbox for commands the agent runs itself: on Linux, a Landlock ruleset installed in
//! the child between fork and exec, so the command and everything it starts may read anywhere
//! but write only beneath the writable roots (the session cwd, the temp dirs, configured extra
//! roots, a few device nodes). A leaf: it knows paths and processes, nothing of the agent.
//!
//! - [`SandboxMode`] is the `sandbox:` config key; [`SandboxSettings`] the process-wide
//!   settings (mode + `terminal.writable_roots`), turned into a [`SandboxPolicy`] per command.
//! - [`status`] probes the kernel once; [`SandboxPolicy::prepare`] builds the ruleset in the
//!   parent (opening every path there) and [`PreparedSandbox::apply`] only arms the child.
//! - [`looks_denied`] is the heuristic that recognises a sandbox denial in a command's output.

mod denial;
#[cfg(target_os = "linux")]
mod linux;
mod settings;

use std::path::PathBuf;
use std::sync::OnceLock;

pub use denial::looks_denied;
pub use settings::{SandboxMode, SandboxSettings};

/// Test and diagnostic knob, read once: `HERMES_ACP_SANDBOX=unavailable` makes [`status`]
/// report Landlock as missing, so the no-sandbox path can be exercised on any kernel.
pub const FORCE_ENV: &str = "HERMES_ACP_SANDBOX";

/// Device nodes and pseudo-filesystems that ordinary tools write to: always writable, also in
/// read-only mode (writing to them changes no file). Missing ones are skipped.
pub const DEVICE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/pts",
    "/dev/shm",
    "/dev/ptmx",
];

/// Whether this kernel can sandbox commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxStatus {
    /// Landlock is enabled; `abi` is the kernel's Landlock ABI version.
    Available { abi: i32 },
    /// Commands run unsandboxed, for this reason.
    Unavailable(String),
}

impl SandboxStatus {
    pub fn is_available(&self) -> bool {
        matches!(self, SandboxStatus::Available { .. })
    }
}

/// The kernel's Landlock support, probed once per process (the answer cannot change while we
/// run) and overridable with [`FORCE_ENV`].
pub fn status() -> &'static SandboxStatus {
    static STATUS: OnceLock<SandboxStatus> = OnceLock::new();
    STATUS.get_or_init(|| {
        let forced = std::env::var(FORCE_ENV).ok();
        let status = status_from(forced.as_deref(), probe);
        tracing::debug!(?status, "OS sandbox");
        status
    })
}

/// [`status`] without the cache: the knob's value wins over the kernel probe.
fn status_from(forced: Option<&str>, probe: impl FnOnce() -> SandboxStatus) -> SandboxStatus {
    match forced.map(str::trim) {
        Some("unavailable") => SandboxStatus::Unavailable(format!("disabled by {FORCE_ENV}=unavailable")),
        _ => probe(),
    }
}

#[cfg(target_os = "linux")]
fn probe() -> SandboxStatus {
    linux::probe()
}

#[cfg(not(target_os = "linux"))]
fn probe() -> SandboxStatus {
    SandboxStatus::Unavailable(NOT_LINUX.into())
}

/// Why there is no sandbox off Linux, in the words the editor's notice shows.
#[cfg(not(target_os = "linux"))]
const NOT_LINUX: &str = if cfg!(windows) {
    "unavailable on Windows; Landlock exists only on Linux"
} else {
    "Landlock exists only on Linux"
};

/// The one-time notice for the editor when commands cannot be sandboxed (`None` when they can,
/// or when the user turned the sandbox off and so expects nothing).
pub fn unavailable_notice(mode: SandboxMode) -> Option<String> {
    if mode == SandboxMode::Off {
        return None;
    }
    match status() {
        SandboxStatus::Available { .. } => None,
        SandboxStatus::Unavailable(reason) => Some(format!(
            "The OS sandbox is not available ({reason}): commands run without Landlock, so \
             any command that writes outside the project asks for approval first."
        )),
    }
}

/// Where a sandboxed command may write; an empty list means read-only (device nodes aside).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxPolicy {
    pub writable: Vec<PathBuf>,
}

/// Why a sandbox could not be prepared. The caller fails closed on [`SandboxError::Setup`].
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the OS sandbox is not available: {0}")]
    Unavailable(String),
    #[error("could not set up the OS sandbox: {0}")]
    Setup(String),
}

/// A Landlock ruleset built in the parent, ready to be installed in a child.
#[derive(Debug)]
pub struct PreparedSandbox {
    #[cfg(target_os = "linux")]
    ruleset: std::os::fd::OwnedFd,
    writable: Vec<PathBuf>,
}

impl PreparedSandbox {
    /// The writable roots (device nodes not included), for messages and the denial heuristic.
    pub fn writable(&self) -> &[PathBuf] {
        &self.writable
    }
}

impl SandboxPolicy {
    /// Builds the ruleset now, in the parent: every path is opened and every rule added here,
    /// so the child only has to call two syscalls (see [`PreparedSandbox::apply`]).
    pub fn prepare(&self) -> Result<PreparedSandbox, SandboxError> {
        if let SandboxStatus::Unavailable(reason) = status() {
            return Err(SandboxError::Unavailable(reason.clone()));
        }
        self.build()
    }

    #[cfg(target_os = "linux")]
    fn build(&self) -> Result<PreparedSandbox, SandboxError> {
        let ruleset = linux::build_ruleset(&self.writable)?;
        Ok(PreparedSandbox {
            ruleset,
            writable: self.writable.clone(),
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn build(&self) -> Result<PreparedSandbox, SandboxError> {
        Err(SandboxError::Unavailable(NOT_LINUX.into()))
    }
}

/// Off Linux no `PreparedSandbox` is ever built (`prepare` fails first), so arming is a no-op.
#[cfg(not(target_os = "linux"))]
impl PreparedSandbox {
    pub fn apply(&self, _command: &mut tokio::process::Command) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_knob_forces_unavailable_and_anything_else_probes() {
        let available = || SandboxStatus::Available { abi: 7 };
        assert!(!status_from(Some("unavailable"), available).is_available());
        assert!(status_from(Some(""), available).is_available());
        assert!(status_from(None, available).is_available());
    }

    #[test]
    fn no_notice_when_the_user_turned_the_sandbox_off() {
        assert_eq!(unavailable_notice(SandboxMode::Off), None);
    }
}
