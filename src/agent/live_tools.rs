//! The session's tools as they change while a turn runs: an MCP server that dies mid-turn must
//! leave the next model call (not only the next turn), and one that finishes connecting joins
//! it. The turn asks before every model call (`turn::refresh_tools`); the session layer answers
//! (it knows the MCP supervisor), so this module only states the question.

use crate::runtime::ToolRegistry;

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
