//! Whether a model accepts images, so images returned by tools (MCP screenshots, charts) reach
//! the model as pictures only where they can be read. Sending an image part to a text-only
//! model makes most OpenAI-compatible servers reject the whole request, so an unknown model
//! keeps the text placeholder the tool already wrote: safe everywhere, just less useful.
//!
//! The list names model families documented as multimodal by their vendors, as of 2026-11:
//! OpenAI (GPT-4o, GPT-4.1, GPT-4 Turbo, GPT-5, o1/o3/o4 reasoning models), Anthropic (every
//! Claude 3 and later), Google (Gemini, Gemma 3), xAI (Grok 2 Vision, Grok 4), Meta (Llama 3.2
//! Vision, Llama 4), Mistral (Pixtral, Mistral Small 3.1+, Medium 3), Qwen (VL models, QVQ,
//! Qwen 3 Omni), Zhipu (GLM-4V/4.5V), Moonshot (Kimi VL), and local vision models (LLaVA,
//! MiniCPM-V, Moondream).

/// Substrings of model ids (lower-cased, any provider prefix such as `openai/` ignored) that
/// mark a multimodal model.
const VISION_MARKERS: &[&str] = &[
    "gpt-4o",
    "gpt-4.1",
    "gpt-4-turbo",
    "gpt-4-vision",
    "gpt-5",
    "chatgpt-4o",
    "claude-3",
    "claude-sonnet-4",
    "claude-opus-4",
    "claude-haiku-4",
    "claude-4",
    "gemini",
    "gemma-3",
    "gemma3",
    "grok-2-vision",
    "grok-4",
    "vision",
    "llama-4",
    "llama4",
    "pixtral",
    "mistral-small-3.1",
    "mistral-small-3.2",
    "mistral-medium-3",
    "-vl",
    "qvq",
    "omni",
    "glm-4v",
    "glm-4.5v",
    "llava",
    "minicpm-v",
    "moondream",
];

/// OpenAI reasoning models that take images (`o1-mini` and `o3-mini` do not).
const VISION_REASONING: &[&str] = &["o1", "o3", "o4-mini"];

/// Whether `model` is known to accept image input.
pub fn accepts_images(model: &str) -> bool {
    let lowered = model.to_ascii_lowercase();
    let name = lowered.rsplit('/').next().unwrap_or(&lowered);
    if VISION_MARKERS.iter().any(|marker| name.contains(marker)) {
        return true;
    }
    VISION_REASONING.iter().any(|family| {
        // `o3`, `o1-2024-12-17`, `o1-pro`, but not `o3-mini`; no allocation per request.
        name.strip_prefix(family)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("-20") || rest.starts_with("-pro"))
    })
}

#[cfg(test)]
mod tests {
    use super::accepts_images;

    #[test]
    fn known_multimodal_families_accept_images() {
        for model in [
            "gpt-4o-mini",
            "openai/gpt-5.1",
            "anthropic/claude-sonnet-4.5",
            "claude-3-5-haiku-latest",
            "google/gemini-2.5-pro",
            "qwen/qwen2.5-vl-72b-instruct",
            "meta-llama/llama-4-maverick",
            "llava:13b",
            "o3",
            "o4-mini",
            "o1-2024-12-17",
        ] {
            assert!(accepts_images(model), "{model}");
        }
    }

    #[test]
    fn text_models_and_unknown_ones_do_not() {
        for model in [
            "deepseek/deepseek-chat",
            "qwen2.5-coder:32b",
            "o3-mini",
            "o1-mini",
            "mistralai/codestral-2501",
            "llama3.1:8b",
            "my-local-model",
            "",
        ] {
            assert!(!accepts_images(model), "{model}");
        }
    }
}
