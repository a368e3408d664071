//! The context window of a model: a table of well-known families, else Hermes' 256 000. (The
//! compaction settings themselves are parsed with the rest of `config.yaml`:
//! `config::CompactionPolicy`.)

/// Hermes' window for a model it cannot identify (`DEFAULT_FALLBACK_CONTEXT`).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 256_000;

/// Context windows of well-known model families. The longest key found in the (lower-cased)
/// model id wins, matched at a word start so `o3` does not match inside `pro3`.
const WINDOWS: &[(&str, u64)] = &[
    // Anthropic: 200K, except the 1M-context 4.6+ generation.
    ("claude", 200_000),
    ("claude-opus-4-6", 1_000_000),
    ("claude-opus-4.6", 1_000_000),
    ("claude-sonnet-4-6", 1_000_000),
    ("claude-sonnet-4.6", 1_000_000),
    ("claude-opus-4-7", 1_000_000),
    ("claude-opus-4.7", 1_000_000),
    // OpenAI.
    ("gpt-5", 400_000),
    ("gpt-5.1-chat", 128_000),
    ("gpt-5.4", 1_050_000),
    ("gpt-5.4-mini", 400_000),
    ("gpt-5.4-nano", 400_000),
    ("gpt-5.5", 1_050_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 128_000),
    ("gpt-3.5-turbo", 16_385),
    ("gpt-oss", 131_072),
    ("o1", 200_000),
    ("o1-mini", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    // Google.
    ("gemini", 1_048_576),
    ("gemma", 8_192),
    ("gemma-3", 131_072),
    ("gemma3", 131_072),
    // Meta, Alibaba, DeepSeek, Mistral.
    ("llama", 131_072),
    ("llama3", 131_072),
    ("llama-3", 131_072),
    ("llama-4", 1_048_576),
    ("qwen", 131_072),
    ("qwen3-coder", 262_144),
    ("qwen3-coder-plus", 1_000_000),
    ("qwen3-max", 262_144),
    ("deepseek", 128_000),
    ("mistral", 131_072),
    ("mixtral", 32_768),
    ("ministral", 131_072),
    ("codestral", 256_000),
    ("devstral", 131_072),
    // Others Hermes users commonly run.
    ("grok", 131_072),
    ("grok-4", 256_000),
    ("grok-code-fast", 256_000),
    ("kimi", 262_144),
    ("glm", 202_752),
    ("minimax", 204_800),
    ("nemotron", 131_072),
    ("hermes", 131_072),
];

/// The context window for `model`: the configured `model.context_length` when set, else the
/// family table, else 256 000 (Hermes' default for unknown models).
pub fn context_window(model: &str, configured: Option<u64>) -> u64 {
    if let Some(n) = configured.filter(|n| *n > 0) {
        return n;
    }
    let id = model.trim().to_ascii_lowercase();
    let mut best: Option<(usize, u64)> = None;
    for (key, window) in WINDOWS {
        if best.is_some_and(|(len, _)| len >= key.len()) {
            continue;
        }
        if matches_at_word_start(&id, key) {
            best = Some((key.len(), *window));
        }
    }
    best.map_or(DEFAULT_CONTEXT_WINDOW, |(_, w)| w)
}

fn matches_at_word_start(id: &str, key: &str) -> bool {
    id.match_indices(key)
        .any(|(at, _)| at == 0 || !id.as_bytes()[at - 1].is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_by_family() {
        assert_eq!(context_window("anthropic/claude-sonnet-4", None), 200_000);
        assert_eq!(context_window("claude-opus-4-6", None), 1_000_000);
        assert_eq!(context_window("openai/gpt-4o-mini", None), 128_000);
        assert_eq!(context_window("gpt-4.1", None), 1_047_576);
        assert_eq!(context_window("gpt-5-codex", None), 400_000);
        assert_eq!(context_window("o3-mini", None), 200_000);
        assert_eq!(context_window("google/gemini-2.5-pro", None), 1_048_576);
        assert_eq!(context_window("meta-llama/Llama-3.3-70B-Instruct", None), 131_072);
        assert_eq!(context_window("qwen/qwen3-coder", None), 262_144);
        assert_eq!(context_window("deepseek/deepseek-r1", None), 128_000);
        assert_eq!(context_window("mistral-large-latest", None), 131_072);
        assert_eq!(context_window("mock-model", None), DEFAULT_CONTEXT_WINDOW);
        assert_eq!(context_window("vendor/pro3", None), DEFAULT_CONTEXT_WINDOW);
        assert_eq!(context_window("gpt-4o", Some(50_000)), 50_000);
        assert_eq!(context_window("gpt-4o", Some(0)), 128_000);
    }
}
