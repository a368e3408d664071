//! Tests of provider resolution: the order Hermes uses, named providers, keys and where they
//! came from, API-mode detection, and the configuration mistakes reported when config is read.

use super::*;

fn env(pairs: &[(&str, &str)]) -> EnvMap {
    EnvMap::from_pairs(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}

#[test]
fn loopback_custom_endpoint_needs_no_key() {
    let file =
        ConfigFile::parse("model:\n  provider: custom\n  base_url: http://127.0.0.1:11434/v1/\n  default: llama3\n")
            .unwrap();
    let p = resolve(&file, &env(&[]), "/h").unwrap();
    assert_eq!(
        (p.id.as_str(), p.base_url.as_str(), p.model.as_str()),
        ("custom", "http://127.0.0.1:11434/v1", "llama3")
    );
    assert_eq!(p.api_key, None);
    assert_eq!(p.api_mode, ApiMode::ChatCompletions);
}

#[test]
fn auto_prefers_openrouter_then_anthropic() {
    let p = resolve(
        &ConfigFile::default(),
        &env(&[("OPENROUTER_API_KEY", "sk-or-123456")]),
        "/h",
    )
    .unwrap();
    assert_eq!((p.id.as_str(), p.base_url.as_str()), ("openrouter", OPENROUTER_URL));
    let p = resolve(
        &ConfigFile::default(),
        &env(&[("ANTHROPIC_API_KEY", "sk-ant-123456")]),
        "/h",
    )
    .unwrap();
    assert_eq!((p.id.as_str(), p.api_mode), ("anthropic", ApiMode::AnthropicMessages));
}

#[test]
fn env_only_custom_and_placeholders() {
    let p = resolve(
        &ConfigFile::default(),
        &env(&[
            ("HERMES_INFERENCE_PROVIDER", "custom"),
            ("CUSTOM_BASE_URL", "http://localhost:8080/v1"),
        ]),
        "/h",
    )
    .unwrap();
    assert_eq!(p.base_url, "http://localhost:8080/v1");
    let err = resolve(&ConfigFile::default(), &env(&[("OPENAI_API_KEY", "changeme")]), "/h").unwrap_err();
    assert!(matches!(err, ProviderError::NotConfigured { .. }));
    assert!(err.to_string().contains("hermes-acp --setup"));
}

#[test]
fn named_custom_providers_by_name_and_in_auto_mode() {
    let text = "model:\n  provider: lab\ncustom_providers:\n  - name: lab\n    base_url: http://127.0.0.1:8000/v1/\n    model: qwen\n";
    let p = resolve(&ConfigFile::parse(text).unwrap(), &env(&[]), "/h").unwrap();
    assert_eq!(
        (p.id.as_str(), p.base_url.as_str(), p.model.as_str()),
        ("lab", "http://127.0.0.1:8000/v1", "qwen")
    );
    let auto = "custom_providers:\n  gpu-box:\n    base_url: http://10.0.0.5:8000/v1\n    api_key: k-12345\n";
    let p = resolve(&ConfigFile::parse(auto).unwrap(), &env(&[]), "/h").unwrap();
    assert_eq!(p.id, "gpu-box");
    assert!(p.api_key.is_some());
}

#[test]
fn api_mode_detection_and_hosts() {
    assert_eq!(
        detect_api_mode(None, "https://proxy.example/anthropic"),
        ApiMode::AnthropicMessages
    );
    assert_eq!(
        detect_api_mode(Some("chat_completions"), "https://api.anthropic.com"),
        ApiMode::ChatCompletions
    );
    assert_eq!(host_of("http://user@[::1]:80/v1"), "::1");
    assert!(is_loopback("http://127.0.0.1:9/v1"));
    assert!(!is_loopback("https://openrouter.ai/api/v1"));
}

#[test]
fn keys_remember_where_they_were_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".env"), "OPENROUTER_API_KEY=sk-or-from-file\n").unwrap();
    let mut e = env(&[("ANTHROPIC_API_KEY", "sk-ant-from-shell")]);
    e.overlay_dotenv(&dir.path().join(".env"));
    let p = resolve(&ConfigFile::default(), &e, "/h").unwrap();
    assert_eq!(
        (p.key_source.as_deref(), p.key_origin.as_deref()),
        (Some("OPENROUTER_API_KEY"), Some("/h/.env"))
    );
    let file = ConfigFile::parse("model:\n  provider: anthropic\n").unwrap();
    let p = resolve(&file, &e, "/h").unwrap();
    assert_eq!(p.key_origin.as_deref(), Some("the shell environment"));
    let file = ConfigFile::parse("model:\n  base_url: http://10.0.0.2:8000/v1\n  api_key: sk-local-123\n").unwrap();
    let p = resolve(&file, &e, "/h").unwrap();
    assert_eq!(
        (p.key_source.as_deref(), p.key_origin.as_deref()),
        (Some("model.api_key"), Some("/h/config.yaml"))
    );
    let err = resolve(
        &ConfigFile::parse("model:\n  provider: custom\n  base_url: 10.0.0.2:8000/v1\n").unwrap(),
        &e,
        "/h",
    )
    .unwrap_err();
    assert!(matches!(err, ProviderError::InvalidUrl { .. }), "{err}");
}

