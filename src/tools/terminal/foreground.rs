//! Foreground commands: run under a small wrapper script that restores the session shell's
//! exported environment, runs the command, then records the final directory and environment
//! so a `cd` or `export` carries over to the next call. Times out or is cancelled by killing
//! the whole process group.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::{MAX_OUTPUT_CHARS, guard, hosted};
use crate::runtime::output::head_tail;
use crate::runtime::shell::ansi::strip_ansi;
use crate::runtime::shell::capture::HeadTail;
use crate::runtime::shell::{self, StdinMode, sandbox};
use crate::safety::sandbox::launch;

/// Why a command meant for the editor's terminal did not run.
const NO_LAUNCHER: &str = "Command execution failed: the OS sandbox needs this agent's own \
executable to run a command in the editor's terminal, and it cannot be found";
use crate::runtime::{HostCommand, HostRun, ToolContext, ToolDisplay, ToolOutput};
use crate::safety::secrets::redact;

/// Bytes kept from each end of the output before decoding; comfortably more than the 40 %/60 %
/// of [`MAX_OUTPUT_CHARS`] that survive the final cut, even with escape sequences.
const CAPTURE_EACH_END: usize = 256 * 1024;

/// `$1` command, `$2` saved environment to restore, `$3` cwd, `$4` file receiving the final
/// directory, `$5` file receiving the environment afterwards (see `shell::EnvSnapshot` for why
/// they differ). The wrapper's own `cd` must not clobber the restored `OLDPWD` (so `cd -` works
/// across calls). The command runs through `eval` so a syntax error in it is reported like any
/// other failure and the trailer still records the state.
const FOREGROUND_SCRIPT: &str = r#"__hermes_cmd=$1 __hermes_cwd_file=$4 __hermes_env_out=$5
if [ -s "$2" ]; then . "$2" >/dev/null 2>&1; fi
__hermes_oldpwd=${OLDPWD-}
cd -- "$3" || exit 126
if [ -n "$__hermes_oldpwd" ]; then OLDPWD=$__hermes_oldpwd; fi
shift 5
eval "$__hermes_cmd"
__hermes_rc=$?
pwd > "$__hermes_cwd_file" 2>/dev/null
(umask 077; export -p > "$__hermes_env_out" 2>/dev/null)
exit $__hermes_rc"#;

/// One foreground call, already approved.
pub(super) struct Foreground<'a> {
    pub command: &'a str,
    pub cwd: PathBuf,
    pub timeout: Duration,
    /// Run without the OS sandbox (the call asked for it and was approved).
    pub unsandboxed: bool,
    /// What the approval granted inside the sandbox.
    pub grants: sandbox::Grants,
    /// Extra keys for the result (`approval`, `timeout_note`, `pty_note`).
    pub notes: Vec<(&'static str, String)>,
}

enum Outcome {
    Exited(std::io::Result<std::process::ExitStatus>),
    TimedOut,
    Cancelled,
}

