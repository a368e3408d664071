//! Per-session state of automatic compaction: the context meter, plus Hermes' guards against
//! compacting in a loop. Right after a compaction nothing triggers until a model call has
//! reported the real size of the compacted prompt; and after two compactions in a row that
//! left the prompt above the threshold (the system prompt and tool schemas alone may be that
//! big), automatic compaction pauses until a prompt fits again. `/compact` is never blocked.

use super::CompactionPolicy;
use super::estimate::ContextMeter;
use super::plan::{Plan, plan};
use crate::transcript::Message;

/// Ineffective compactions in a row that pause automatic compaction.
const MAX_INEFFECTIVE: u32 = 2;

/// Keep one per session, across turns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AutoCompaction {
    meter: ContextMeter,
    /// A compaction happened and no call has reported usage since.
    awaiting_usage: bool,
    ineffective: u32,
}

impl AutoCompaction {
    /// After every completed model call: `prompt_tokens` = the usage's input tokens (0 when the
    /// provider reported none), `history_len` = history messages the request carried.
    pub fn record_call(&mut self, prompt_tokens: u64, history_len: usize, threshold: u64) {
        self.meter.record(prompt_tokens, history_len);
        if prompt_tokens == 0 {
            return;
        }
        if prompt_tokens < threshold {
            self.ineffective = 0;
        } else if self.awaiting_usage {
            self.ineffective += 1;
            tracing::warn!(
                prompt_tokens,
                threshold,
                "context compaction did not bring the prompt under the threshold"
            );
        }
        self.awaiting_usage = false;
    }

    /// Before every model call: the plan when a compaction is due. `estimate` gives the prompt
    /// size when no call has reported usage yet (`estimate_request_tokens`).
    pub fn due(
        &self,
        history: &[Message],
        cfg: &CompactionPolicy,
        window: u64,
        estimate: impl FnOnce() -> u64,
    ) -> Option<Plan> {
        if self.awaiting_usage || self.paused() {
            return None;
        }
        let tokens = self.meter.projected(history).unwrap_or_else(estimate);
        plan(history, cfg, window, tokens)
    }

    /// After a compaction (automatic or `/compact`) replaced the history.
    pub fn compacted(&mut self) {
        self.meter.reset();
        self.awaiting_usage = true;
    }

    /// After `/reset`, a model switch, or anything else that makes the measurements stale.
    pub fn reset(&mut self) {
        *self = AutoCompaction::default();
    }

    /// Whether automatic compaction is paused after repeated ineffective compactions.
    pub fn paused(&self) -> bool {
        self.ineffective >= MAX_INEFFECTIVE
    }

    /// The projected size of the next prompt, if known (for `usage_update` / `/context`).
    pub fn projected(&self, history: &[Message]) -> Option<u64> {
        self.meter.projected(history)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::compaction::tests::scripted;

    #[test]
    fn triggers_on_projected_size_and_stops_thrashing() {
        let cfg = CompactionPolicy::default();
        let window = 256_000;
        let threshold = cfg.threshold_tokens(window);
        let history = scripted(40, 2_000);
        let mut auto = AutoCompaction::default();
        // No usage yet: the estimate decides.
        assert!(auto.due(&history, &cfg, window, || 10).is_none());
        assert!(auto.due(&history, &cfg, window, || threshold).is_some());
        // Usage below, but what was appended since pushes it over.
        auto.record_call(threshold - 100, history.len() - 3, threshold);
        assert!(auto.due(&history, &cfg, window, || 0).is_some());
        auto.record_call(threshold - 100_000, history.len(), threshold);
        assert!(auto.due(&history, &cfg, window, || u64::MAX).is_none());
        // Compacted: nothing until the next call reports; then twice still over → paused.
        auto.compacted();
        assert!(auto.due(&history, &cfg, window, || u64::MAX).is_none());
        auto.record_call(threshold + 1, history.len(), threshold);
        assert!(auto.due(&history, &cfg, window, || 0).is_some());
        auto.compacted();
        auto.record_call(threshold + 1, history.len(), threshold);
        assert!(auto.paused());
        assert!(auto.due(&history, &cfg, window, || u64::MAX).is_none());
        // A prompt that fits again re-arms it.
        auto.record_call(10, history.len(), threshold);
        assert!(!auto.paused());
        auto.reset();
        assert_eq!(auto, AutoCompaction::default());
    }
}
