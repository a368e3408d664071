//! The small questions the protocol layer asks about configuration and stored state, answered
//! here so it never holds the store or the configuration itself: which modes are offered, how
//! long a permission request waits, whether a session exists, a session's unreadable messages,
//! the remembered permission rules of a workspace.

use std::path::Path;
use std::time::Duration;

use super::{SessionError, SessionManager};
use crate::session::modes::{self, ModeInfo};
use crate::store::PermissionRule;

impl SessionManager {
    /// The modes a session may be switched to (`yolo` only when allowed).
    pub fn available_modes(&self) -> Vec<ModeInfo> {
        modes::available_modes(self.config().yolo_allowed)
    }

    /// How long a permission request waits for the user.
    pub fn approval_timeout(&self) -> Duration {
        self.config().approval_timeout
    }

    /// How long a running turn may leave the connection silent before a keepalive (`None`:
    /// never; `acp.keepalive_interval_s`).
    pub fn keepalive_interval(&self) -> Option<Duration> {
        self.config().file.keepalive.interval
    }

    /// `HERMES_HOME`, where credentials and settings live.
    pub fn home(&self) -> &Path {
        &self.config().home
    }

    /// Whether a session exists in the store (live or not).
    pub async fn exists(&self, id: &str) -> Result<bool, SessionError> {
        Ok(self.store().load_session(id).await?.is_some())
    }

    /// How many stored messages of a session could not be read back (skipped on restore).
    pub fn unreadable_messages(&self, id: &str) -> usize {
        self.store().unreadable_messages(id)
    }

    /// The permission rules remembered for a workspace ("always in this project").
    pub async fn permission_rules(&self, workspace: &str) -> Result<Vec<PermissionRule>, SessionError> {
        Ok(self.store().rules(workspace).await?)
    }

    /// Remembers `command` (a rule key) as always allowed in `workspace` (`/permissions always`).
    pub async fn allow_always(&self, workspace: &str, command: &str) -> Result<(), SessionError> {
        let rule = PermissionRule {
            workspace: workspace.to_string(),
            command: command.to_string(),
            decision: "allow".to_string(),
        };
        Ok(self.store().save_rule(rule).await?)
    }

    /// Forgets one remembered rule. Returns whether it existed.
    pub async fn revoke_rule(&self, workspace: &str, command: &str) -> Result<bool, SessionError> {
        Ok(self.store().remove_rule(workspace, command).await?)
    }
}
