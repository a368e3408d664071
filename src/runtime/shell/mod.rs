//! The local command runner shared by `terminal`, `process` and `execute_code`: picks the
//! shell, spawns a command in its own process group with stdout and stderr merged into one pipe
//! (so their interleaving is kept; `spawn_program` keeps them apart), and kills the whole group
//! — grandchildren included — on timeout, cancel, or when the owner is dropped mid-run. The platform parts live in `group.rs`.

pub mod ansi;
pub mod capture;
mod group;
pub mod sandbox;
mod snapshot;

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, ChildStdin, Command};

pub use group::{OutputPipe, SIGKILL, SIGTERM, exit_code, signal_group};
pub use snapshot::{EnvSnapshot, RunFiles};

use crate::safety::sandbox::PreparedSandbox;
use crate::safety::secrets::ChildEnv;

/// How long a command may run when the call gives no timeout (Hermes `TERMINAL_TIMEOUT`):
/// `terminal`'s foreground default and the longest `process` wait.
pub const DEFAULT_TIMEOUT_SECS: u64 = 180;

/// How long a process group gets between SIGTERM and SIGKILL.
pub const KILL_GRACE: Duration = Duration::from_millis(1500);

/// How long output is still read after the shell exited: a leftover grandchild may hold the
/// pipe open forever, but whatever the shell itself printed is already in the pipe.
pub const DRAIN_GRACE: Duration = Duration::from_millis(300);

/// The shell commands run under: bash when installed, else POSIX sh.
pub fn shell_program() -> &'static Path {
    static SHELL: OnceLock<PathBuf> = OnceLock::new();
    // Windows: Git for Windows' bash.exe on PATH; there is no /bin/sh to fall back to.
    let name = if cfg!(windows) { "bash.exe" } else { "bash" };
    SHELL.get_or_init(|| find_program(name).unwrap_or_else(|| PathBuf::from("/bin/sh")))
}

/// What the child's stdin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinMode {
    /// `/dev/null`: foreground commands never wait for input.
    Null,
    /// A pipe the `process` tool writes to.
    Piped,
}

/// A running shell command that leads its own process group.
pub struct ShellChild {
    /// Declared first so it is dropped first: the group is killed before the child handle is
    /// released for reaping (after which the group id could, in principle, be reused).
    guard: GroupGuard,
    pub child: Child,
    /// The leader's pid, which is also the process group id.
    pub pid: i32,
    /// Merged stdout and stderr.
    pub output: OutputPipe,
    pub stdin: Option<ChildStdin>,
}

/// Spawns `shell -c script $0 args…` in `cwd`, leading a new process group, with exactly the
/// environment `env` (ours minus credentials: see `safety::secrets::ChildEnv`); under the OS
/// sandbox when one is given.
pub fn spawn(
    script: &str,
    args: &[&OsStr],
    cwd: &Path,
    stdin: StdinMode,
    env: &ChildEnv,
    sandbox: Option<&PreparedSandbox>,
) -> io::Result<ShellChild> {
    let (reader, writer) = io::pipe()?;
    let mut command = Command::new(shell_program());
    command
        .arg("-c")
        .arg(script)
        .arg("hermes-acp")
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .envs(env.vars().iter().map(|(k, v)| (k, v)))
        .stdout(writer.try_clone()?)
        .stderr(writer)
        .stdin(match stdin {
            StdinMode::Null => Stdio::null(),
            StdinMode::Piped => Stdio::piped(),
        });
    start(command, reader, sandbox)
}

