//! Landlock: the kernel probe and the ruleset, built with the `landlock` crate in the parent
//! and installed by the child (`child.rs`). It confines writes to the writable roots, scopes
//! signals and abstract Unix sockets to the sandbox (ABI ≥ 6), and — where no network
//! namespace isolates the command — refuses TCP binds and connects (ABI ≥ 4).

use std::io;
use std::os::fd::OwnedFd;
use std::path::PathBuf;

use landlock::{
    ABI, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
    path_beneath_rules,
};

use super::super::{DEVICE_PATHS, SandboxError};

/// The newest ABI we know and tested (this is what kernels ≥ 6.15 offer). The crate downgrades
/// the handled rights to what an older kernel supports ("best effort"); a newer kernel's extra
/// rights are simply not handled.
const TARGET_ABI: ABI = ABI::V7;

/// `LANDLOCK_CREATE_RULESET_VERSION`: asks `landlock_create_ruleset` for the ABI version.
const CREATE_RULESET_VERSION: libc::c_uint = 1;

/// The kernel's Landlock ABI, or why there is none.
pub(in crate::safety::sandbox) fn abi() -> Result<i32, String> {
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
        return Ok(i32::try_from(abi).unwrap_or(i32::MAX));
    }
    Err(match io::Error::last_os_error().raw_os_error() {
        Some(libc::EOPNOTSUPP) => "Landlock is built into this kernel but not enabled at boot".to_string(),
        Some(libc::ENOSYS) => "this kernel has no Landlock (Linux 5.13 or newer is needed)".to_string(),
        _ => format!("the Landlock probe failed: {}", io::Error::last_os_error()),
    })
}

/// A ruleset that handles every write-ish filesystem right (write, truncate, make/remove any
/// kind of node, rename/link across directories, device ioctls) and grants them only beneath
/// `writable` and the device paths. Reading and executing are not handled, so they stay
/// allowed everywhere (secrets are hidden by the mount namespace instead). Signals and
/// abstract Unix sockets are scoped to the sandbox; `deny_tcp` also refuses every TCP bind and
/// connect. Paths that do not exist are skipped.
pub(super) fn ruleset(writable: &[PathBuf], deny_tcp: bool) -> Result<OwnedFd, SandboxError> {
    let setup = |e: landlock::RulesetError| SandboxError::Setup(e.to_string());
    let write = AccessFs::from_write(TARGET_ABI);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(write)
        .map_err(setup)?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(setup)?;
    if deny_tcp {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(setup)?;
    }
    let created = ruleset
        .create()
        .map_err(setup)?
        // Files (the device nodes) get only the rights that apply to files: the helper masks
        // directory-only rights for them.
        .add_rules(path_beneath_rules(writable, write))
        .map_err(setup)?
        .add_rules(path_beneath_rules(DEVICE_PATHS, write))
        .map_err(setup)?;
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| SandboxError::Unavailable("the kernel refused to create a Landlock ruleset".into()))
}
