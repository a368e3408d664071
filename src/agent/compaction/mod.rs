//! Context compaction. After each model call the turn loop records the prompt size in the
//! session's `AutoCompaction`; before the next call, when the projected prompt is above the
//! threshold (`CompactionPolicy::threshold_tokens`), it compacts: `plan` picks the middle
//! between the first exchange and a protected tail, `prune` clears bulky old tool outputs when
//! that alone is enough, otherwise the middle is summarised by one tool-less model call
//! (`summary_request` → `summarise`), or locally (`fallback_summary`) when no summariser
//! answers, and `apply` builds the new live history (`compact` runs these steps).
//! `Store::compact_session` then archives the old rows (kept, searchable) under the same id.
//! Everything but the summary call is pure, so it is unit-tested and benchmarked directly.

mod apply;
mod auto;
mod estimate;
mod fallback;
mod marker;
mod plan;
mod prune;
pub mod replies;
mod run;
mod settings;
mod summary;
#[cfg(test)]
mod tests;
mod window;

use tokio_util::sync::CancellationToken;

pub use apply::{apply, compaction_id, summary_message};
pub use auto::AutoCompaction;
pub use estimate::{ContextMeter, IMAGE_TOKENS, estimate_request_tokens, estimate_tokens, message_tokens};
pub use fallback::fallback_summary;
pub use marker::{SUMMARY_END, SUMMARY_PREFIX, is_compaction_summary, summary_body};
pub use plan::{Plan, orphans, plan, plan_manual};
pub use prune::{CLEARED_PREFIX, cleared_note, prune, prune_middle};
pub use run::{CompactionError, CompactionSettings, CompactionTarget, compact_if_due, run};
pub use settings::CompactionPolicy;
pub use summary::{serialize, summarise, summarise_streaming, summary_request};
pub use window::{DEFAULT_CONTEXT_WINDOW, context_window};

use crate::llm::{LlmError, Provider};
use crate::transcript::Message;

/// Why a compaction did not happen.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// The summary call failed after its retries (the caller falls back to a local summary).
    #[error(transparent)]
    Provider(#[from] LlmError),
    /// The summary model answered with nothing.
    #[error("the summary model returned an empty summary")]
    EmptySummary,
    /// The user cancelled while the summary was being written; the history is unchanged.
    #[error("compaction cancelled")]
    Cancelled,
}

/// Progress of one compaction, for the editor (`compaction_update` /
/// `compaction_summary_chunk` when the client advertises `session.compaction`).
#[derive(Debug, Clone, PartialEq)]
pub enum CompactionEvent {
    /// Compaction `id` began (status `in_progress`).
    Started { id: String },
    /// A piece of the summary as the model writes it.
    SummaryChunk { id: String, text: String },
    /// Done; `summary` is the complete text (`None` when only old tool outputs were cleared).
    Completed {
        id: String,
        summary: Option<String>,
        used_fallback: bool,
    },
    /// Cancelled by the user; nothing changed.
    Cancelled { id: String },
}

/// The result of `compact`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionOutcome {
    pub id: String,
    /// The new live history, to persist with `Store::compact_session` and then use.
    pub history: Vec<Message>,
    /// The summary text (`None` when pruning alone was enough).
    pub summary: Option<String>,
    /// The summariser failed and `fallback_summary` was used.
    pub used_fallback: bool,
    /// Why the summariser failed, when it did.
    pub fallback_reason: Option<String>,
    pub messages_before: usize,
    pub messages_after: usize,
    /// Estimated history tokens before and after.
    pub tokens_before: u64,
    pub tokens_after: u64,
}

/// Carries out `plan` on `history`: prune when that is enough, else summarise the middle with
/// `summary_model` on `provider` (falling back to a local summary if the call fails), and build
/// the new live history. Persisting it is the caller's next step. Errors only when cancelled.
pub async fn compact(
    provider: &dyn Provider,
    summary_model: &str,
    history: &[Message],
    plan: &Plan,
    cancel: &CancellationToken,
    on_event: &mut (dyn FnMut(CompactionEvent) + Send),
) -> Result<CompactionOutcome, SummaryError> {
    let id = plan.id.clone();
    on_event(CompactionEvent::Started { id: id.clone() });
    let outcome = |new: Vec<Message>, summary: Option<String>, fallback_reason: Option<String>| CompactionOutcome {
        id: id.clone(),
        messages_before: history.len(),
        messages_after: new.len(),
        tokens_before: estimate_tokens(history),
        tokens_after: estimate_tokens(&new),
        history: new,
        used_fallback: fallback_reason.is_some(),
        fallback_reason,
        summary,
    };
    // Instructions ask for a summary; clearing old tool outputs alone would ignore them.
    if let Some(pruned) = prune(history, plan).filter(|_| plan.instructions.is_none()) {
        tracing::info!(compaction = %id, "context compaction: cleared old tool outputs");
        on_event(CompactionEvent::Completed {
            id: id.clone(),
            summary: None,
            used_fallback: false,
        });
        return Ok(outcome(pruned, None, None));
    }
    let middle = plan.middle(history);
    let request = summary_request(middle, summary_model, plan.instructions.as_deref());
    let mut on_text = |text: &str| {
        on_event(CompactionEvent::SummaryChunk {
            id: id.clone(),
            text: text.to_string(),
        })
    };
    let (summary, reason) = match summarise_streaming(provider, &request, cancel, &mut on_text).await {
        Ok(summary) => (summary, None),
        Err(SummaryError::Cancelled) => {
            on_event(CompactionEvent::Cancelled { id: id.clone() });
            return Err(SummaryError::Cancelled);
        }
        Err(error) => {
            tracing::warn!(compaction = %id, %error, "summary model unavailable; using a local summary");
            (fallback_summary(middle), Some(error.to_string()))
        }
    };
    let mut new = apply(history, plan, &summary);
    if let Some(reason) = &reason
        && let Some(mark) = new[plan.head_end].meta.compaction.as_mut()
    {
        mark.fallback = Some(reason.clone());
    }
    tracing::info!(
        compaction = %id,
        replaced = middle.len(),
        fallback = reason.is_some(),
        "context compaction: summarised the middle of the conversation"
    );
    on_event(CompactionEvent::Completed {
        id: id.clone(),
        summary: Some(summary.clone()),
        used_fallback: reason.is_some(),
    });
    Ok(outcome(new, Some(summary), reason))
}
