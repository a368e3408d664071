//! The session's tools as they change while a turn runs: an MCP server that dies mid-turn must
//! leave the next model call (not only the next turn), and one that finishes connecting joins
//! it. The turn asks before every model call; the session layer answers (it knows the MCP
//! supervisor), so this module only states the question.

use std::sync::Arc;

use super::events::AgentEvent;
use super::turn::TurnScope;
use crate::tools::{SessionScope, ToolRegistry};

/// Where a running turn gets the session's current tools.
pub trait LiveTools: Send + Sync {
    /// Notices for the user (servers that stopped), and the session's tools when they changed
    /// since the last call.
    fn refresh(&self) -> ToolsRefresh;
}

/// The answer of [`LiveTools::refresh`].
#[derive(Default)]
pub struct ToolsRefresh {
    pub notices: Vec<String>,
    pub tools: Option<ToolRegistry>,
}

/// Brings the turn's session scope up to date before a model call, announcing what changed.
/// Tool calls already running keep the scope they started with.
pub(super) fn refresh(turn: &TurnScope, session: &mut Arc<SessionScope>) {
    let Some(live) = &turn.live_tools else {
        return;
    };
    let ToolsRefresh { notices, tools } = live.refresh();
    for notice in notices {
        turn.events.emit(AgentEvent::Notice(notice));
    }
    if let Some(tools) = tools {
        *session = Arc::new(SessionScope {
            tools,
            ..session.as_ref().clone()
        });
    }
}
