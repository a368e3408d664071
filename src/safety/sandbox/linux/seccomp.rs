//! The seccomp filter every sandboxed command runs under, compiled once per variant with
//! `seccompiler` and installed by the child (`child.rs`). It is a short deny list for what the
//! other layers cannot express:
//! - `socket()` of any family but the allowed ones: never `AF_UNIX` (a pathname socket is how
//!   a command would reach a user daemon — tmux, ssh-agent, docker, systemd, D-Bus — and run
//!   something outside the sandbox; `socketpair` stays allowed, so pipes between a command's
//!   own processes work), and no `AF_INET`/`AF_INET6` when neither a network namespace nor a
//!   grant gives the command a network of its own;
//! - `io_uring_*` (its operations bypass seccomp), the kernel keyrings (`keyctl`, `add_key`,
//!   `request_key`: the user's session keyring may hold credentials) and the terminal
//!   injection ioctls `TIOCSTI`/`TIOCLINUX` (typing into the user's terminal);
//! - on x86_64 the same calls through the x32 ABI numbers. A foreign architecture (i386
//!   `int 0x80`) kills the process: its numbers would slip past the list.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch,
};

/// The filter for a command that may (`inet`) or may not open IP sockets.
pub(super) fn program(inet: bool) -> Result<&'static BpfProgram, String> {
    static WITH_INET: OnceLock<Result<BpfProgram, String>> = OnceLock::new();
    static WITHOUT_INET: OnceLock<Result<BpfProgram, String>> = OnceLock::new();
    let cell = if inet { &WITH_INET } else { &WITHOUT_INET };
    cell.get_or_init(|| compile(inet)).as_ref().map_err(Clone::clone)
}

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;
#[cfg(target_arch = "riscv64")]
const ARCH: TargetArch = TargetArch::riscv64;

/// The x32 ABI marks its syscall numbers with this bit on x86_64 kernels.
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// The calls denied whatever their arguments: `io_uring_*` (its operations bypass seccomp) and
/// the kernel keyrings. One list, so the x32 numbers of the same calls cannot fall behind it.
const ALWAYS_DENIED: [i64; 6] = [
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
];

/// x32's own `ioctl` number (x32 does not share x86_64's).
#[cfg(target_arch = "x86_64")]
const X32_IOCTL: i64 = 514;

fn compile(inet: bool) -> Result<BpfProgram, String> {
    let err = |e: seccompiler::BackendError| e.to_string();
    let mut families = vec![libc::AF_NETLINK];
    if inet {
        families.extend([libc::AF_INET, libc::AF_INET6]);
    }
    // One rule whose conditions all hold (AND) when the family is none of the allowed ones.
    let other_family = families
        .iter()
        .map(|family| SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, *family as u64).map_err(err))
        .collect::<Result<Vec<_>, _>>()?;
    let socket = vec![SeccompRule::new(other_family).map_err(err)?];
    let injection = [libc::TIOCSTI, libc::TIOCLINUX]
        .into_iter()
        .map(|request| {
            // The request's type differs between C libraries (glibc: u64, musl: i32).
            #[allow(clippy::unnecessary_cast)]
            let request = request as u64;
            let request = SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, request);
            SeccompRule::new(vec![request.map_err(err)?]).map_err(err)
        })
        .collect::<Result<Vec<_>, _>>()?;

    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_socket, socket);
    rules.insert(libc::SYS_ioctl, injection);
    // An empty rule list matches the call whatever its arguments.
    for always in ALWAYS_DENIED {
        rules.insert(always, Vec::new());
    }
    // Through x32 the calls are denied whatever their arguments, `socket` included.
    #[cfg(target_arch = "x86_64")]
    for x32 in [libc::SYS_socket].into_iter().chain(ALWAYS_DENIED).chain([X32_IOCTL]) {
        rules.insert(X32 | x32, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        ARCH,
    )
    .map_err(err)?;
    filter.try_into().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_variants_compile_once() {
        let with = program(true).unwrap();
        let without = program(false).unwrap();
        assert!(!with.is_empty() && !without.is_empty());
        // The IP families add two conditions to the socket rule.
        assert!(with.len() > without.len());
        assert!(std::ptr::eq(with, program(true).unwrap()));
    }
}