#[test]
fn responses_mode_follows_hermes_detection() {
    // api.openai.com and api.x.ai imply the Responses API; look-alike hosts do not.
    assert_eq!(
        detect_api_mode(None, "https://api.openai.com/v1"),
        ApiMode::CodexResponses
    );
    assert_eq!(detect_api_mode(None, "https://api.x.ai/v1"), ApiMode::CodexResponses);
    assert_eq!(
        detect_api_mode(None, "https://api.openai.com.example/v1"),
        ApiMode::ChatCompletions
    );
    assert_eq!(
        detect_api_mode(None, "https://api.kimi.com/coding/v1"),
        ApiMode::AnthropicMessages
    );
    assert_eq!(
        detect_api_mode(Some(" Codex_Responses "), "http://127.0.0.1:9/v1"),
        ApiMode::CodexResponses
    );
    assert_eq!(
        detect_api_mode(Some("bedrock_converse"), "http://x/v1"),
        ApiMode::ChatCompletions
    );
    let key = env(&[("OPENAI_API_KEY", "sk-openai-123456")]);
    let openai = resolve(&ConfigFile::parse("model:\n  provider: openai\n").unwrap(), &key, "/h").unwrap();
    assert_eq!(
        (openai.base_url.as_str(), openai.api_mode),
        (OPENAI_URL, ApiMode::CodexResponses)
    );
    let chat = "model:\n  provider: openai\n  api_mode: chat_completions\n";
    let p = resolve(&ConfigFile::parse(chat).unwrap(), &key, "/h").unwrap();
    assert_eq!(p.api_mode, ApiMode::ChatCompletions);
    // model.base_url found by auto-detection honours an explicit codex_responses…
    let auto = "model:\n  base_url: http://127.0.0.1:9/v1\n  api_mode: codex_responses\n";
    let p = resolve(&ConfigFile::parse(auto).unwrap(), &env(&[]), "/h").unwrap();
    assert_eq!(p.api_mode, ApiMode::CodexResponses);
    // …a bare `provider: custom` ignores it unless the URL is OpenAI's or xAI's (Hermes).
    let bare = "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  api_mode: codex_responses\n";
    let p = resolve(&ConfigFile::parse(bare).unwrap(), &env(&[]), "/h").unwrap();
    assert_eq!(p.api_mode, ApiMode::ChatCompletions);
    let bare_openai = "model:\n  provider: custom\n  base_url: https://api.openai.com/v1\n";
    let p = resolve(&ConfigFile::parse(bare_openai).unwrap(), &key, "/h").unwrap();
    assert_eq!(p.api_mode, ApiMode::CodexResponses);
    let named = "model:\n  provider: lab\ncustom_providers:\n  - name: lab\n    base_url: http://127.0.0.1:8/v1\n    api_mode: codex_responses\n";
    let p = resolve(&ConfigFile::parse(named).unwrap(), &env(&[]), "/h").unwrap();
    assert_eq!(p.api_mode, ApiMode::CodexResponses);
}
