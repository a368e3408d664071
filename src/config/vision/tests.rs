//! Reading `auxiliary.vision` and resolving it into provider settings.

use std::time::Duration;

use super::*;
use crate::llm::ApiMode;

fn config(text: &str) -> VisionConfig {
    VisionConfig::parse(&serde_yaml_ng::from_str(text).unwrap())
}

fn env(pairs: &[(&str, &str)]) -> EnvMap {
    EnvMap::from_pairs(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}

fn main_provider() -> Result<Endpoint, ProviderError> {
    let file = ConfigFile {
        model_provider: Some("custom".into()),
        model_base_url: Some("http://127.0.0.1:9/v1".into()),
        model_default: Some("main-model".into()),
        ..ConfigFile::default()
    };
    provider::resolve(&file, &EnvMap::default(), "/h")
}

fn resolve(v: &VisionConfig, env: &EnvMap) -> Option<Result<Endpoint, VisionConfigError>> {
    v.resolve(&ConfigFile::default(), env, "/h", &main_provider())
}

#[test]
fn reads_the_section_and_falls_back_to_hermes_variables() {
    assert_eq!(config("{}"), VisionConfig::default());
    assert!(!config("auxiliary:\n  vision:\n    provider: auto\n    model: ''\n").is_set());
    let v = config(
        "auxiliary:\n  vision:\n    model: gpt-4o\n    base_url: http://x/v1\n    timeout: 30\n    download_timeout: nonsense\n",
    );
    assert_eq!(v.model.as_deref(), Some("gpt-4o"));
    assert_eq!(v.timeout, Some(Duration::from_secs(30)));
    assert_eq!(v.download_timeout, None);
    assert_eq!(config("auxiliary:\n  vision:\n    timeout: .inf\n").timeout, None);
    let from_env = VisionConfig::default().with_env(&env(&[
        ("AUXILIARY_VISION_MODEL", "llava"),
        ("AUXILIARY_VISION_PROVIDER", " "),
    ]));
    assert_eq!(from_env.model.as_deref(), Some("llava"));
    assert_eq!(from_env.provider, None);
    // The file wins over the variable.
    assert_eq!(
        v.with_env(&env(&[("AUXILIARY_VISION_MODEL", "other")]))
            .model
            .as_deref(),
        Some("gpt-4o")
    );
}

#[test]
fn nothing_configured_resolves_to_nothing() {
    assert_eq!(resolve(&VisionConfig::default(), &EnvMap::default()), None);
    assert_eq!(
        resolve(&config("auxiliary:\n  vision:\n    model: auto\n"), &EnvMap::default()),
        None
    );
}

#[test]
fn a_model_alone_uses_the_main_provider() {
    let s = resolve(
        &config("auxiliary:\n  vision:\n    model: llava:13b\n"),
        &EnvMap::default(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        (s.base_url.as_str(), s.model.as_str()),
        ("http://127.0.0.1:9/v1", "llava:13b")
    );
}

#[test]
fn a_base_url_is_a_custom_endpoint_with_its_own_key() {
    let v = config("auxiliary:\n  vision:\n    base_url: http://127.0.0.1:7/v1\n    api_key: vk-1\n    model: vis\n");
    let s = resolve(&v, &env(&[("CUSTOM_BASE_URL", "http://elsewhere/v1")]))
        .unwrap()
        .unwrap();
    assert_eq!(s.api_mode, ApiMode::ChatCompletions);
    assert_eq!(s.base_url, "http://127.0.0.1:7/v1");
    assert_eq!(s.api_key.as_ref().map(Secret::expose), Some("vk-1"));
    assert_eq!(s.key_source.as_deref(), Some("auxiliary.vision.api_key"));
    assert_eq!(s.model, "vis");
    // A URL ending in /anthropic speaks Messages, as for the main provider.
    let v = config("auxiliary:\n  vision:\n    base_url: http://127.0.0.1:7/anthropic\n    model: glm\n");
    assert_eq!(
        resolve(&v, &EnvMap::default()).unwrap().unwrap().api_mode,
        ApiMode::AnthropicMessages
    );
}

#[test]
fn a_named_provider_keeps_its_wire_format_at_another_url() {
    let v = config(
        "auxiliary:\n  vision:\n    provider: anthropic\n    base_url: http://127.0.0.1:7\n    api_key: sk-ant-x\n    model: claude-vis\n",
    );
    let s = resolve(&v, &EnvMap::default()).unwrap().unwrap();
    assert_eq!(s.api_mode, ApiMode::AnthropicMessages);
    assert_eq!(s.base_url, "http://127.0.0.1:7");
    assert_eq!(s.api_key.as_ref().map(Secret::expose), Some("sk-ant-x"));
    // Without a key anywhere, the provider's own error says which variable to set.
    let v = config("auxiliary:\n  vision:\n    provider: anthropic\n    model: claude-vis\n");
    let err = resolve(&v, &EnvMap::default()).unwrap().unwrap_err();
    assert!(err.to_string().contains("ANTHROPIC_API_KEY"), "{err}");
    // `openai` is api.openai.com with OPENAI_API_KEY.
    let v = config("auxiliary:\n  vision:\n    provider: openai\n    model: gpt-4o\n");
    let s = resolve(&v, &env(&[("OPENAI_API_KEY", "sk-openai-1")]))
        .unwrap()
        .unwrap();
    assert_eq!(s.base_url, OPENAI_URL);
    assert_eq!(s.api_key.as_ref().map(Secret::expose), Some("sk-openai-1"));
}

#[test]
fn another_provider_needs_a_model() {
    let v = config("auxiliary:\n  vision:\n    base_url: http://127.0.0.1:7/v1\n");
    let err = resolve(&v, &EnvMap::default()).unwrap().unwrap_err();
    assert!(matches!(err, VisionConfigError::NoModel { .. }), "{err}");
}
