//! Test fakes for the edit tools: a `ToolContext` on a temp dir, an approver that records every
//! request and answers with a fixed decision, one that answers by where the edit lands after a
//! hook ran, an editor-like file system with buffers, and a folder's sorted listing.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::GuardEnv;
use crate::runtime::{ApprovalDecision, ApprovalRequest, Approver, FileSystem, LocalFs, SessionScope, ToolContext};

/// Answers every request with `decision` and keeps the requests.
pub struct Recorder {
    pub decision: ApprovalDecision,
    pub requests: Mutex<Vec<ApprovalRequest>>,
}

impl Recorder {
    pub fn new(decision: ApprovalDecision) -> Arc<Recorder> {
        Arc::new(Recorder {
            decision,
            requests: Mutex::new(Vec::new()),
        })
    }

    pub fn requests(&self) -> Vec<ApprovalRequest> {
        self.requests.lock().unwrap().clone()
    }

    /// `(path, old_text, new_text)` of every edit request, in order.
    pub fn edits(&self) -> Vec<(PathBuf, Option<String>, String)> {
        self.requests()
            .into_iter()
            .filter_map(|r| match r {
                ApprovalRequest::Edit {
                    path,
                    old_text,
                    new_text,
                    ..
                } => Some((path, old_text, new_text)),
                _ => None,
            })
            .collect()
    }
}

impl Approver for Recorder {
    fn request<'a>(&'a self, _call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        self.requests.lock().unwrap().push(request);
        let decision = self.decision;
        Box::pin(async move { decision })
    }
}

/// Answers like the policy means edits (allow what lands inside `project`, deny the rest), after
/// running `on_ask`: a test's hook to change the disk between the check and the write.
pub struct AskHook {
    pub project: PathBuf,
    pub on_ask: Box<dyn Fn() + Send + Sync>,
}

impl Approver for AskHook {
    fn request<'a>(&'a self, _call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        (self.on_ask)();
        let decision = match request {
            ApprovalRequest::Edit { real_path, .. } if real_path.starts_with(&self.project) => {
                ApprovalDecision::AllowOnce
            }
            _ => ApprovalDecision::Deny,
        };
        Box::pin(async move { decision })
    }
}

/// Serves reads from in-memory buffers and takes writes into them, like an editor would.
#[derive(Default)]
pub struct EditorFs {
    pub buffers: Mutex<HashMap<PathBuf, String>>,
}

impl FileSystem for EditorFs {
    fn read_text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<io::Result<String>>> {
        let text = self.buffers.lock().unwrap().get(path).cloned();
        Box::pin(async move { text.map(Ok) })
    }

    fn write_text<'a>(&'a self, path: &'a Path, content: &'a str) -> BoxFuture<'a, Option<io::Result<()>>> {
        self.buffers
            .lock()
            .unwrap()
            .insert(path.to_path_buf(), content.to_string());
        Box::pin(async { Some(Ok(())) })
    }
}

/// A context whose session cwd is `dir`, disk-backed, with the given approver.
pub fn test_ctx(dir: &Path, approver: Arc<dyn Approver>) -> ToolContext {
    ctx_with_fs(dir, approver, Arc::new(LocalFs))
}

pub fn ctx_with_fs(dir: &Path, approver: Arc<dyn Approver>, fs: Arc<dyn FileSystem>) -> ToolContext {
    let mut session = SessionScope::local("session-1", dir.to_path_buf(), approver);
    session.fs = fs;
    ToolContext::new(
        Arc::new(session),
        Default::default(),
        "call-1",
        CancellationToken::new(),
    )
}

/// Guards rooted in a fake home inside the temp dir, so tests never depend on the real HOME
/// or on HERMES_* variables.
pub fn test_guard(dir: &Path) -> GuardEnv {
    GuardEnv::with_home(&dir.join("home"))
}

/// The tool result's JSON.
pub fn json_of(out: &crate::runtime::ToolOutput) -> serde_json::Value {
    serde_json::from_str(&out.content).expect("tool output is JSON")
}

/// The names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
