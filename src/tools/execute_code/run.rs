//! One `execute_code` call: approve the script, stage it with the client module in a private
//! directory, listen for its tool calls, run it, and shape the result.
//!
//! Why the script itself asks: a Python script can start programs and change files through its
//! own means (`subprocess`, `os.remove`), none of which passes the gate its `hermes_tools`
//! calls pass. The command policy asks for a command it cannot analyse, and a script is such a
//! command, so it is decided as one: `Risk::Unknown`, sandboxed like the terminal's local
//! commands. That fails closed the same way: it asks in every mode but yolo, read-only mode
//! refuses it, and the user's "allow for this session" is remembered for this exact script.

use std::ffi::OsStr;
use std::time::Instant;

use serde_json::{Value, json};

use super::CodeExecutionSettings;
use super::output::{self, Finished};
use super::process::{self, Launch};
use super::rpc::{PrivateDir, RpcServer};
use super::{CLIENT_MODULE, python};
use crate::runtime::{ToolContext, ToolOutput, permission, shell};
use crate::safety::command::CommandAssessment;
use crate::safety::policy::CommandEffect;

/// What the approval question says about a script.
const WHY_ASK: &str = "execute_code runs a Python script, which can start programs and change files \
without passing the approval of terminal commands";

pub(super) async fn run(settings: CodeExecutionSettings, ctx: &ToolContext, args: Value) -> ToolOutput {
    let code = args.get("code").and_then(Value::as_str).unwrap_or("");
    if code.trim().is_empty() {
        return ToolOutput::error("No code provided.");
    }
    if python::found(&ctx.services.child_env).is_none() {
        return ToolOutput::error("execute_code needs python3, and none was found on PATH.");
    }
    if let Err(blocked) = approve(ctx, code).await {
        return refused(blocked.0);
    }
    // The script may change files by its own means: snapshot for `/undo` before it runs.
    ctx.session.checkpoints.before_change().await;
    let started = Instant::now();
    match run_approved(settings, ctx, code).await {
        Ok((result, failed)) => match failed {
            true => ToolOutput::json_error(result),
            false => ToolOutput::json(result),
        },
        Err(message) => {
            let duration = (started.elapsed().as_secs_f64() * 100.0).round() / 100.0;
            ToolOutput::json_error(json!({
                "status": "error",
                "error": message,
                "tool_calls_made": 0,
                "duration_seconds": duration,
            }))
        }
    }
}

/// The script as the command the user is asked about (and the key a remembered answer is
/// saved under): Python reading this exact script.
fn as_command(code: &str) -> String {
    let mut end = "PY".to_string();
    while code.lines().any(|l| l == end) {
        end.push('_');
    }
    format!("python3 - <<'{end}'\n{code}\n{end}")
}

async fn approve(ctx: &ToolContext, code: &str) -> Result<permission::Approval, permission::Blocked> {
    let (project, temp) = permission::project_roots(ctx);
    let effect = CommandEffect {
        command: as_command(code),
        // A Python script is another language: unknown, and only its exact text is remembered.
        assessment: CommandAssessment::unknown(WHY_ASK),
        containment: shell::sandbox::containment(&ctx.services, false),
        unsandboxed: false,
        network_requested: false,
        network_open: shell::sandbox::network_open(&ctx.services),
        background: false,
        // Its tool calls pass the gate on their own; what the script changes by its own means
        // is not reported as covered by a checkpoint.
        undoable: false,
        roots: project,
        temp,
    };
    permission::gate_command(ctx, effect).await
}

/// Stages and runs an approved script. `Err` when it could not start.
async fn run_approved(settings: CodeExecutionSettings, ctx: &ToolContext, code: &str) -> Result<(Value, bool), String> {
    let sandbox = shell::sandbox::for_command(ctx, false, shell::sandbox::Grants::default())?;
    let root = ctx.session.workspace.root();
    let python = python::interpreter(&ctx.services.child_env, &root, sandbox.as_ref())
        .await
        .ok_or("execute_code needs python3, and none was found on PATH.")?;
    let python = python.as_path();
    let staging = |e: std::io::Error| format!("Could not prepare the script: {e}");
    let dir = PrivateDir::create().map_err(staging)?;
    let script = dir.path().join("script.py");
    std::fs::write(dir.path().join("hermes_tools.py"), CLIENT_MODULE).map_err(staging)?;
    std::fs::write(&script, code).map_err(staging)?;
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().map_err(staging)?;
    ours.set_nonblocking(true).map_err(staging)?;
    let ours = tokio::net::UnixStream::from_std(ours).map_err(staging)?;
    let token = uuid::Uuid::new_v4().simple().to_string();
    let head = super::python_block(code);
    let server = RpcServer::new(ours, token.clone(), settings.max_tool_calls, head).map_err(staging)?;
    let python_path = python_path(ctx, dir.path());
    let fd = std::os::fd::AsRawFd::as_raw_fd(&theirs).to_string();
    let extra_env: [(&str, &OsStr); 6] = [
        ("HERMES_RPC_FD", OsStr::new(&fd)),
        ("HERMES_RPC_TOKEN", OsStr::new(&token)),
        ("PYTHONPATH", &python_path),
        ("PYTHONDONTWRITEBYTECODE", OsStr::new("1")),
        ("PYTHONIOENCODING", OsStr::new("utf-8")),
        ("PYTHONUTF8", OsStr::new("1")),
    ];
    let launch = Launch {
        python,
        script: &script,
        cwd: &root,
        extra_env: &extra_env,
        channel: std::os::fd::AsFd::as_fd(&theirs),
        sandbox: sandbox.as_ref(),
        timeout: settings.timeout,
    };
    let ran = process::run(ctx, launch, &server)
        .await
        .map_err(|e| format!("Could not start python: {e}"))?;
    tracing::debug!(pid = ran.pid, ending = ?ran.ending, calls = server.calls(), "execute_code: script ended");
    Ok(output::result(Finished {
        ending: ran.ending,
        stdout: ran.stdout,
        stderr: ran.stderr,
        tool_calls: server.calls(),
        duration: ran.duration,
    }))
}

/// The staging directory first, then whatever `PYTHONPATH` the session's children have.
fn python_path(ctx: &ToolContext, dir: &std::path::Path) -> std::ffi::OsString {
    let existing = ctx.services.child_env.vars().iter().find(|(k, _)| k == "PYTHONPATH");
    let mut parts = vec![dir.to_path_buf()];
    if let Some((_, value)) = existing.filter(|(_, v)| !v.is_empty()) {
        parts.extend(std::env::split_paths(value));
    }
    std::env::join_paths(parts).unwrap_or_else(|_| dir.as_os_str().to_owned())
}

/// The script did not run: Hermes' shape for a refused script.
fn refused(message: String) -> ToolOutput {
    ToolOutput::json_error(json!({
        "status": "error",
        "error": message,
        "tool_calls_made": 0,
        "duration_seconds": 0,
    }))
}
