//! The mode seam: the plan tool switches the session's mode when the user approves a plan. The
//! session's mode is the editor's to show and the store's to keep, so the protocol layer
//! implements the switch (persist, then announce it as `session/set_mode` does); tools only
//! ask for it.

use std::sync::Arc;

use futures::future::BoxFuture;

use crate::runtime::SessionToolState;
use crate::safety::policy::Mode;

/// Changes the session's mode on the user's behalf (after they approved it).
pub trait ModeSwitch: Send + Sync {
    /// Switches to `mode`, persisted and announced; `Err` says why it could not.
    fn switch<'a>(&'a self, mode: Mode) -> BoxFuture<'a, Result<(), String>>;
}

/// The switch where no editor or store is attached (tests, benches): only the tool state's
/// mode changes, which is what the policy reads.
pub struct LocalModeSwitch(pub Arc<SessionToolState>);

impl ModeSwitch for LocalModeSwitch {
    fn switch<'a>(&'a self, mode: Mode) -> BoxFuture<'a, Result<(), String>> {
        self.0.set_mode(mode);
        Box::pin(async { Ok(()) })
    }
}
