//! What a model id says, for the request builders and the reasoning levels alike: a Claude
//! name in Anthropic's own spelling, and whether an OpenAI model reasons at all.

/// `anthropic/claude-sonnet-4.5` (OpenRouter style) → `claude-sonnet-4-5`, as Hermes does.
pub fn normalize_model(model: &str) -> String {
    let model = model.trim();
    let model = match model.get(..10) {
        Some(prefix) if prefix.eq_ignore_ascii_case("anthropic/") => &model[10..],
        _ => model,
    };
    if model.to_ascii_lowercase().starts_with("claude-") {
        model.replace('.', "-")
    } else {
        model.to_string()
    }
}

/// Whether the model takes `reasoning` settings. Hermes always sends them; OpenAI answers
/// HTTP 400 to `reasoning.effort` from the GPT-4 and GPT-3.5 families, which do not reason, so
/// those get none (and ask for no encrypted reasoning). Unknown models are assumed to reason.
pub fn reasons(model: &str) -> bool {
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    !(name.starts_with("gpt-4") || name.starts_with("gpt-3.5") || name.starts_with("chatgpt-4o"))
}
