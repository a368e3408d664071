//! The script's process: `python script.py` started through the shared spawn path (its own
//! process group, the session's child environment, the OS sandbox of local commands), its
//! stdout and stderr read to the end into bounded captures (so it never blocks on a full pipe),
//! while the tool server answers its calls. Killed with its whole group on timeout, on cancel,
//! and when the owning future is dropped.

use std::ffi::OsStr;
use std::path::Path;
use std::time::{Duration, Instant};

use super::output::{Capture, Ending, MAX_STDERR_BYTES, MAX_STDOUT_BYTES};
use super::rpc::RpcServer;
use crate::runtime::ToolContext;
use crate::runtime::shell::{self, read_all};
use crate::safety::sandbox::PreparedSandbox;

/// How to start one script.
pub(super) struct Launch<'a> {
    pub python: &'a Path,
    pub script: &'a Path,
    pub cwd: &'a Path,
    pub extra_env: &'a [(&'a str, &'a OsStr)],
    /// The script's end of the tool channel, inherited under its own number.
    pub channel: std::os::fd::BorrowedFd<'a>,
    pub sandbox: Option<&'a PreparedSandbox>,
    pub timeout: Duration,
}

/// What came out of a run that started.
pub(super) struct Ran {
    pub ending: Ending,
    pub stdout: Capture,
    pub stderr: Capture,
    pub duration: Duration,
    /// The script's pid (the tests check it is gone).
    pub pid: i32,
}

/// Runs the script to its end while `server` answers its tool calls. `Err` when it could not
/// start.
pub(super) async fn run(ctx: &ToolContext, launch: Launch<'_>, server: &RpcServer) -> std::io::Result<Ran> {
    let started = Instant::now();
    let (mut child, mut stderr_pipe) = shell::spawn_program(
        launch.python,
        &[launch.script.as_os_str()],
        launch.cwd,
        &ctx.services.child_env,
        launch.extra_env,
        Some(launch.channel),
        launch.sandbox,
    )?;
    let pid = child.pid;
    tracing::debug!(pid, "execute_code: script started");
    let mut stdout = Capture::head_and_tail(MAX_STDOUT_BYTES);
    let mut stderr = Capture::head_only(MAX_STDERR_BYTES);
    let deadline = tokio::time::Instant::now() + launch.timeout;
    let ending = {
        let mut out_sink = |bytes: &[u8]| stdout.push(bytes);
        let mut err_sink = |bytes: &[u8]| stderr.push(bytes);
        let ending = {
            let exited = child.run_to_exit(&mut out_sink);
            let errors = read_all(&mut stderr_pipe, &mut err_sink);
            let serving = server.serve(ctx);
            tokio::pin!(exited, errors, serving);
            let mut errors_done = false;
            let ending = loop {
                tokio::select! {
                    biased;
                    status = &mut exited => break Stop::Exited(status),
                    () = &mut errors, if !errors_done => errors_done = true,
                    () = &mut serving => {}
                    () = tokio::time::sleep_until(deadline) => break Stop::TimedOut,
                    () = ctx.cancel.cancelled() => break Stop::Cancelled,
                }
            };
            if !errors_done && matches!(ending, Stop::Exited(_)) {
                // A grandchild may keep stderr open; what the script wrote is already there.
                let _ = tokio::time::timeout(shell::DRAIN_GRACE, &mut errors).await;
            }
            ending
        };
        match ending {
            Stop::Exited(Ok(status)) => Ending::Exited(shell::exit_code(status)),
            Stop::Exited(Err(e)) => return Err(e),
            Stop::Cancelled => {
                stop(&mut child, &mut out_sink, &mut err_sink, &mut stderr_pipe).await;
                Ending::Interrupted
            }
            Stop::TimedOut => {
                stop(&mut child, &mut out_sink, &mut err_sink, &mut stderr_pipe).await;
                Ending::TimedOut(launch.timeout)
            }
        }
    };
    Ok(Ran {
        ending,
        stdout,
        stderr,
        duration: started.elapsed(),
        pid,
    })
}

/// Kills the script's whole group and reads its last words.
async fn stop(
    child: &mut shell::ShellChild,
    out_sink: &mut impl FnMut(&[u8]),
    err_sink: &mut impl FnMut(&[u8]),
    stderr_pipe: &mut shell::OutputPipe,
) {
    child.terminate(shell::KILL_GRACE).await;
    child.drain(out_sink, shell::DRAIN_GRACE).await;
    let _ = tokio::time::timeout(shell::DRAIN_GRACE, read_all(stderr_pipe, err_sink)).await;
}

/// Why the wait ended.
enum Stop {
    Exited(std::io::Result<std::process::ExitStatus>),
    TimedOut,
    Cancelled,
}
