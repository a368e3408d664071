//! Running a command inside the sandbox from a process of its own. The editor's terminal (ACP
//! `terminal/create`) starts whatever program it is given, so for a command shown there the
//! agent hands it this binary, the shell's own arguments (`-c '<command>'`, which the editor
//! shows as the terminal's label) and, in [`SPEC_ENV`], a spec file — the [`SandboxPolicy`],
//! the level the agent measured and the program to run. The launcher sets up the same sandbox
//! a local command gets, runs the program in it, and exits the way the program did. Its
//! sandboxed child dies with it (`PR_SET_PDEATHSIG`), so the editor killing the terminal ends
//! everything inside.
//!
//! The spec lives in the session's trusted folder (hidden from every sandbox): nothing a
//! sandboxed command runs can change what the next launcher enforces.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{SandboxError, SandboxPolicy};

/// The variable that makes this binary a launcher; it names the spec file (and is removed
/// before the program runs).
pub const SPEC_ENV: &str = "HERMES_ACP_SANDBOX_SPEC";

/// What the agent hands the launcher.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Spec {
    pub policy: SandboxPolicy,
    /// Namespaces are usable here (the agent's probe said so).
    pub contained: bool,
    /// The program to run with the launcher's own arguments (the shell).
    pub program: PathBuf,
}

/// Writes `spec` to `path` (0600, created anew) for a launcher to read.
pub fn write_spec(path: &Path, spec: &Spec) -> std::io::Result<()> {
    use std::io::Write;
    let text = serde_json::to_vec(spec).map_err(std::io::Error::other)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(&text)
}

/// The program the editor's terminal runs instead of the shell: this executable.
pub fn launcher() -> Option<PathBuf> {
    std::env::current_exe().ok()
}

/// The launcher's `main`: `spec` is [`SPEC_ENV`]'s value, `args` the program's arguments.
/// Never returns.
pub fn main(spec: &Path, args: &[OsString]) -> ! {
    let code = match run(spec, args) {
        Ok(code) => code,
        Err(message) => {
            // stderr goes to the editor's terminal, where the user sees why nothing ran.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "hermes-acp: {message}");
            126
        }
    };
    std::process::exit(code)
}

fn run(spec: &Path, args: &[OsString]) -> Result<i32, String> {
    let text = std::fs::read(spec).map_err(|e| format!("cannot read the sandbox spec: {e}"))?;
    let spec: Spec = serde_json::from_slice(&text).map_err(|e| format!("bad sandbox spec: {e}"))?;
    let prepared = spec.policy.prepare_as(spec.contained).map_err(|e| match e {
        SandboxError::Unavailable(reason) | SandboxError::Setup(reason) => {
            format!("the command was not run: the sandbox could not be set up ({reason})")
        }
    })?;
    let mut command = std::process::Command::new(&spec.program);
    command.args(args).envs(prepared.env()).env_remove(SPEC_ENV);
    prepared.apply_std(&mut command, true);
    let status = command.status().map_err(|e| format!("the command was not run: {e}"))?;
    Ok(mirror(status))
}

/// The exit code for the editor: the program's own, or 128 + the signal that killed it.
fn mirror(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return 128 + signal;
    }
    status.code().unwrap_or(1)
}
