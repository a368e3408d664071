//! State shared by the protocol handlers: the session manager, the client's capabilities
//! (remembered at `initialize`, read-only afterwards), and the editor seams per session.

use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::schema::ClientCapabilities;

use crate::session::SessionManager;

/// Shared by every handler.
pub struct AcpState {
    pub manager: Arc<SessionManager>,
    client_caps: Mutex<ClientCapabilities>,
}

impl AcpState {
    pub fn new(manager: Arc<SessionManager>) -> AcpState {
        AcpState {
            manager,
            client_caps: Mutex::new(ClientCapabilities::default()),
        }
    }

    pub fn set_client_caps(&self, caps: ClientCapabilities) {
        *self.client_caps.lock().unwrap_or_else(|p| p.into_inner()) = caps;
    }

    pub fn client_caps(&self) -> ClientCapabilities {
        self.client_caps.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether the client renders `compaction_update` / `compaction_summary_chunk`.
    pub fn supports_compaction(&self) -> bool {
        self.client_caps()
            .session
            .as_ref()
            .is_some_and(|s| s.compaction.is_some())
    }

    /// Whether the client renders `notice` updates.
    pub fn supports_notices(&self) -> bool {
        self.client_caps().session.as_ref().is_some_and(|s| s.notices.is_some())
    }
}