/// Spawns `program args…` directly (no shell) the way [`spawn`] does — its own process group,
/// exactly `env` plus `extra_env`, under the OS sandbox when one is given, stdin `/dev/null` —
/// but with stderr in a pipe of its own (returned beside the child), for callers that report
/// the two streams apart (`execute_code`). `inherit` is a descriptor the program keeps under
/// its own number (everything else of ours is close-on-exec).
#[cfg(unix)]
pub fn spawn_program(
    program: &Path,
    args: &[&OsStr],
    cwd: &Path,
    env: &ChildEnv,
    extra_env: &[(&str, &OsStr)],
    inherit: Option<std::os::fd::BorrowedFd<'_>>,
    sandbox: Option<&PreparedSandbox>,
) -> io::Result<(ShellChild, OutputPipe)> {
    let (reader, writer) = io::pipe()?;
    let (err_reader, err_writer) = io::pipe()?;
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .envs(env.vars().iter().map(|(k, v)| (k, v)))
        .envs(extra_env.iter().copied())
        .stdout(writer)
        .stderr(err_writer)
        .stdin(Stdio::null());
    if let Some(fd) = inherit {
        let fd = std::os::fd::AsRawFd::as_raw_fd(&fd);
        // SAFETY: one `fcntl` on a descriptor the caller keeps open across the spawn; it runs
        // before the sandbox's hook, so the program (and only it) inherits the descriptor.
        unsafe {
            command.pre_exec(move || match libc::fcntl(fd, libc::F_SETFD, 0) {
                -1 => Err(io::Error::last_os_error()),
                _ => Ok(()),
            });
        }
    }
    let child = start(command, reader, sandbox)?;
    Ok((child, group::output_pipe(err_reader)?))
}

/// The common tail of every spawn: a new process group, the sandbox, and the guard that kills
/// the group if the owner is dropped.
fn start(mut command: Command, reader: io::PipeReader, sandbox: Option<&PreparedSandbox>) -> io::Result<ShellChild> {
    group::lead_new_group(&mut command);
    if let Some(sandbox) = sandbox {
        command.envs(sandbox.env());
        sandbox.apply(&mut command);
    }
    let mut child = command.spawn()?;
    // The command keeps the parent's copy of the pipes' write ends: drop them now, or reading
    // the output would never see end-of-file.
    drop(command);
    let pid = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .ok_or_else(|| io::Error::other("child has no pid"))?;
    let guard = GroupGuard { pgid: pid, armed: true };
    let output = group::output_pipe(reader)?;
    let stdin = child.stdin.take();
    Ok(ShellChild {
        child,
        pid,
        output,
        stdin,
        guard,
    })
}

impl ShellChild {
    /// Waits for the leader to exit; afterwards nothing is killed on drop.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        let status = self.child.wait().await;
        self.guard.armed = false;
        status
    }

    /// Feeds the output to `sink` until the leader exits and the pipe is drained — or, when a
    /// leftover grandchild keeps the pipe open, until [`DRAIN_GRACE`] after the exit. Cancel
    /// safe: whatever was read before the future is dropped has reached `sink`.
    pub async fn run_to_exit(&mut self, sink: &mut impl FnMut(&[u8])) -> io::Result<ExitStatus> {
        let ShellChild {
            child, output, guard, ..
        } = self;
        let read = read_all(output, sink);
        tokio::pin!(read);
        let status = tokio::select! {
            () = &mut read => child.wait().await,
            status = child.wait() => {
                let _ = tokio::time::timeout(DRAIN_GRACE, &mut read).await;
                status
            }
        };
        guard.armed = false;
        status
    }

    /// Reads whatever output arrives within `within` (after a kill, the last words).
    pub async fn drain(&mut self, sink: &mut impl FnMut(&[u8]), within: Duration) {
        let _ = tokio::time::timeout(within, read_all(&mut self.output, sink)).await;
    }

    /// Kills the whole group: SIGTERM, up to `grace` for the leader to exit, then SIGKILL for
    /// everything left in the group.
    pub async fn terminate(&mut self, grace: Duration) -> Option<ExitStatus> {
        signal_group(self.pid, SIGTERM);
        let early = tokio::time::timeout(grace, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok);
        // Members that ignored SIGTERM (or were stopped) go now. The group id cannot be reused
        // while any member is alive, so this never hits an unrelated process group.
        signal_group(self.pid, SIGKILL);
        let status = match early {
            Some(status) => Some(status),
            None => self.child.wait().await.ok(),
        };
        self.guard.armed = false;
        status
    }
}

