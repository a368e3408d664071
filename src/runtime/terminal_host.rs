//! The editor-terminal seam: when the editor offers terminals, foreground shell commands run in
//! one of them (the user watches them live in the tool card) instead of a local child process.
//! `None` means "no editor terminal: run locally".

use std::io;
use std::path::Path;
use std::time::Duration;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

/// What to run: a program with arguments, in a directory.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCommand<'a> {
    /// The tool call the terminal belongs to (its card embeds the terminal).
    pub call_id: &'a str,
    pub program: &'a Path,
    pub args: Vec<String>,
    pub cwd: &'a Path,
    pub timeout: Duration,
    /// Variables to set on top of the editor's environment (credentials set to empty).
    pub env: Vec<(String, String)>,
}

/// How a command run in the editor ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HostRun {
    pub output: String,
    pub exit_code: Option<i64>,
    /// The editor cut the output to its byte limit.
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
}

/// Runs commands in the editor's terminals.
pub trait TerminalHost: Send + Sync {
    /// Whether foreground commands run in the editor (where no sandbox of ours applies).
    fn runs_in_editor(&self) -> bool {
        false
    }

    fn run<'a>(
        &'a self,
        command: HostCommand<'a>,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Option<io::Result<HostRun>>>;
}

/// No editor terminal: every command runs locally.
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalTerminals;

impl TerminalHost for LocalTerminals {
    fn run<'a>(
        &'a self,
        _command: HostCommand<'a>,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Option<io::Result<HostRun>>> {
        Box::pin(async { None })
    }
}
