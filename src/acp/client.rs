//! Editor-backed file access (`runtime::FileSystem`): reads inside the workspace go through
//! `fs/read_text_file` so the agent sees unsaved buffers; writes go through `fs/write_text_file`
//! so the editor tracks and can review them. Only when the client advertised the capability and
//! the path is inside the session's workspace; otherwise the tools use the disk. A file that
//! is not on the disk is never asked of the editor: creating a new file is the happy path, and
//! some editors (acpx) show the read they fail as an error to the user. A failed editor read
//! falls back to the disk (the tool then reports a missing file itself).

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ReadTextFileRequest, SessionId, WriteTextFileRequest};
use futures::future::BoxFuture;

use crate::runtime::{FileSystem, Workspace};

/// Editor calls should be quick; a stuck editor must not hang a turn.
const EDITOR_FS_TIMEOUT: Duration = Duration::from_secs(30);

/// File access through the editor for one session.
pub struct EditorFs {
    cx: ConnectionTo<Client>,
    session_id: SessionId,
    workspace: Arc<Workspace>,
    can_read: bool,
    can_write: bool,
}

impl EditorFs {
    pub fn new(
        cx: ConnectionTo<Client>,
        session_id: &str,
        workspace: Arc<Workspace>,
        can_read: bool,
        can_write: bool,
    ) -> EditorFs {
        EditorFs {
            cx,
            session_id: SessionId::new(session_id),
            workspace,
            can_read,
            can_write,
        }
    }
}

impl FileSystem for EditorFs {
    fn read_text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<io::Result<String>>> {
        Box::pin(async move {
            if !self.can_read || !path.is_absolute() || !self.workspace.contains(path) {
                return None;
            }
            // Not a file on the disk (new, a folder, a dangling link): the tool decides what
            // that means, without a request the editor would answer with an error.
            if !tokio::fs::metadata(path).await.is_ok_and(|m| m.is_file()) {
                return None;
            }
            let request = ReadTextFileRequest::new(self.session_id.clone(), path.to_path_buf());
            match tokio::time::timeout(EDITOR_FS_TIMEOUT, self.cx.send_request(request).block_task()).await {
                Ok(Ok(response)) => Some(Ok(response.content)),
                Ok(Err(e)) => {
                    tracing::debug!(path = %path.display(), error = %e, "editor read failed; reading the disk");
                    None
                }
                Err(_) => {
                    tracing::warn!(path = %path.display(), "editor read timed out; reading the disk");
                    None
                }
            }
        })
    }

    fn write_text<'a>(&'a self, path: &'a Path, content: &'a str) -> BoxFuture<'a, Option<io::Result<()>>> {
        Box::pin(async move {
            if !self.can_write || !path.is_absolute() || !self.workspace.contains(path) {
                return None;
            }
            let request = WriteTextFileRequest::new(self.session_id.clone(), path.to_path_buf(), content.to_string());
            match tokio::time::timeout(EDITOR_FS_TIMEOUT, self.cx.send_request(request).block_task()).await {
                Ok(Ok(_)) => Some(Ok(())),
                Ok(Err(e)) => Some(Err(io::Error::other(format!(
                    "the editor could not write the file: {}",
                    e.message
                )))),
                Err(_) => Some(Err(io::Error::other("the editor did not answer the write in time"))),
            }
        })
    }
}
