//! Landlock on Linux: the kernel probe, the ruleset (built with the `landlock` crate in the
//! parent) and the two raw syscalls that install it in the child between fork and exec.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::PathBuf;

use landlock::{ABI, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr, path_beneath_rules};

use super::{DEVICE_PATHS, PreparedSandbox, SandboxError, SandboxStatus};

/// The newest ABI we know and tested (this is what kernels ≥ 6.15 offer). The crate downgrades
/// the handled rights to what an older kernel supports ("best effort"); a newer kernel's extra
/// rights are simply not handled.
const TARGET_ABI: ABI = ABI::V7;

/// `LANDLOCK_CREATE_RULESET_VERSION`: asks `landlock_create_ruleset` for the ABI version.
const CREATE_RULESET_VERSION: libc::c_uint = 1;

/// Asks the kernel which Landlock ABI it offers.
pub(super) fn probe() -> SandboxStatus {
    // SAFETY: with a null attribute pointer, size 0 and the VERSION flag the syscall only
    // returns a number; it reads and writes no memory of ours.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    if abi >= 1 {
        return SandboxStatus::Available {
            abi: i32::try_from(abi).unwrap_or(i32::MAX),
        };
    }
    let reason = match io::Error::last_os_error().raw_os_error() {
        Some(libc::EOPNOTSUPP) => "Landlock is built into this kernel but not enabled at boot".to_string(),
        Some(libc::ENOSYS) => "this kernel has no Landlock (Linux 5.13 or newer is needed)".to_string(),
        _ => format!("the Landlock probe failed: {}", io::Error::last_os_error()),
    };
    SandboxStatus::Unavailable(reason)
}

/// A ruleset that handles every write-ish filesystem right (write, truncate, make/remove any
/// kind of node, rename/link across directories, device ioctls) and grants them only beneath
/// `writable` and the device paths. Reading and executing are not handled, so they stay
/// allowed everywhere. Paths that do not exist are skipped.
pub(super) fn build_ruleset(writable: &[PathBuf]) -> Result<OwnedFd, SandboxError> {
    let setup = |e: landlock::RulesetError| SandboxError::Setup(e.to_string());
    let write = AccessFs::from_write(TARGET_ABI);
    let ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(write)
        .map_err(setup)?
        .create()
        .map_err(setup)?
        // Files (the device nodes) get only the rights that apply to files: the helper masks
        // directory-only rights for them.
        .add_rules(path_beneath_rules(writable, write))
        .map_err(setup)?
        .add_rules(path_beneath_rules(DEVICE_PATHS, write))
        .map_err(setup)?;
    let fd: Option<OwnedFd> = ruleset.into();
    fd.ok_or_else(|| SandboxError::Unavailable("the kernel refused to create a Landlock ruleset".into()))
}

impl PreparedSandbox {
    /// Arms `command` so its child restricts itself with this ruleset right before `exec`. A
    /// child that cannot restrict itself fails to spawn (the error reaches the caller): the
    /// sandbox fails closed.
    ///
    /// The ruleset must outlive the spawn: `self` is borrowed by the caller across it.
    pub fn apply(&self, command: &mut tokio::process::Command) {
        let fd = self.ruleset.as_raw_fd();
        // SAFETY: the closure runs in the forked child of a multi-threaded parent, where only
        // async-signal-safe work is allowed. It makes two raw syscalls (`prctl` and
        // `landlock_restrict_self`) and, on failure, reads `errno` into an `io::Error` — no
        // allocation, no lock. Everything that allocates or opens paths (the ruleset, its
        // rules) happened before the fork, in `build_ruleset`. The descriptor is inherited by
        // the child (it is close-on-exec, so the command never sees it) and stays open in the
        // parent for the whole spawn because the caller holds `self`.
        unsafe {
            command.pre_exec(move || restrict_self(fd));
        }
    }
}

/// Runs in the child: `no_new_privs` (required by Landlock for unprivileged processes, and it
/// keeps set-uid programs from escaping), then the ruleset for this process and all it execs.
fn restrict_self(ruleset: RawFd) -> io::Result<()> {
    // SAFETY: plain syscalls on integers; no memory is passed.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
