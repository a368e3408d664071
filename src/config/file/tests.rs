//! Tests of config.yaml reading: keys, defaults, durations, sandbox and secret settings.
use super::*;

#[test]
fn reads_the_keys_hermes_users_already_have() {
    let cfg = ConfigFile::parse(
        "_config_version: 33\nmodel:\n  default: mock-model\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  api_key: k-123\n  choices: [a, b]\napprovals:\n  timeout: 5\nagent:\n  max_turns: 7\nunrelated: {x: 1}\n",
    )
    .unwrap();
    assert_eq!(cfg.model_default.as_deref(), Some("mock-model"));
    assert_eq!(cfg.model_provider.as_deref(), Some("custom"));
    assert_eq!(cfg.model_base_url.as_deref(), Some("http://127.0.0.1:9/v1"));
    assert_eq!(cfg.model_api_key.as_deref(), Some("k-123"));
    assert_eq!(cfg.model_choices, ["a", "b"]);
    assert_eq!(cfg.approvals_timeout, Some(Duration::from_secs(5)));
    assert_eq!(cfg.max_turns, Some(7));
    assert!(cfg.mcp_servers.is_empty());
}

#[test]
fn reads_mcp_servers() {
    let cfg = ConfigFile::parse(
        "mcp_servers:\n  fs:\n    command: npx\n    args: [-y, server-fs]\n  off:\n    url: http://127.0.0.1:9/mcp\n    enabled: false\n",
    )
    .unwrap();
    assert_eq!(
        cfg.mcp_servers,
        vec![crate::mcp::McpServerConfig::Stdio {
            name: "fs".into(),
            command: "npx".into(),
            args: vec!["-y".into(), "server-fs".into()],
            env: vec![],
        }]
    );
}

#[test]
fn fallback_providers_in_both_forms() {
    let cfg = ConfigFile::parse(
        "fallback_providers:\n  - provider: custom\n    base_url: http://127.0.0.1:9/v1\n    model: small\n  - openrouter:some/model\n",
    )
    .unwrap();
    assert_eq!(cfg.fallback_providers.len(), 2);
    assert_eq!(
        cfg.fallback_providers[0].base_url.as_deref(),
        Some("http://127.0.0.1:9/v1")
    );
    assert_eq!(
        (
            cfg.fallback_providers[1].provider.as_str(),
            cfg.fallback_providers[1].model.as_str()
        ),
        ("openrouter", "some/model")
    );
}

#[test]
fn bare_string_model_and_empty_file() {
    assert_eq!(
        ConfigFile::parse("model: gpt-x\n").unwrap().model_default.as_deref(),
        Some("gpt-x")
    );
    assert_eq!(ConfigFile::parse("").unwrap(), ConfigFile::default());
}

#[test]
fn hostile_timeouts_are_refused_with_the_key_named() {
    for text in [
        "approvals:\n  timeout: .inf\n",
        "approvals:\n  timeout: .nan\n",
        "approvals:\n  timeout: -1\n",
        "approvals:\n  timeout: 1e20\n",
        "approvals:\n  timeout: soon\n",
    ] {
        let err = ConfigFile::parse(text).unwrap_err().to_string();
        assert!(err.starts_with("approvals.timeout "), "{text}: {err}");
    }
    assert_eq!(
        ConfigFile::parse("approvals:\n  timeout: 2.5\n")
            .unwrap()
            .approvals_timeout,
        Some(Duration::from_millis(2500))
    );
    let err = ConfigFile::parse("model: [unclosed\n").unwrap_err().to_string();
    assert!(err.contains("line"), "{err}");
}

