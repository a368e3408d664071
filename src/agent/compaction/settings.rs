//! How and when the conversation is compacted, and the token threshold derived from these
//! settings and a context window the way Hermes computes it (`compression.*` in `config.yaml`,
//! read by `config`).

/// Windows below this get their threshold raised to at least `SMALL_WINDOW_MIN_RATIO`: at 50 %
/// a 128K–256K model would compact every turn or two (Hermes' small-context floor).
const SMALL_WINDOW_LIMIT: u64 = 512_000;
const SMALL_WINDOW_MIN_RATIO: f64 = 0.75;
/// The threshold never goes below this many tokens (Hermes' `MINIMUM_CONTEXT_LENGTH`) …
const MIN_THRESHOLD_TOKENS: u64 = 64_000;
/// … unless that would be the whole window, in which case it triggers at 85 % of it.
const TINY_WINDOW_RATIO: f64 = 0.85;

/// How and when the conversation is compacted.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionPolicy {
    /// `compression.enabled` (default true).
    pub enabled: bool,
    /// `compression.threshold`: fraction of the context window that triggers a compaction
    /// (default 0.50; raised to 0.75 for windows under 512K, see `threshold_tokens`).
    pub threshold_ratio: f64,
    /// `compression.target_ratio`: the protected tail is about this fraction of the threshold
    /// in tokens (default 0.20, clamped to 0.10–0.80).
    pub target_ratio: f64,
    /// `compression.protect_last_n`: the protected tail has at least this many messages (20).
    pub protect_last_n: usize,
    /// `compression.threshold_tokens`: an absolute cap on the threshold, if set.
    pub threshold_tokens_cap: Option<u64>,
    /// `auxiliary.compaction.model` (or `compression.summary_model`): the model that writes
    /// summaries; the session's model when unset. Same provider either way.
    pub summary_model: Option<String>,
}

impl Default for CompactionPolicy {
    fn default() -> CompactionPolicy {
        CompactionPolicy {
            enabled: true,
            threshold_ratio: 0.50,
            target_ratio: 0.20,
            protect_last_n: 20,
            threshold_tokens_cap: None,
            summary_model: None,
        }
    }
}

impl CompactionPolicy {
    /// The ratio actually applied for a window: the configured one, raised to 0.75 below 512K.
    pub fn effective_ratio(&self, window: u64) -> f64 {
        if window > 0 && window < SMALL_WINDOW_LIMIT {
            self.threshold_ratio.max(SMALL_WINDOW_MIN_RATIO)
        } else {
            self.threshold_ratio
        }
    }

    /// The prompt size (tokens) above which the conversation is compacted. Hermes' rule:
    /// `window × effective ratio`, at least 64 000, but 85 % of the window when that floor
    /// would reach the window, then capped by `compression.threshold_tokens`.
    pub fn threshold_tokens(&self, window: u64) -> u64 {
        let window = window.max(1);
        let ratio = self.effective_ratio(window);
        let floored = ((window as f64 * ratio) as u64).max(MIN_THRESHOLD_TOKENS);
        let threshold = if floored >= window {
            ((window as f64 * TINY_WINDOW_RATIO) as u64).clamp(1, window.saturating_sub(1).max(1))
        } else {
            floored
        };
        match self.threshold_tokens_cap {
            Some(cap) => threshold.min(cap.min(window)),
            None => threshold,
        }
    }

    /// The token budget of the protected tail (≈ `target_ratio` of the threshold).
    pub fn tail_budget(&self, window: u64) -> u64 {
        (self.threshold_tokens(window) as f64 * self.target_ratio) as u64
    }
}
