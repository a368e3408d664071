//! Running `delegate_task`'s children (the `runtime::seams::delegate::Delegator` seam). Each child is a
//! full turn — `run_turn` with its own in-memory history, a focused system prompt, the parent's
//! provider, fallbacks, model and reasoning effort (unless `delegation.reasoning_effort` sets
//! one, as in Hermes), its own iteration budget, and the parent's tools minus the
//! blocked ones — started within the parent's tool call and joined before it returns, at most
//! `delegation.max_concurrent_children` at once. A child's token is a child of the call's, so
//! cancelling the parent cancels every child and drops its provider stream. Children are not
//! persisted as sessions of their own: their answers are the tool result, which is. Their token
//! usage is added to the parent turn's through `usage()`.

mod child;
mod fold;
pub mod host;

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;

pub use host::{ChildChannel, ChildEnd, ChildInfo, SubagentHost};

use crate::llm::Provider;
use crate::runtime::ToolContext;
use crate::runtime::seams::delegate::{ChildReport, ChildTask, Delegator};
use crate::services::Services;
use crate::sync::lock;
use crate::tools::delegate::DelegationSettings;
use crate::transcript::Usage;

/// Runs children for one parent turn (and, one level down, for an orchestrator child).
#[derive(Clone)]
pub struct Delegation {
    services: Arc<Services>,
    provider: Arc<dyn Provider>,
    model: String,
    /// The editor side; `None` folds children into the card with the parent's approver.
    host: Option<Arc<dyn SubagentHost>>,
    /// The parent session's reasoning level, inherited by children.
    reasoning_effort: Option<crate::llm::effort::Effort>,
    depth: u32,
    /// Tokens every descendant used, shared down the tree, added to the parent turn's usage.
    usage: Arc<Mutex<Usage>>,
}

impl Delegation {
    /// The delegator of a session's own turn (depth 0).
    pub fn new(
        services: Arc<Services>,
        provider: Arc<dyn Provider>,
        model: String,
        host: Option<Arc<dyn SubagentHost>>,
    ) -> Delegation {
        Delegation {
            services,
            provider,
            model,
            host,
            reasoning_effort: None,
            depth: 0,
            usage: Arc::default(),
        }
    }

    /// Children think at this level (the parent session's), unless `delegation.reasoning_effort`
    /// names another.
    pub fn with_reasoning_effort(mut self, effort: Option<crate::llm::effort::Effort>) -> Delegation {
        self.reasoning_effort = effort;
        self
    }

    /// The level a child's turn asks for.
    fn child_effort(&self) -> Option<crate::llm::effort::Effort> {
        self.config().reasoning_effort.or(self.reasoning_effort)
    }

    /// Tokens the children used so far (all levels).
    pub fn usage(&self) -> Usage {
        *lock(&self.usage)
    }

    fn config(&self) -> &DelegationSettings {
        &self.services.delegation
    }

    /// The delegator an orchestrator child gets: one level deeper, same host and usage meter.
    fn deeper(&self) -> Delegation {
        Delegation {
            depth: self.depth + 1,
            ..self.clone()
        }
    }
}

impl Delegator for Delegation {
    fn depth(&self) -> u32 {
        self.depth
    }

    fn run_children<'a>(&'a self, parent: &'a ToolContext, tasks: Vec<ChildTask>) -> BoxFuture<'a, Vec<ChildReport>> {
        Box::pin(async move {
            let goals: Vec<&str> = tasks.iter().map(|t| t.goal.as_str()).collect();
            let board = Arc::new(fold::Board::new(&parent.call_id, parent.progress.clone(), &goals));
            let slots = Arc::new(tokio::sync::Semaphore::new(
                self.config().max_concurrent_children.max(1),
            ));
            let runs = tasks.iter().enumerate().map(|(index, task)| {
                let (board, slots) = (board.clone(), slots.clone());
                async move {
                    // The semaphore is never closed, so acquiring only waits for a slot.
                    let _slot = slots.acquire_owned().await.ok();
                    child::run(self, parent, &board, index, task).await
                }
            });
            futures::future::join_all(runs).await
        })
    }
}