/// Kills the group with SIGKILL if the owner is dropped before the leader was reaped (the
/// caller's future was dropped mid-command).
struct GroupGuard {
    pgid: i32,
    armed: bool,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            signal_group(self.pgid, SIGKILL);
        }
    }
}

/// Reads `output` to end-of-file, handing every chunk to `sink`.
pub async fn read_all(output: &mut OutputPipe, sink: &mut impl FnMut(&[u8])) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match output.read(&mut buf).await {
            Ok(0) => return,
            Ok(n) => sink(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                tracing::debug!(error = %e, "reading command output failed");
                return;
            }
        }
    }
}

/// A fresh name in the system temp dir (nothing is created).
pub fn temp_path(kind: &str) -> PathBuf {
    let suffix: String = (0..12).map(|_| fastrand::alphanumeric()).collect();
    std::env::temp_dir().join(format!("hermes-acp-{kind}-{}-{suffix}", std::process::id()))
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/bin", "/usr/bin", "/usr/local/bin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| group::is_executable(candidate))
}

/// Helpers shared by the shell, terminal and process tests.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use tokio_util::sync::CancellationToken;

    use crate::runtime::{Approver, SessionScope, ToolContext};

    /// A context rooted at `dir` with the given approver and fresh session state.
    pub(crate) fn test_ctx(dir: &Path, approver: Arc<dyn Approver>) -> ToolContext {
        let session = SessionScope::local("session-1", dir.to_path_buf(), approver);
        ToolContext::new(
            Arc::new(session),
            Default::default(),
            "call-1",
            CancellationToken::new(),
        )
    }

    /// `text` as one single-quoted shell word.
    pub(crate) fn quote(text: &str) -> String {
        format!("'{}'", text.replace('\'', "'\\''"))
    }

    /// A fresh name for [`marked_sleep`].
    pub(crate) fn unique_marker() -> String {
        format!("hermes-test-sleeper-{}", fastrand::u64(..))
    }

    /// A command that sleeps 30 s under the process name `marker` (bash's `exec -a`): the
    /// sandbox gives commands their own PID namespace, so a test finds them by name, not pid.
    pub(crate) fn marked_sleep(marker: &str) -> String {
        format!("bash -c 'exec -a {marker} sleep 30'")
    }

    /// True once no process on the machine has `marker` in its command line (zombies aside),
    /// polling for up to three seconds.
    pub(crate) async fn marker_gone(marker: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let alive = std::fs::read_dir("/proc").into_iter().flatten().flatten().any(|entry| {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                // A zombie's command line is empty.
                String::from_utf8_lossy(&cmdline).contains(marker)
            });
            if !alive {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// True once `pid` no longer runs (absent, or a zombie nobody reaped yet), polling for up
    /// to three seconds.
    pub(crate) async fn pid_gone(pid: i32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The state letter follows the parenthesised command name.
            let state = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next());
            if matches!(state, None | Some("Z" | "X")) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

// Unix only: the tests run bash and signal process groups.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn merges_stdout_and_stderr_in_order_and_reports_the_exit_code() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = spawn(
            "echo out; echo err >&2; echo \"$1\"; exit 3",
            &[OsStr::new("arg")],
            dir.path(),
            StdinMode::Null,
            &ChildEnv::default(),
            None,
        )
        .unwrap();
        let mut text = Vec::new();
        read_all(&mut child.output, &mut |chunk: &[u8]| text.extend_from_slice(chunk)).await;
        let status = child.wait().await.unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), "out\nerr\narg\n");
        assert_eq!(exit_code(status), 3);
    }

    #[tokio::test]
    async fn terminate_kills_a_shell_that_ignores_sigterm() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = spawn(
            "trap '' TERM; sleep 30",
            &[],
            dir.path(),
            StdinMode::Null,
            &ChildEnv::default(),
            None,
        )
        .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let status = child.terminate(Duration::from_millis(200)).await.unwrap();
        assert_eq!(exit_code(status), -i64::from(SIGKILL));
    }

    #[test]
    fn the_shell_exists() {
        assert!(shell_program().exists());
        assert!(temp_path("x").starts_with(std::env::temp_dir()));
    }
}
