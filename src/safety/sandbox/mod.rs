//! The OS sandbox for every command the agent starts. A leaf: it knows paths and processes,
//! nothing of the agent. On Linux, three levels, probed once per process:
//! - **contained** (user, mount, PID, IPC and network namespaces + Landlock + seccomp): writes
//!   only beneath the writable roots; no network unless granted (a private loopback instead);
//!   Hermes' folder and credential stores hidden; git hooks, `.git/config` and editor/agent
//!   configs inside the project read-only; no signal, ptrace or IPC reaches a process outside;
//!   the whole tree dies with the command (PID namespace), `setsid` children included.
//! - **confined** (Landlock + seccomp, where namespaces are refused): writes confined, no
//!   network, signals scoped — but secrets stay readable and protected paths writable, so the
//!   approval policy treats commands as not contained.
//! - **unavailable** (no Landlock, not Linux, or `sandbox: off`).
//!
//! - [`SandboxSettings`] (`settings.rs`) turns the config and one command's scope into a
//!   [`SandboxPolicy`]; [`SandboxPolicy::prepare`] builds everything in the parent and
//!   [`PreparedSandbox::apply`] arms the child.
//! - `hidden.rs` names the secrets, `protected.rs` the paths that run code later.
//! - [`looks_denied`] and [`looks_offline`] recognise a denial in a failed command's output.

mod denial;
mod hidden;
pub mod launch;
#[cfg(target_os = "linux")]
mod linux;
pub mod protected;
mod settings;

use std::path::PathBuf;
use std::sync::OnceLock;

pub use denial::{looks_denied, looks_offline};
pub use hidden::{Hidden, secrets};
pub use settings::{CommandScope, NetworkMode, SandboxMode, SandboxSettings};

/// Test and diagnostic knob, read once: `HERMES_ACP_SANDBOX=unavailable` makes [`status`]
/// report no sandbox at all, `HERMES_ACP_SANDBOX=no-namespaces` the Landlock-only level, so
/// the fallbacks can be exercised on any kernel.
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

/// What this kernel can do for commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxStatus {
    /// Every promise holds: namespaces, Landlock (`abi`) and seccomp.
    Contained { abi: i32 },
    /// Landlock and seccomp without namespaces, for `reason`.
    Confined { abi: i32, reason: String },
    /// Commands run unsandboxed, for this reason.
    Unavailable(String),
}

impl SandboxStatus {
    /// Some OS sandbox applies (contained or confined).
    pub fn is_available(&self) -> bool {
        !matches!(self, SandboxStatus::Unavailable(_))
    }

    /// The full sandbox applies.
    pub fn is_contained(&self) -> bool {
        matches!(self, SandboxStatus::Contained { .. })
    }
}

/// The kernel's support, probed once per process (the answer cannot change while we run) and
/// overridable with [`FORCE_ENV`]. The first call spawns one sandboxed `sh` (a few ms).
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
fn status_from(forced: Option<&str>, probe: impl FnOnce(bool) -> SandboxStatus) -> SandboxStatus {
    match forced.map(str::trim) {
        Some("unavailable") => SandboxStatus::Unavailable(format!("disabled by {FORCE_ENV}=unavailable")),
        Some("no-namespaces") => probe(false),
        _ => probe(true),
    }
}

#[cfg(target_os = "linux")]
fn probe(namespaces: bool) -> SandboxStatus {
    let abi = match linux::abi() {
        Ok(abi) => abi,
        Err(reason) => return SandboxStatus::Unavailable(reason),
    };
    if !namespaces {
        let reason = format!("namespaces disabled by {FORCE_ENV}=no-namespaces");
        return SandboxStatus::Confined { abi, reason };
    }
    match linux::namespaces_work() {
        Ok(()) => SandboxStatus::Contained { abi },
        Err(reason) => SandboxStatus::Confined { abi, reason },
    }
}

#[cfg(not(target_os = "linux"))]
fn probe(_namespaces: bool) -> SandboxStatus {
    SandboxStatus::Unavailable(NOT_LINUX.into())
}

/// Why there is no sandbox off Linux, in the words the editor's notice shows.
#[cfg(not(target_os = "linux"))]
const NOT_LINUX: &str = if cfg!(windows) {
    "unavailable on Windows; the sandbox needs Linux"
} else {
    "the sandbox needs Linux (Landlock and namespaces)"
};

/// The one-time notice for the editor when commands cannot be fully contained (`None` when
/// they can, or when the user turned the sandbox off and so expects nothing).
pub fn unavailable_notice(mode: SandboxMode) -> Option<String> {
    if mode == SandboxMode::Off {
        return None;
    }
    let reason = match status() {
        SandboxStatus::Contained { .. } => return None,
        SandboxStatus::Confined { reason, .. } => format!("only Landlock is available: {reason}"),
        SandboxStatus::Unavailable(reason) => format!("the OS sandbox is not available: {reason}"),
    };
    Some(format!(
        "Commands cannot be fully contained ({reason}), so only commands known to be harmless \
         run without asking; everything else asks first."
    ))
}