impl Foreground<'_> {
    pub(super) async fn run(mut self, ctx: &ToolContext) -> ToolOutput {
        let shell_state = ctx.session.state.processes.shell_state();
        let hermes_home = ctx.services.hermes_home.as_deref();
        // The editor's terminal, when it offers one, runs the same steps so `cd`/`export`
        // carry over identically; the user watches it live in the card, labelled with the
        // command they recognise (see `hosted`). The sandbox comes along through our launcher.
        if ctx.session.terminals.runs_in_editor() {
            let launcher = match sandbox::for_editor_terminal(ctx, self.unsandboxed, self.grants) {
                Ok(launcher) => launcher,
                Err(error) => return self.failure(String::new(), -1, error, None),
            };
            let contained = launcher.as_ref().is_some_and(|l| l.contained);
            let files = shell_state.run_files(hermes_home, contained);
            let args = self.wrapper_args(&files);
            let prologue = shell_state
                .trusted_dir(hermes_home)
                .join(format!("prologue-{}", fastrand::u64(..)));
            let call = hosted::invocation(shell::shell_program(), prologue, FOREGROUND_SCRIPT, args);
            let mut env = ctx.services.child_env.blanked();
            env.extend(call.env);
            // The shell's own arguments either way: the editor labels the terminal with them.
            let program = match &launcher {
                Some(l) => match launch::launcher() {
                    Some(ours) => {
                        env.push((launch::SPEC_ENV.to_string(), l.spec.display().to_string()));
                        ours
                    }
                    None => return self.failure(String::new(), -1, NO_LAUNCHER.to_string(), None),
                },
                None => shell::shell_program().to_path_buf(),
            };
            let host = HostCommand {
                call_id: &ctx.call_id,
                program: &program,
                args: call.args,
                cwd: &self.cwd,
                timeout: self.timeout,
                // The editor's terminal inherits the editor's environment: blank the credentials.
                env,
            };
            let sweep = launcher
                .is_some()
                .then(|| sandbox::Sweep::before(&ctx.session.workspace.roots()));
            let sweep = sweep.filter(|_| contained && !self.grants.protected_writes);
            let result = ctx.session.terminals.run(host, &ctx.cancel).await;
            if let Some(prologue) = call.prologue {
                let _ = tokio::fs::remove_file(prologue).await;
            }
            if let Some(result) = result {
                shell_state.commit(hermes_home, &files);
                if let Some(note) = sandbox::sweep_note(sweep.as_ref()) {
                    self.notes.push(("protected_note", note));
                }
                return self.finish_hosted(ctx, result, &files.marker).await;
            }
        }
        // Only commands we spawn ourselves can be sandboxed; the editor's terminal (above) runs
        // them its own way.
        let sandbox = match sandbox::for_command(ctx, self.unsandboxed, self.grants) {
            Ok(sandbox) => sandbox,
            Err(error) => return self.failure(String::new(), -1, error, None),
        };
        let contained = sandbox.as_ref().is_some_and(|s| s.contained());
        let files = shell_state.run_files(hermes_home, contained);
        let args = self.wrapper_args(&files);
        let marker = files.marker.clone();
        let sweep = sandbox::sweep_for(ctx, sandbox.as_ref(), self.grants);
        let mut child = match shell::spawn(
            FOREGROUND_SCRIPT,
            &args,
            &self.cwd,
            StdinMode::Null,
            &ctx.services.child_env,
            sandbox.as_ref(),
        ) {
            Ok(child) => child,
            Err(e) => {
                return self.failure(String::new(), -1, format!("Command execution failed: {e}"), None);
            }
        };
        let mut capture = HeadTail::new(CAPTURE_EACH_END, CAPTURE_EACH_END);
        let outcome = {
            let mut sink = |bytes: &[u8]| capture.push(bytes);
            let outcome = tokio::select! {
                // A command that already finished reports its real result.
                biased;
                status = child.run_to_exit(&mut sink) => Outcome::Exited(status),
                () = tokio::time::sleep(self.timeout) => Outcome::TimedOut,
                () = ctx.cancel.cancelled() => Outcome::Cancelled,
            };
            if !matches!(outcome, Outcome::Exited(_)) {
                child.terminate(shell::KILL_GRACE).await;
                child.drain(&mut sink, shell::DRAIN_GRACE).await;
            }
            outcome
        };
        let final_dir = take_marker(&marker).await;
        shell_state.commit(hermes_home, &files);
        let output = clean_output(capture.into_text());
        if let Some(note) = sandbox::sweep_note(sweep.as_ref()) {
            self.notes.push(("protected_note", note));
        }
        match outcome {
            Outcome::Exited(Ok(status)) => {
                if let Some(dir) = final_dir {
                    self.record_cwd(ctx, dir).await;
                }
                let code = shell::exit_code(status);
                let denied = sandbox
                    .as_ref()
                    .and_then(|s| sandbox::denial_note(s, shell_state.dir(), code, &output));
                if let Some((denial, note)) = denied {
                    self.notes.push(("sandbox", denial.key().to_string()));
                    self.notes.push(("sandbox_note", note));
                }
                self.success(output, code)
            }
            Outcome::Exited(Err(e)) => self.failure(output, -1, format!("Command execution failed: {e}"), None),
            Outcome::TimedOut => {
                let secs = self.timeout.as_secs();
                self.failure(output, 124, format!("Command timed out after {secs} seconds"), None)
            }
            Outcome::Cancelled => {
                let output = format!("{output}\n[Command interrupted]").trim_start().to_string();
                self.failure(output, 130, "Command interrupted".to_string(), Some("cancelled"))
            }
        }
    }

    /// The wrapper's positional arguments (see [`FOREGROUND_SCRIPT`]).
    fn wrapper_args<'f>(&'f self, files: &'f shell::RunFiles) -> [&'f OsStr; 5] {
        [
            OsStr::new(self.command),
            files.source.as_os_str(),
            self.cwd.as_os_str(),
            files.marker.as_os_str(),
            files.output.as_os_str(),
        ]
    }

    /// The result of a command the editor ran in one of its terminals.
    async fn finish_hosted(&self, ctx: &ToolContext, result: std::io::Result<HostRun>, marker: &Path) -> ToolOutput {
        let final_dir = take_marker(marker).await;
        let run = match result {
            Ok(run) => run,
            Err(e) => return self.failure(String::new(), -1, format!("Command execution failed: {e}"), None),
        };
        let output = clean_output(run.output);
        if run.cancelled {
            let output = format!("{output}\n[Command interrupted]").trim_start().to_string();
            return self.failure(output, 130, "Command interrupted".to_string(), Some("cancelled"));
        }
        if run.timed_out {
            let secs = self.timeout.as_secs();
            return self.failure(output, 124, format!("Command timed out after {secs} seconds"), None);
        }
        if let Some(dir) = final_dir {
            self.record_cwd(ctx, dir).await;
        }
        self.success(output, run.exit_code.unwrap_or(-1))
    }

    /// The command finished (any exit code): a normal result, not an error.
    fn success(&self, output: String, exit_code: i64) -> ToolOutput {
        let mut result = json!({"output": output, "exit_code": exit_code, "error": null});
        if let Some(meaning) = guard::exit_code_meaning(self.command, exit_code) {
            result["exit_code_meaning"] = json!(meaning);
        }
        self.add_notes(&mut result);
        // The registry redacts what the model sees; the editor's copy is redacted here.
        ToolOutput::json(result).with_display(ToolDisplay::Terminal {
            command: self.command.to_string(),
            output: redact::redact(&output),
            exit_code: Some(exit_code),
        })
    }

    /// Timeout, cancel, or a command that could not run: an error result with what was printed.
    fn failure(&self, output: String, exit_code: i64, error: String, status: Option<&str>) -> ToolOutput {
        let shown = if output.is_empty() {
            error.clone()
        } else {
            format!("{output}\n[{error}]")
        };
        let mut result = json!({"output": output, "exit_code": exit_code, "error": error});
        if let Some(status) = status {
            result["status"] = json!(status);
        }
        self.add_notes(&mut result);
        ToolOutput::json_error(result).with_display(ToolDisplay::Terminal {
            command: self.command.to_string(),
            output: redact::redact(&shown),
            exit_code: Some(exit_code),
        })
    }

    fn add_notes(&self, result: &mut Value) {
        for (key, note) in &self.notes {
            result[*key] = json!(note);
        }
    }

    /// A `cd` in the command moves the session shell; a `workdir` alone does not (it is
    /// per-command), so only a directory different from where the command started is kept.
    async fn record_cwd(&self, ctx: &ToolContext, dir: PathBuf) {
        if dir != self.cwd && tokio::fs::metadata(&dir).await.is_ok_and(|m| m.is_dir()) {
            ctx.session.workspace.set_shell_cwd(dir);
        }
    }
}

/// Reads and removes the final-directory marker the wrapper wrote.
async fn take_marker(marker: &Path) -> Option<PathBuf> {
    let text = tokio::fs::read_to_string(marker).await.ok();
    let _ = tokio::fs::remove_file(marker).await;
    let dir = text?.trim_end_matches('\n').to_string();
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

/// Escape sequences removed, then cut to the output cap keeping both ends, then trimmed.
fn clean_output(raw: String) -> String {
    head_tail(&strip_ansi(&raw), MAX_OUTPUT_CHARS).trim().to_string()
}
