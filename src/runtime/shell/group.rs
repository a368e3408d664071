//! The platform side of running a command: making it lead its own process group, signalling
//! that group, decoding an exit status, and reading the merged output pipe asynchronously.
//! Unix has all of it. Windows degrades: a command gets a new process group (so Ctrl-C in our
//! console does not reach it), "SIGTERM" does nothing, "SIGKILL" kills the process tree with
//! `taskkill /T /F`, and a dropped child is killed through its handle (`kill_on_drop`).

use std::io;
use std::process::ExitStatus;

use tokio::process::Command;

/// The signal numbers the tools speak in (and report as negative exit codes).
#[cfg(unix)]
pub use libc::{SIGKILL, SIGTERM};
/// Windows has no signals; the tools still report a kill as `-9`, as on Unix.
#[cfg(windows)]
pub const SIGTERM: i32 = 15;
#[cfg(windows)]
pub const SIGKILL: i32 = 9;

/// Merged stdout and stderr of a command, readable with `tokio::io::AsyncReadExt`.
#[cfg(unix)]
pub type OutputPipe = tokio::net::unix::pipe::Receiver;
#[cfg(windows)]
pub type OutputPipe = tokio::io::DuplexStream;

/// Makes the command lead a new process group (its pid is the group id).
pub fn lead_new_group(command: &mut Command) {
    #[cfg(unix)]
    command.process_group(0);
    #[cfg(windows)]
    {
        // CREATE_NEW_PROCESS_GROUP: our console's Ctrl-C does not reach the command.
        command.creation_flags(0x0000_0200);
        // No process group to kill on Windows: the handle is the fallback when dropped.
        command.kill_on_drop(true);
    }
}

/// Turns the read end of the output pipe into an async reader.
#[cfg(unix)]
pub fn output_pipe(reader: io::PipeReader) -> io::Result<OutputPipe> {
    use std::os::fd::OwnedFd;
    tokio::net::unix::pipe::Receiver::from_owned_fd(OwnedFd::from(reader))
}

/// Turns the read end of the output pipe into an async reader. Tokio cannot poll an anonymous
/// pipe on Windows, so a thread copies it into an in-memory stream; it ends with the pipe.
#[cfg(windows)]
pub fn output_pipe(mut reader: io::PipeReader) -> io::Result<OutputPipe> {
    use std::io::Read;
    use tokio::io::AsyncWriteExt;
    let (ours, mut theirs) = tokio::io::duplex(64 * 1024);
    std::thread::Builder::new()
        .name("hermes-acp-output".into())
        .spawn(move || {
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if futures::executor::block_on(theirs.write_all(&buf[..n])).is_err() {
                            return;
                        }
                    }
                }
            }
        })?;
    Ok(ours)
}

/// Sends `signal` to every process of group `pgid`; a group that is already gone is fine.
#[cfg(unix)]
pub fn signal_group(pgid: i32, signal: i32) {
    if pgid <= 1 {
        return;
    }
    // SAFETY: killpg only sends a signal; it has no memory-safety preconditions.
    let rc = unsafe { libc::killpg(pgid, signal) };
    if rc != 0 {
        tracing::debug!(pgid, signal, error = %io::Error::last_os_error(), "killpg failed");
    }
}

/// Windows: `SIGKILL` kills the process tree rooted at `pid`; anything else is ignored (there
/// is no polite termination request for console programs).
#[cfg(windows)]
pub fn signal_group(pid: i32, signal: i32) {
    if pid <= 0 || signal != SIGKILL {
        return;
    }
    let killed = std::process::Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    if let Err(e) = killed {
        tracing::debug!(pid, error = %e, "taskkill failed");
    }
}

/// The exit code reported to the model: the process's code, or minus the signal number when a
/// signal killed it (the convention Hermes inherits from Python's `returncode`).
pub fn exit_code(status: ExitStatus) -> i64 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let (None, Some(signal)) = (status.code(), status.signal()) {
            return -i64::from(signal);
        }
    }
    status.code().map_or(-1, i64::from)
}

/// Whether `path` is a program we can run.
pub fn is_executable(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.is_absolute()
            && path
                .metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_absolute() && path.is_file()
    }
}