/// What one command may do.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SandboxPolicy {
    /// Where it may write (device nodes aside); empty means read-only.
    pub writable: Vec<PathBuf>,
    /// It may use the network.
    pub network: bool,
    /// Folders and files it must not read (secrets).
    pub hidden: Vec<PathBuf>,
    /// Paths inside hidden folders that stay visible, read-only.
    pub kept: Vec<PathBuf>,
    /// Existing paths inside the writable roots that stay read-only.
    pub protected: Vec<PathBuf>,
    /// A writable directory shown as `/dev/shm` (the session's own shared memory: the real one
    /// is shared with every process of the user).
    pub shm: Option<PathBuf>,
}

/// Why a sandbox could not be prepared. The caller fails closed on [`SandboxError::Setup`].
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the OS sandbox is not available: {0}")]
    Unavailable(String),
    #[error("could not set up the OS sandbox: {0}")]
    Setup(String),
}

/// A sandbox built in the parent, ready to arm a child (see `apply`).
#[derive(Debug)]
pub struct PreparedSandbox {
    #[cfg(target_os = "linux")]
    armed: linux::Armed,
    writable: Vec<PathBuf>,
    network: bool,
    contained: bool,
}

impl PreparedSandbox {
    /// The writable roots (device nodes not included), for messages and the denial heuristic.
    pub fn writable(&self) -> &[PathBuf] {
        &self.writable
    }

    /// The command may use the network.
    pub fn network(&self) -> bool {
        self.network
    }

    /// The full sandbox (namespaces included) applies.
    pub fn contained(&self) -> bool {
        self.contained
    }

    /// Variables a sandboxed command gets on top of its environment: package managers' caches
    /// moved into the temp dir, the one place outside the project a command may write (the
    /// user's own caches under the home directory stay read-only to it: a cache it could
    /// rewrite, such as extracted sources, would run code in later builds of other projects).
    pub fn env(&self) -> Vec<(&'static str, PathBuf)> {
        let cache = cache_dir();
        vec![
            ("XDG_CACHE_HOME", cache.clone()),
            ("npm_config_cache", cache.join("npm")),
        ]
    }
}

/// The caches of sandboxed commands: one folder per user in the temp dir (0700).
fn cache_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        #[cfg(unix)]
        // SAFETY: a plain getter.
        let user = unsafe { libc::getuid() };
        #[cfg(not(unix))]
        let user = 0;
        let dir = std::env::temp_dir().join(format!("hermes-acp-cache-{user}"));
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        if let Err(e) = builder.create(&dir) {
            tracing::debug!(error = %e, dir = %dir.display(), "no cache folder for sandboxed commands");
        }
        dir
    })
    .clone()
}

impl SandboxPolicy {
    /// Builds the sandbox now, in the parent: every path is opened and every rule added here,
    /// so the child only makes raw system calls (see [`PreparedSandbox::apply`]).
    pub fn prepare(&self) -> Result<PreparedSandbox, SandboxError> {
        let contained = match status() {
            SandboxStatus::Unavailable(reason) => return Err(SandboxError::Unavailable(reason.clone())),
            status => status.is_contained(),
        };
        self.build(contained)
    }

    /// [`prepare`](Self::prepare) at a level measured elsewhere (the agent's probe, handed to
    /// the launcher in `launch.rs`), without probing again.
    pub fn prepare_as(&self, contained: bool) -> Result<PreparedSandbox, SandboxError> {
        self.build(contained)
    }

    #[cfg(target_os = "linux")]
    fn build(&self, contained: bool) -> Result<PreparedSandbox, SandboxError> {
        Ok(PreparedSandbox {
            armed: linux::arm(self, contained)?,
            writable: self.writable.clone(),
            network: self.network,
            contained,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn build(&self, _contained: bool) -> Result<PreparedSandbox, SandboxError> {
        Err(SandboxError::Unavailable(NOT_LINUX.into()))
    }
}

/// Off Linux no `PreparedSandbox` is ever built (`prepare` fails first), so arming is a no-op.
#[cfg(not(target_os = "linux"))]
impl PreparedSandbox {
    pub fn apply(&self, _command: &mut tokio::process::Command) {}

    pub fn apply_std(&self, _command: &mut std::process::Command, _die_with_parent: bool) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_knob_forces_a_level_and_anything_else_probes() {
        let probe = |namespaces: bool| match namespaces {
            true => SandboxStatus::Contained { abi: 7 },
            false => SandboxStatus::Confined {
                abi: 7,
                reason: "forced".into(),
            },
        };
        assert!(!status_from(Some("unavailable"), probe).is_available());
        assert!(!status_from(Some("no-namespaces"), probe).is_contained());
        assert!(status_from(Some("no-namespaces"), probe).is_available());
        assert!(status_from(Some(""), probe).is_contained());
        assert!(status_from(None, probe).is_contained());
    }

    #[test]
    fn no_notice_when_the_user_turned_the_sandbox_off() {
        assert_eq!(unavailable_notice(SandboxMode::Off), None);
    }
}
