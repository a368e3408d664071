//! Editor terminals (`runtime::TerminalHost`): a foreground command runs through `terminal/create`
//! in the session cwd; the tool card embeds `{type: terminal, terminalId}` so the user watches it
//! live; the result comes from `terminal/wait_for_exit` + `terminal/output`; a timeout or cancel
//! calls `terminal/kill`; and every terminal is released, whatever happens — a guard kills and
//! releases it even when the command's future is dropped.

use std::io;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CreateTerminalRequest, EnvVariable, KillTerminalRequest, ReleaseTerminalRequest, SessionId, SessionNotification,
    SessionUpdate, Terminal, TerminalId, TerminalOutputRequest, ToolCallContent, ToolCallUpdate, ToolCallUpdateFields,
    WaitForTerminalExitRequest,
};
use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::runtime::{HostCommand, HostRun, TerminalHost};

/// Output the editor keeps per terminal (the tool then cuts it further for the model).
const OUTPUT_BYTE_LIMIT: u64 = 1024 * 1024;
/// Bookkeeping calls (output, kill, release) should be instant.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs foreground commands in the editor's terminals for one session.
pub struct EditorTerminals {
    cx: ConnectionTo<Client>,
    session_id: SessionId,
}

impl EditorTerminals {
    pub fn new(cx: ConnectionTo<Client>, session_id: &str) -> EditorTerminals {
        EditorTerminals {
            cx,
            session_id: SessionId::new(session_id),
        }
    }

    async fn run_in(&self, command: HostCommand<'_>, cancel: &CancellationToken) -> io::Result<HostRun> {
        let create = CreateTerminalRequest::new(self.session_id.clone(), command.program.display().to_string())
            .args(command.args.clone())
            .env(
                command
                    .env
                    .iter()
                    .map(|(name, value)| EnvVariable::new(name.clone(), value.clone()))
                    .collect(),
            )
            .cwd(command.cwd.to_path_buf())
            .output_byte_limit(OUTPUT_BYTE_LIMIT);
        let created = tokio::time::timeout(CALL_TIMEOUT, self.cx.send_request(create).block_task())
            .await
            .map_err(|_| io::Error::other("the editor did not create the terminal in time"))?
            .map_err(|e| io::Error::other(format!("the editor could not create a terminal: {}", e.message)))?;
        let id = created.terminal_id;
        // From here on the terminal is ours to end: if this future is dropped before it is
        // released (the turn gave up waiting), the guard kills and releases it.
        let mut guard = TerminalGuard {
            cx: self.cx.clone(),
            session_id: self.session_id.clone(),
            id: Some(id.clone()),
        };
        // Show the live terminal in the card before anything else can happen to it.
        let embed = ToolCallUpdate::new(
            command.call_id.to_string(),
            ToolCallUpdateFields::new().content(vec![ToolCallContent::Terminal(Terminal::new(id.clone()))]),
        );
        let _ = self.cx.send_notification(SessionNotification::new(
            self.session_id.clone(),
            SessionUpdate::ToolCallUpdate(embed),
        ));
        let result = self.wait_and_collect(&id, command.timeout, cancel).await;
        let release = ReleaseTerminalRequest::new(self.session_id.clone(), id.clone());
        guard.id = None;
        if let Err(e) = self.call(self.cx.send_request(release).block_task()).await {
            tracing::warn!(terminal = %id.0, error = %e, "could not release the editor terminal");
        }
        result
    }

    async fn wait_and_collect(
        &self,
        id: &TerminalId,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> io::Result<HostRun> {
        let wait = self
            .cx
            .send_request(WaitForTerminalExitRequest::new(self.session_id.clone(), id.clone()))
            .block_task();
        let (mut timed_out, mut cancelled) = (false, false);
        tokio::select! {
            biased;
            _ = cancel.cancelled() => cancelled = true,
            _ = tokio::time::sleep(timeout) => timed_out = true,
            exit = wait => {
                if let Err(e) = exit {
                    tracing::warn!(terminal = %id.0, error = %e, "waiting for the editor terminal failed");
                }
            }
        }
        if timed_out || cancelled {
            let kill = KillTerminalRequest::new(self.session_id.clone(), id.clone());
            if let Err(e) = self.call(self.cx.send_request(kill).block_task()).await {
                tracing::warn!(terminal = %id.0, error = %e, "could not kill the editor terminal");
            }
        }
        let output = self
            .call(
                self.cx
                    .send_request(TerminalOutputRequest::new(self.session_id.clone(), id.clone()))
                    .block_task(),
            )
            .await?;
        let exit_code = output.exit_status.as_ref().and_then(|s| s.exit_code).map(i64::from);
        Ok(HostRun {
            output: output.output,
            exit_code,
            truncated: output.truncated,
            timed_out,
            cancelled,
        })
    }

    async fn call<T>(
        &self,
        request: impl std::future::Future<Output = Result<T, agent_client_protocol::Error>>,
    ) -> io::Result<T> {
        tokio::time::timeout(CALL_TIMEOUT, request)
            .await
            .map_err(|_| io::Error::other("the editor did not answer in time"))?
            .map_err(|e| io::Error::other(e.message))
    }
}

/// Kills and releases an editor terminal whose command future was dropped mid-run.
struct TerminalGuard {
    cx: ConnectionTo<Client>,
    session_id: SessionId,
    /// `None` once the terminal was released normally.
    id: Option<TerminalId>,
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        let (cx, session_id) = (self.cx.clone(), self.session_id.clone());
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let kill = KillTerminalRequest::new(session_id.clone(), id.clone());
            let _ = tokio::time::timeout(CALL_TIMEOUT, cx.send_request(kill).block_task()).await;
            let release = ReleaseTerminalRequest::new(session_id, id.clone());
            if tokio::time::timeout(CALL_TIMEOUT, cx.send_request(release).block_task())
                .await
                .is_err()
            {
                tracing::warn!(terminal = %id.0, "the editor did not release the terminal in time");
            }
        });
    }
}

impl TerminalHost for EditorTerminals {
    fn runs_in_editor(&self) -> bool {
        true
    }

    fn run<'a>(
        &'a self,
        command: HostCommand<'a>,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Option<io::Result<HostRun>>> {
        Box::pin(async move { Some(self.run_in(command, cancel).await) })
    }
}