#[test]
fn sandbox_mode_and_writable_roots() {
    use crate::safety::sandbox::SandboxMode;
    let sandbox = |text: &str| ConfigFile::parse(text).unwrap().sandbox;
    let cfg = sandbox("sandbox: read-only\nterminal:\n  writable_roots: [~/.cargo, /opt/cache, '']\n");
    assert_eq!(cfg.mode, SandboxMode::ReadOnly);
    assert_eq!(cfg.writable_roots, ["~/.cargo", "/opt/cache"]);
    assert_eq!(sandbox("sandbox: off\n").mode, SandboxMode::Off);
    assert_eq!(sandbox("sandbox: false\n").mode, SandboxMode::Off);
    assert_eq!(sandbox("sandbox: maybe\n").mode, SandboxMode::WorkspaceWrite);
    assert_eq!(sandbox("model: x\n"), SandboxConfig::default());
}

#[test]
fn terminal_network_is_denied_unless_allowed() {
    use crate::safety::sandbox::NetworkMode;
    let network = |text: &str| ConfigFile::parse(text).unwrap().sandbox.network;
    assert_eq!(network("model: x\n"), NetworkMode::Deny);
    assert_eq!(network("terminal:\n  network: allow\n"), NetworkMode::Allow);
    assert_eq!(network("terminal:\n  network: true\n"), NetworkMode::Allow);
    assert_eq!(network("terminal:\n  network: false\n"), NetworkMode::Deny);
    // Anything unreadable keeps the network closed.
    assert_eq!(network("terminal:\n  network: sometimes\n"), NetworkMode::Deny);
    assert_eq!(network("terminal:\n  network: [allow]\n"), NetworkMode::Deny);
}

#[test]
fn prompt_cache_ttl_is_5m_unless_1h() {
    let ttl = |text: &str| ConfigFile::parse(text).unwrap().prompt_cache_ttl;
    assert_eq!(ttl("prompt_caching:\n  cache_ttl: 1h\n"), CacheTtl::OneHour);
    assert_eq!(ttl("prompt_caching:\n  cache_ttl: 5m\n"), CacheTtl::FiveMinutes);
    assert_eq!(ttl("prompt_caching:\n  cache_ttl: 2h\n"), CacheTtl::FiveMinutes);
    assert_eq!(ttl("prompt_caching:\n  cache_ttl: off\n"), CacheTtl::FiveMinutes);
    assert_eq!(ttl("model: x\n"), CacheTtl::FiveMinutes);
}

#[test]
fn compaction_settings_are_read_with_the_file() {
    let cfg = ConfigFile::parse("compression:\n  enabled: false\n  threshold: 0.6\n").unwrap();
    assert!(!cfg.compaction.enabled);
    assert_eq!(cfg.compaction.threshold_ratio, 0.6);
    assert_eq!(
        ConfigFile::parse("").unwrap().compaction,
        crate::agent::compaction::CompactionPolicy::default()
    );
}

#[test]
fn hermes_home_expands_a_leading_tilde() {
    let home = crate::home::home_dir();
    assert_eq!(crate::config::hermes_home(Some("~/h".into())), home.join("h"));
    assert_eq!(
        crate::config::hermes_home(Some("/x/h".into())),
        std::path::PathBuf::from("/x/h")
    );
    assert_eq!(crate::config::hermes_home(Some("".into())), home.join(".hermes"));
    assert_eq!(crate::config::hermes_home(None), home.join(".hermes"));
}

#[test]
fn agent_reasoning_effort_reads_as_hermes_reads_it() {
    use crate::llm::effort::Effort;
    let read = |yaml: &str| ConfigFile::parse(yaml).unwrap().reasoning_effort;
    assert_eq!(read("agent:\n  reasoning_effort: High\n"), Some(Effort::High));
    assert_eq!(read("agent:\n  reasoning_effort: false\n"), Some(Effort::None));
    assert_eq!(read("agent:\n  reasoning_effort: none\n"), Some(Effort::None));
    assert_eq!(read("agent:\n  reasoning_effort: ''\n"), None);
    assert_eq!(read("agent:\n  reasoning_effort: turbo\n"), None);
    assert_eq!(read("agent:\n  max_turns: 3\n"), None);
}
