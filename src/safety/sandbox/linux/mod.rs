//! The sandbox on Linux: the kernel probes, and turning a [`SandboxPolicy`] into the prepared
//! plan a child executes before `exec` (`child.rs`): namespaces and mounts (`mounts.rs`),
//! the Landlock ruleset (`landlock.rs`) and the seccomp filter (`seccomp.rs`).

mod child;
mod landlock;
mod mounts;
mod seccomp;
mod sys;

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{PreparedSandbox, SandboxError, SandboxPolicy};
use child::ChildPlan;

pub(super) use landlock::abi;

/// The parts of a prepared sandbox only Linux has.
#[derive(Debug)]
pub(super) struct Armed {
    plan: Arc<ChildPlan>,
    /// Kept open until the spawn is over: the child uses it by number.
    _ruleset: OwnedFd,
}

impl std::fmt::Debug for ChildPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildPlan")
            .field("namespaces", &self.namespaces.is_some())
            .field("ruleset", &self.ruleset)
            .finish_non_exhaustive()
    }
}

/// Builds everything in the parent: the child only makes raw system calls.
/// `namespaces`: use the user, mount, PID, IPC and network namespaces (the kernel allows them).
pub(super) fn arm(policy: &SandboxPolicy, namespaces: bool) -> Result<Armed, SandboxError> {
    // With a network namespace the command has its own loopback and nothing else; TCP then
    // needs no Landlock rule. Without one, Landlock and seccomp refuse the network instead.
    let ruleset = landlock::ruleset(&policy.writable, !namespaces && !policy.network)?;
    let seccomp = seccomp::program(namespaces || policy.network).map_err(SandboxError::Setup)?;
    let plan = match namespaces {
        true => Some(mounts::prepare(policy)?),
        false => None,
    };
    // SAFETY: a plain getter.
    let root = unsafe { libc::geteuid() } == 0;
    Ok(Armed {
        plan: Arc::new(ChildPlan {
            namespaces: plan,
            ruleset: ruleset.as_raw_fd(),
            seccomp: seccomp.as_slice(),
            drop_capabilities: root,
        }),
        _ruleset: ruleset,
    })
}

impl Armed {
    /// The `pre_exec` hook that sandboxes the child.
    fn hook(&self) -> impl FnMut() -> io::Result<()> + Send + Sync + 'static {
        let plan = Arc::clone(&self.plan);
        // SAFETY (of the call inside): the hook only runs in std's freshly forked child, and
        // the caller keeps the `PreparedSandbox` — and with it the descriptors — alive for the
        // whole spawn.
        move || unsafe { child::enter(&plan) }
    }
}

impl PreparedSandbox {
    /// Arms `command` so its child sandboxes itself right before `exec`. A child that cannot
    /// (a namespace refused, a mount failed, Landlock or seccomp refused) fails to spawn, and
    /// the error reaches the caller: the sandbox fails closed.
    ///
    /// `self` must outlive the spawn.
    pub fn apply(&self, command: &mut tokio::process::Command) {
        let hook = self.armed.hook();
        // SAFETY: see `child.rs`: the hook is async-signal-safe.
        unsafe {
            command.pre_exec(hook);
        }
    }
}

impl PreparedSandbox {
    /// [`apply`](Self::apply) for a std command. `die_with_parent`: the sandbox dies with the
    /// calling process (the launcher: single-threaded, so the parent-death signal cannot fire
    /// early when some other thread ends).
    pub fn apply_std(&self, command: &mut std::process::Command, die_with_parent: bool) {
        use std::os::unix::process::CommandExt;
        if die_with_parent {
            // SAFETY: `getpid` before the fork; `prctl` and `getppid` in the child are plain
            // syscalls.
            let parent = unsafe { libc::getpid() };
            unsafe {
                command.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    // The parent may have died before the signal was armed.
                    match libc::getppid() == parent {
                        true => Ok(()),
                        false => Err(io::Error::from_raw_os_error(libc::ESRCH)),
                    }
                });
            }
        }
        // SAFETY: see `child.rs`: the hook is async-signal-safe.
        unsafe {
            command.pre_exec(self.armed.hook());
        }
    }
}

/// Whether this kernel lets us build the full sandbox: a real `/bin/sh -c 'exit 0'` spawned
/// inside it must succeed (AppArmor's restriction of unprivileged user namespaces on Ubuntu,
/// `kernel.unprivileged_userns_clone=0`, seccomp profiles of container runtimes all fail here).
pub(super) fn namespaces_work() -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let policy = SandboxPolicy {
        writable: vec![std::env::temp_dir()],
        ..SandboxPolicy::default()
    };
    let armed = arm(&policy, true).map_err(|e| e.to_string())?;
    let mut command = std::process::Command::new("/bin/sh");
    command
        .args(["-c", "exit 0"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: as in `PreparedSandbox::apply`; `armed` lives until the child is reaped.
    unsafe {
        command.pre_exec(armed.hook());
    }
    let mut child = command.spawn().map_err(|e| format!("namespaces refused: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(format!("a sandboxed probe failed ({status})")),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(1)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("a sandboxed probe did not finish".into());
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}
