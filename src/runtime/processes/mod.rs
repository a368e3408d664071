//! Background processes of one session (started by `terminal(background=true)`; the `process`
//! tool manages them). Each process leads its own process group; one monitor task
//! per process captures its merged output into a bounded ring and records its exit. The table
//! is owned by the session's tool state, so dropping it (session close, server exit) kills
//! every process still running.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::process::ChildStdin;
use tokio::sync::watch;
use tokio::task::AbortHandle;

use super::shell::capture::OutputRing;
use super::shell::{self, EnvSnapshot, StdinMode};
use crate::safety::sandbox::PreparedSandbox;
use crate::safety::secrets::ChildEnv;
use crate::sync::lock;

/// Output kept per process (Hermes' rolling buffer size).
pub const MAX_OUTPUT_CHARS: usize = 200_000;

/// Processes tracked per session before finished ones are pruned.
const MAX_PROCESSES: usize = 64;

/// Finished processes are forgotten after this long.
const FINISHED_TTL: Duration = Duration::from_secs(30 * 60);

/// How long `kill_all` lets processes react to SIGTERM before SIGKILL.
const KILL_ALL_GRACE: Duration = Duration::from_millis(100);

/// Starts a background command: restores the session's exported environment, enters the
/// working directory, then runs the command. `$1` command, `$2` env snapshot, `$3` cwd.
const BACKGROUND_SCRIPT: &str = r#"__hermes_cmd=$1
if [ -s "$2" ]; then . "$2" >/dev/null 2>&1; fi
cd -- "$3" || exit 126
shift 3
eval "$__hermes_cmd""#;

/// Background processes of one session, plus the session shell's saved environment (the other
/// piece of per-session shell state).
#[derive(Default)]
pub struct ProcessTable {
    processes: Mutex<Vec<Arc<BackgroundProcess>>>,
    env: EnvSnapshot,
}

/// One process started with `terminal(background=true)`.
pub struct BackgroundProcess {
    /// `proc_<12 hex>`, the `session_id` the model passes to the `process` tool.
    pub id: String,
    pub command: String,
    pub cwd: PathBuf,
    /// Leader pid, also the process group id.
    pub pid: i32,
    started_at: chrono::DateTime<chrono::Local>,
    started: Instant,
    output: Mutex<OutputRing>,
    /// `Some(exit code)` once the leader exited and its output was drained.
    exit: watch::Sender<Option<i64>>,
    /// When it exited, for pruning.
    ended: Mutex<Option<Instant>>,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    monitor: Mutex<Option<AbortHandle>>,
}

impl ProcessTable {
    /// Starts `command` in `cwd` in the background (under the OS sandbox when one is given),
    /// restoring the session shell's environment from `saved_env`, and tracks it.
    /// `sweep` (see `shell::sandbox::Sweep`) runs when it exits.
    pub fn spawn(
        &self,
        command: &str,
        cwd: &Path,
        env: &ChildEnv,
        sandbox: Option<&PreparedSandbox>,
        sweep: Option<shell::sandbox::Sweep>,
        saved_env: &Path,
    ) -> io::Result<Arc<BackgroundProcess>> {
        let args = [OsStr::new(command), saved_env.as_os_str(), cwd.as_os_str()];
        let mut child = shell::spawn(BACKGROUND_SCRIPT, &args, cwd, StdinMode::Piped, env, sandbox)?;
        let process = Arc::new(BackgroundProcess {
            id: new_id(),
            command: command.to_string(),
            cwd: cwd.to_path_buf(),
            pid: child.pid,
            started_at: chrono::Local::now(),
            started: Instant::now(),
            output: Mutex::new(OutputRing::new(MAX_OUTPUT_CHARS)),
            exit: watch::Sender::new(None),
            ended: Mutex::new(None),
            stdin: tokio::sync::Mutex::new(child.stdin.take()),
            monitor: Mutex::new(None),
        });
        let monitored = Arc::clone(&process);
        let task = tokio::spawn(async move {
            let status = child
                .run_to_exit(&mut |bytes: &[u8]| lock(&monitored.output).push(bytes))
                .await;
            let code = status.map(shell::exit_code).unwrap_or(-1);
            if let Some(note) = sweep.and_then(|s| shell::sandbox::sweep_note(Some(&s))) {
                lock(&monitored.output).push(format!("\n[{note}]\n").as_bytes());
            }
            *lock(&monitored.ended) = Some(Instant::now());
            monitored.exit.send_replace(Some(code));
            tracing::debug!(id = %monitored.id, code, "background process exited");
        });
        *lock(&process.monitor) = Some(task.abort_handle());
        let mut processes = lock(&self.processes);
        prune(&mut processes);
        processes.push(Arc::clone(&process));
        Ok(process)
    }

    /// The process with this id.
    pub fn get(&self, id: &str) -> Option<Arc<BackgroundProcess>> {
        lock(&self.processes).iter().find(|p| p.id == id).cloned()
    }

