//! The `terminal` tool: runs a shell command in the session's shell directory (or `workdir`),
//! in the foreground with a timeout or in the background as a tracked process. Dangerous
//! commands need the user's approval first; hardline ones never run.

mod foreground;
pub mod guard;
mod hosted;
mod schema;

// Unix only: the tests check bash, process groups and file modes.
#[cfg(all(test, unix))]
mod tests;

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::shell::sandbox::Grants;
use crate::runtime::{Tool, ToolContext, ToolDisplay, ToolOutput, args, permission};
use crate::safety::policy::{CommandEffect, Mode};
use foreground::Foreground;
use permission::Approval;

/// Longest foreground timeout (Hermes `TERMINAL_MAX_FOREGROUND_TIMEOUT`); longer requests are
/// capped.
pub const FOREGROUND_MAX_TIMEOUT_SECS: u64 = 600;

/// Output cap of a foreground command (Hermes `tool_output.max_bytes`, in characters).
pub const MAX_OUTPUT_CHARS: usize = 50_000;

/// The `terminal` tool.
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalTool;

impl Tool for TerminalTool {
    fn name(&self) -> &'static str {
        "terminal"
    }

    fn description(&self) -> String {
        schema::DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        schema::parameters()
    }

    /// Commands share the session's shell state (directory, environment, files), so a batch of
    /// them runs one at a time, in order — as in Hermes, where `terminal` is never parallel.
    fn interactive(&self) -> bool {
        true
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::RunsCommand
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let command = describe::arg(args, "command");
        Presentation {
            kind: ToolKind::Execute,
            // The command itself as code: Zed shows it as code, CodeCompanion takes a title
            // that opens with a code span as the command, agent-shell shows its first line.
            title: describe::code_span(&describe::first_line(command.unwrap_or("?"), 80)),
            start_text: command.map(|c| format!("$ {c}")),
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    fn brief(&self, args: &Value) -> Option<String> {
        describe::arg(args, "command").map(|c| format!("`{}`", describe::clip(c, 80)))
    }
}

async fn run(ctx: &ToolContext, call: Value) -> ToolOutput {
    let command = match call.get("command") {
        Some(Value::String(command)) => command.clone(),
        other => {
            let got = args::python_type_name(other);
            return error_result("", format!("Invalid command: expected string, got {got}"), "error");
        }
    };
    if ctx.cancel.is_cancelled() {
        let result = json!({
            "output": "",
            "exit_code": 130,
            "error": "Command interrupted",
            "status": "cancelled",
        });
        return ToolOutput::json_error(result);
    }
    let background = args::boolean(&call, "background", false);
    let workdir = args::string(&call, "workdir").filter(|w| !w.trim().is_empty());
    let pty = args::boolean(&call, "pty", false);
    // Their approval belongs to the command policy; here they only shape the sandbox.
    let unsandboxed = args::boolean(&call, "unsandboxed", false);
    let wants_network = args::boolean(&call, "network", false);
    let mut notes = Vec::new();

    if !background && let Some(guidance) = guard::foreground_guidance(&command) {
        return error_result(&command, guidance.to_string(), "error");
    }
    if let Some(error) = workdir.as_deref().and_then(guard::validate_workdir) {
        return error_result(&command, error, "blocked");
    }
    let cwd = match working_dir(ctx, workdir.as_deref()).await {
        Ok(cwd) => cwd,
        Err(error) => return error_result(&command, error, "error"),
    };
    let grants = match approve(ctx, &command, &cwd, background, unsandboxed, wants_network).await {
        Ok(approval) => {
            notes.extend(approval.note.map(|note| ("approval", note)));
            // What the approval (or the config) grants the sandbox of this command.
            Grants {
                network: approval.network,
                protected_writes: approval.sensitive_writes,
            }
        }
        Err(blocked) => return blocked,
    };
    if pty {
        notes.push(("pty_note", PTY_NOTE.to_string()));
    }
    if background {
        let notify = args::boolean(&call, "notify_on_complete", false);
        let watch = args::strings(&call, "watch_patterns").filter(|p| !p.is_empty());
        let launch = Launch { unsandboxed, grants };
        return start_background(ctx, &command, cwd, notify, watch.is_some(), launch, notes);
    }
    let requested = args::int(&call, "timeout").map(|t| t.max(1) as u64);
    let mut timeout = requested.unwrap_or(crate::runtime::shell::DEFAULT_TIMEOUT_SECS);
    if timeout > FOREGROUND_MAX_TIMEOUT_SECS {
        notes.push((
            "timeout_note",
            format!(
                "Requested timeout of {timeout}s was capped at the foreground maximum of \
                 {FOREGROUND_MAX_TIMEOUT_SECS}s. Use background=true for longer commands."
            ),
        ));
        timeout = FOREGROUND_MAX_TIMEOUT_SECS;
    }
    Foreground {
        command: &command,
        cwd,
        timeout: Duration::from_secs(timeout),
        unsandboxed,
        grants,
        notes,
    }
    .run(ctx)
    .await
}

const PTY_NOTE: &str = "PTY mode is not available in this agent: the command runs with pipes \
instead of a terminal. For interactive programs use background=true and drive them with \
process(action='write'/'submit'), then process(action='close') to send EOF.";

const SILENT_HINT: &str = "background=true without notify_on_complete=true means this process \
runs SILENTLY — you will not be told when it exits. If this is a bounded task (test suite, \
build, CI poller, deploy, anything with a defined end), you almost certainly wanted \
notify_on_complete=true so the system pings you on exit. Re-launch with \
notify_on_complete=true, or call process(action='poll') / process(action='wait') yourself to \
learn the outcome. Only ignore this hint for genuine long-lived processes that never exit \
(servers, watchers, daemons).";

const WATCH_IGNORED: &str = "watch_patterns ignored because notify_on_complete=True; these two \
flags produce duplicate notifications when combined";

/// ACP has no channel to start a turn when a process ends, so completion notifications cannot
/// be promised (Hermes says the same on its stateless endpoints).
const NOTIFY_UNSUPPORTED: &str = "notify_on_complete / watch_patterns are not available in this \
editor session (no channel to deliver an async completion after the turn ends). The process is \
running in the background; retrieve its result with process(action='poll') or \
process(action='wait').";

/// How a background command is launched: outside the sandbox, or inside it with what the user
/// granted.
struct Launch {
    unsandboxed: bool,
    grants: Grants,
}

fn start_background(
    ctx: &ToolContext,
    command: &str,
    cwd: PathBuf,
    notify: bool,
    watch: bool,
    launch: Launch,
    notes: Vec<(&'static str, String)>,
) -> ToolOutput {
    let sandbox = match crate::runtime::shell::sandbox::for_command(ctx, launch.unsandboxed, launch.grants) {
        Ok(sandbox) => sandbox,
        Err(error) => return error_result(command, error, "error"),
    };
    let sweep = crate::runtime::shell::sandbox::sweep_for(ctx, sandbox.as_ref(), launch.grants);
    let contained = sandbox.as_ref().is_some_and(|s| s.contained());
    let processes = &ctx.session.state.processes;
    let saved_env = processes
        .shell_state()
        .source(ctx.services.hermes_home.as_deref(), contained);
    let spawned = processes.spawn(
        command,
        &cwd,
        &ctx.services.child_env,
        sandbox.as_ref(),
        sweep,
        &saved_env,
    );
    let process = match spawned {
        Ok(process) => process,
        Err(e) => {
            let result = json!({
                "output": "",
                "exit_code": -1,
                "error": format!("Failed to start background process: {e}"),
            });
            return ToolOutput::json_error(result);
        }
    };
    let mut result = json!({
        "output": "Background process started",
        "session_id": process.id,
        "pid": process.pid,
        "exit_code": 0,
        "error": null,
    });
    if !notify && !watch {
        result["hint"] = json!(SILENT_HINT);
    }
    if notify && watch {
        result["watch_patterns_ignored"] = json!(WATCH_IGNORED);
    }
    if notify || watch {
        result["notify_on_complete"] = json!(false);
        result["notify_unsupported"] = json!(NOTIFY_UNSUPPORTED);
    }
    for (key, note) in notes {
        result[key] = json!(note);
    }
    let shown = format!(
        "Background process started (session_id {}, pid {})",
        process.id, process.pid
    );
    ToolOutput::json(result).with_display(ToolDisplay::Terminal {
        command: command.to_string(),
        output: shown,
        exit_code: None,
    })
}

/// The explicit `workdir` (resolved against the session root), else the shell's current
/// directory — or the session root when that directory has since been removed.
async fn working_dir(ctx: &ToolContext, workdir: Option<&str>) -> Result<PathBuf, String> {
    let is_dir = |path: PathBuf| async move { tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_dir()) };
    if let Some(workdir) = workdir {
        let dir = ctx.session.workspace.resolve(workdir);
        return match is_dir(dir.clone()).await {
            true => Ok(dir),
            false => Err(format!("Working directory does not exist: {}", dir.display())),
        };
    }
    let shell_cwd = ctx.session.workspace.shell_cwd();
    if is_dir(shell_cwd.clone()).await {
        return Ok(shell_cwd);
    }
    let root = ctx.session.workspace.root();
    if is_dir(root.clone()).await {
        tracing::debug!(gone = %shell_cwd.display(), "shell directory vanished; back to the session root");
        ctx.session.workspace.set_shell_cwd(root.clone());
        return Ok(root);
    }
    Err(format!("Working directory does not exist: {}", root.display()))
}

/// Runs the permission gate. `Ok(approval)` when the command may run (its note is set when
/// the user approved this call; its grants say what the sandbox must allow), `Err(result)`
/// when the command must not run.
async fn approve(
    ctx: &ToolContext,
    command: &str,
    cwd: &Path,
    background: bool,
    unsandboxed: bool,
    network: bool,
) -> Result<Approval, ToolOutput> {
    let assessment = permission::assess_command(ctx, command, cwd);
    tracing::debug!(risk = ?assessment.risk, programs = ?assessment.programs, "command analysed");
    let read_only = assessment.read_only;
    let (project, temp) = permission::project_roots(ctx);
    // The editor's terminal runs foreground commands through our sandbox launcher.
    let in_editor = ctx.session.terminals.runs_in_editor() && !background;
    let containment = crate::runtime::shell::sandbox::containment(&ctx.services, in_editor);
    let sandboxed = containment != crate::safety::policy::Containment::None;
    // Every folder of the session, as named and canonical: each has its checkpoint.
    let mut folders = ctx.session.workspace.roots();
    folders.extend(project.iter().cloned());
    let in_a_folder = |path: &Path| folders.iter().any(|folder| path.starts_with(folder));
    // Snapshot for `/undo` before anything runs, unless the analysis proved the command only
    // reads. Where the mode lets a contained, undoable command run unasked, the snapshot comes
    // before the decision, since whether it covers everything the command may change decides;
    // elsewhere it waits for the approval. Either way it is taken before the sandbox is built,
    // which protects the repositories it found.
    let coverage_decides = matches!(ctx.session.state.mode(), Mode::AcceptEdits | Mode::DontAsk);
    let coverage = match read_only || !coverage_decides {
        true => None,
        false => Some(ctx.session.checkpoints.before_change().await),
    };
    let undoable = in_a_folder(cwd) && coverage.as_ref().is_some_and(|c| c.complete);
    if let Some(reason) = coverage.as_ref().and_then(|c| c.reason.as_deref()) {
        tracing::debug!(reason, "a command's changes would not all be undoable");
    }
    let effect = CommandEffect {
        command: command.to_string(),
        assessment,
        containment,
        // Asking to leave a sandbox that is not there changes nothing.
        unsandboxed: unsandboxed && sandboxed,
        network_requested: network,
        network_open: crate::runtime::shell::sandbox::network_open(&ctx.services),
        background,
        undoable,
        roots: project,
        temp,
    };
    let approved = permission::gate_command(ctx, effect)
        .await
        .map_err(|blocked| error_result(command, blocked.0, "blocked"))?;
    if !read_only && !coverage_decides {
        ctx.session.checkpoints.before_change().await;
    }
    Ok(approved)
}

/// `{"output":"","exit_code":-1,"error":…,"status":…}`: the command did not run.
fn error_result(command: &str, error: String, status: &str) -> ToolOutput {
    let result = json!({"output": "", "exit_code": -1, "error": error, "status": status});
    ToolOutput::json_error(result).with_display(ToolDisplay::Terminal {
        command: command.to_string(),
        output: error,
        exit_code: Some(-1),
    })
}
