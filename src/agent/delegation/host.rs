//! Where children appear in the editor: the protocol layer implements `SubagentHost` (it knows
//! what the client can show). A child either gets a session of its own — announced on the
//! parent's, its updates sent there, cancellable alone — or folds into the parent's
//! `delegate_task` card; either way its permission questions name its goal.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::agent::Sink;
use crate::runtime::Approver;

/// A child about to start.
pub struct ChildInfo<'a> {
    /// Unique (a uuid): the child's session id when the editor shows subagent sessions.
    pub id: &'a str,
    pub goal: &'a str,
    pub context: Option<&'a str>,
    /// The child's own token (a child of the parent's call): cancelling it stops only this child.
    pub cancel: &'a CancellationToken,
}

/// Where one child's events and questions go.
pub struct ChildChannel {
    /// The child's own session; `None` folds its events into the parent's card.
    pub events: Option<Sink>,
    /// Asks the user on the child's behalf (the question names the child's goal).
    pub approver: Arc<dyn Approver>,
}

/// How a child ended, as its session's last state says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChildEnd {
    Completed,
    MaxIterations,
    Cancelled,
    Failed(String),
}

/// The editor side of subagents, for one parent turn.
pub trait SubagentHost: Send + Sync {
    /// A child starts: announce it (when shown as a session) and say where its events go.
    fn open(&self, child: &ChildInfo<'_>) -> ChildChannel;
    /// The child ended: announce its last state, close its open cards, forget its cancel route.
    fn close(&self, child_id: &str, end: &ChildEnd);
}