    /// Every tracked process, oldest first.
    pub fn list(&self) -> Vec<Arc<BackgroundProcess>> {
        lock(&self.processes).clone()
    }

    /// The session shell's saved state and private scratch directory.
    pub fn shell_state(&self) -> &EnvSnapshot {
        &self.env
    }

    /// Kills every tracked process group that is still running, synchronously: SIGTERM, a short
    /// grace, then SIGKILL. Called on session close and server exit (and by `Drop`).
    pub fn kill_all(&self) {
        let processes = std::mem::take(&mut *lock(&self.processes));
        let running: Vec<_> = processes.iter().filter(|p| p.exit_code().is_none()).collect();
        for process in &running {
            shell::signal_group(process.pid, shell::SIGTERM);
        }
        if !running.is_empty() {
            std::thread::sleep(KILL_ALL_GRACE);
        }
        for process in &running {
            shell::signal_group(process.pid, shell::SIGKILL);
        }
        for process in &processes {
            if let Some(monitor) = lock(&process.monitor).take() {
                monitor.abort();
            }
            // The monitor will never record the exit now; release anyone still waiting for it.
            process.exit.send_if_modified(|code| {
                let unset = code.is_none();
                if unset {
                    *code = Some(-i64::from(shell::SIGKILL));
                }
                unset
            });
        }
    }
}

impl Drop for ProcessTable {
    fn drop(&mut self) {
        self.kill_all();
    }
}

impl BackgroundProcess {
    /// The exit code once the process has exited.
    pub fn exit_code(&self) -> Option<i64> {
        *self.exit.borrow()
    }

    /// `running` or `exited`, as Hermes reports it.
    pub fn status(&self) -> &'static str {
        if self.exit_code().is_some() {
            "exited"
        } else {
            "running"
        }
    }

    pub fn uptime_seconds(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// Start time in local time, `YYYY-MM-DDTHH:MM:SS`.
    pub fn started_at(&self) -> String {
        self.started_at.format("%Y-%m-%dT%H:%M:%S").to_string()
    }

    /// The last `n` characters of output, ANSI escapes removed.
    pub fn output_tail(&self, n: usize) -> String {
        shell::ansi::strip_ansi(lock(&self.output).tail(n))
    }

    /// All output kept, ANSI escapes removed.
    pub fn output(&self) -> String {
        shell::ansi::strip_ansi(lock(&self.output).text())
    }

    /// Waits until the process has exited; returns its exit code.
    pub async fn wait_exit(&self) -> i64 {
        let mut exit = self.exit.subscribe();
        match exit.wait_for(Option::is_some).await {
            Ok(code) => code.unwrap_or(-1),
            // The sender lives in `self`, so it cannot be gone while we borrow it.
            Err(_) => -1,
        }
    }

    /// Kills the process group: SIGTERM, then SIGKILL if the leader is still there after the
    /// grace period. Returns the exit code (minus the signal number when killed by one).
    pub async fn kill(&self) -> Option<i64> {
        shell::signal_group(self.pid, shell::SIGTERM);
        if let Ok(code) = tokio::time::timeout(shell::KILL_GRACE, self.wait_exit()).await {
            return Some(code);
        }
        shell::signal_group(self.pid, shell::SIGKILL);
        tokio::time::timeout(Duration::from_secs(5), self.wait_exit())
            .await
            .ok()
    }

    /// Writes `data` to the process's stdin. `Ok(false)` when stdin was already closed.
    pub async fn write_stdin(&self, data: &[u8]) -> io::Result<bool> {
        use tokio::io::AsyncWriteExt;
        let mut stdin = self.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Ok(false);
        };
        // A process that never reads would block the write forever once the pipe is full.
        let write = async {
            pipe.write_all(data).await?;
            pipe.flush().await
        };
        match tokio::time::timeout(Duration::from_secs(10), write).await {
            Ok(result) => result.map(|()| true),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "timed out writing to stdin (the process is not reading it)",
            )),
        }
    }

    /// Closes stdin (the process sees end-of-file). `false` when it was already closed.
    pub async fn close_stdin(&self) -> bool {
        self.stdin.lock().await.take().is_some()
    }
}

/// Drops finished processes past their TTL, then the oldest finished ones while over the cap.
fn prune(processes: &mut Vec<Arc<BackgroundProcess>>) {
    let expired = |p: &BackgroundProcess| lock(&p.ended).is_some_and(|t| t.elapsed() > FINISHED_TTL);
    processes.retain(|p| !expired(p));
    while processes.len() >= MAX_PROCESSES {
        let Some(oldest) = processes.iter().position(|p| p.exit_code().is_some()) else {
            break;
        };
        processes.remove(oldest);
    }
}

fn new_id() -> String {
    let hex: String = (0..12)
        .map(|_| char::from_digit(fastrand::u32(0..16), 16).unwrap_or('0'))
        .collect();
    format!("proc_{hex}")
}
