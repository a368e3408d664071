//! `HERMES_HOME/config.yaml`, read the way Hermes reads it: only the keys we use, tolerant of
//! everything else (the file is shared with Hermes and may hold many more settings). Parsed once
//! at start into plain values.

use std::path::Path;
use std::time::Duration;

use serde_yaml_ng::Value;

/// The settings we take from `config.yaml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigFile {
    pub model_default: Option<String>,
    pub model_provider: Option<String>,
    pub model_base_url: Option<String>,
    pub model_api_key: Option<String>,
    pub model_api_mode: Option<String>,
    /// Extra model ids to offer in the model picker (`model.choices`, ours).
    pub model_choices: Vec<String>,
    /// `model.allow_custom` (ours): accept model ids the picker does not offer.
    pub model_allow_custom: bool,
    /// Context window override for the session's model (`model.context_length`).
    pub context_length: Option<u64>,
    pub approvals_timeout: Option<Duration>,
    /// `agent.max_turns`: model calls per prompt turn.
    pub max_turns: Option<u32>,
    /// `agent.reasoning_effort` (Hermes' key): the default reasoning level of new sessions;
    /// `None` when unset or unreadable (the provider's default).
    pub reasoning_effort: Option<crate::llm::effort::Effort>,
    /// `acp.yolo` (ours): offer the no-prompts mode.
    pub yolo: bool,
    /// `prompt_caching.cache_ttl` (Hermes' key): how long Anthropic keeps cached prompt prefixes.
    pub prompt_cache_ttl: CacheTtl,
    /// `mcp_servers`: the enabled MCP servers every session connects (placeholders such as
    /// `${TOKEN}` are not expanded yet: see `McpServerConfig::expand_env`).
    pub mcp_servers: Vec<crate::mcp::McpServerConfig>,
    /// `custom_providers`: named OpenAI-compatible (or Anthropic-style) endpoints.
    pub custom_providers: Vec<NamedProvider>,
    /// `fallback_providers`: tried in order when the main provider keeps failing.
    pub fallback_providers: Vec<FallbackEntry>,
    /// Every secret value in the file, with its key path (see `config::secrets`).
    pub secret_values: Vec<(String, String)>,
    /// `terminal.env_passthrough`: credential names children may still see.
    pub env_passthrough: Vec<String>,
    /// `sandbox:` and `terminal.writable_roots`: the OS sandbox for local commands.
    pub sandbox: SandboxConfig,
    /// `compression.*` and `auxiliary.compaction.model`: when and how to compact.
    pub compaction: crate::agent::compaction::CompactionPolicy,
    /// `web.*` (and `security.allow_private_urls`).
    pub web: crate::tools::web::WebSettings,
    /// `skills.*`: what `skill_manage` checks before it writes.
    pub skills: crate::tools::skills::manage::SkillsSettings,
    /// `auxiliary.vision.*`: the model `vision_analyze` sends images to.
    pub vision: super::vision::section::VisionConfig,
    /// `delegation.*`: how `delegate_task` spawns subagents.
    pub delegation: crate::tools::delegate::DelegationSettings,
    /// `code_execution.*`: `execute_code`'s timeout and tool-call limit.
    pub code_execution: crate::tools::execute_code::CodeExecutionSettings,
    /// `model.pricing`: what the user's models cost (`usage_update.cost`, `/context`).
    pub pricing: crate::llm::pricing::PricingSettings,
    /// `acp.keepalive_interval_s`: traffic during long silent turns.
    pub keepalive: super::keepalive::Keepalive,
}

pub use crate::llm::CacheTtl;

/// Why `config.yaml` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    /// The file exists but could not be read.
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    /// The file is not valid YAML, or a value we use is out of range.
    #[error("{path}: {source}")]
    Parse { path: String, source: ParseError },
}

/// Why the text of `config.yaml` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// Not YAML; serde's message names the line and column.
    #[error("not valid YAML: {0}")]
    Yaml(#[from] serde_yaml_ng::Error),
    /// A key we use holds a value we refuse (the YAML itself is fine).
    #[error("{key} {problem}")]
    Invalid { key: &'static str, problem: String },
}

impl ConfigFile {
    /// Reads `path`; a missing file is an empty config.
    pub fn load(path: &Path) -> Result<ConfigFile, ConfigFileError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ConfigFile::default()),
            Err(source) => {
                return Err(ConfigFileError::Read {
                    path: path.display().to_string(),
                    source,
                });
            }
        };
        ConfigFile::parse(&text).map_err(|source| ConfigFileError::Parse {
            path: path.display().to_string(),
            source,
        })
    }

    pub fn parse(text: &str) -> Result<ConfigFile, ParseError> {
        if text.trim().is_empty() {
            return Ok(ConfigFile::default());
        }
        let root: Value = serde_yaml_ng::from_str(text)?;
        let model = root.get("model");
        // `model:` may be a bare string (the model id) or a mapping.
        let model_default = match model {
            Some(Value::String(s)) => non_empty(s),
            Some(m) => string_at(m, "default").or_else(|| string_at(m, "name")),
            None => None,
        };
        let model_choices = model
            .and_then(|m| m.get("choices"))
            .and_then(Value::as_sequence)
            .map(|seq| seq.iter().filter_map(Value::as_str).filter_map(non_empty).collect())
            .unwrap_or_default();
        Ok(ConfigFile {
            model_default,
            model_provider: model.and_then(|m| string_at(m, "provider")),
            model_base_url: model.and_then(|m| string_at(m, "base_url")),
            model_api_key: model.and_then(|m| string_at(m, "api_key").or_else(|| string_at(m, "api"))),
            model_api_mode: model.and_then(|m| string_at(m, "api_mode")),
            model_choices,
            model_allow_custom: model
                .and_then(|m| m.get("allow_custom"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            context_length: model.and_then(|m| m.get("context_length")).and_then(Value::as_u64),
            approvals_timeout: seconds_at(&root, "approvals", "timeout", "approvals.timeout")?,
            max_turns: root
                .get("agent")
                .and_then(|a| a.get("max_turns"))
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n > 0),
            reasoning_effort: reasoning_effort(root.get("agent").and_then(|a| a.get("reasoning_effort"))),
            yolo: root
                .get("acp")
                .and_then(|a| a.get("yolo"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            prompt_cache_ttl: root
                .get("prompt_caching")
                .and_then(|p| p.get("cache_ttl"))
                .and_then(Value::as_str)
                .and_then(CacheTtl::parse)
                .unwrap_or_default(),
            mcp_servers: crate::mcp::parse_servers(root.get("mcp_servers")),
            fallback_providers: parse_fallbacks(root.get("fallback_providers")),
            custom_providers: parse_named(root.get("custom_providers")),
            secret_values: super::secrets::yaml_secret_values(&root),
            env_passthrough: super::secrets::yaml_env_passthrough(&root),
            sandbox: SandboxConfig::parse(&root),
            compaction: crate::agent::compaction::CompactionPolicy::parse(&root),
            web: crate::tools::web::WebSettings::parse(&root),
            skills: crate::tools::skills::manage::SkillsSettings::parse(&root),
            vision: super::vision::section::VisionConfig::parse(&root),
            delegation: crate::tools::delegate::DelegationSettings::parse(&root),
            code_execution: crate::tools::execute_code::CodeExecutionSettings::parse(&root),
            pricing: crate::llm::pricing::PricingSettings::parse(&root),
            keepalive: super::keepalive::Keepalive::parse(&root),
        })
    }
}

/// `agent.reasoning_effort` (and `delegation.reasoning_effort`) as Hermes reads it: a level name, or YAML `false`/`off`/`no` for
/// none; `true`, empty or unknown text means unset (Hermes warns and keeps its default).
pub(super) fn reasoning_effort(value: Option<&Value>) -> Option<crate::llm::effort::Effort> {
    match value? {
        Value::Bool(false) => Some(crate::llm::effort::Effort::None),
        Value::String(text) => {
            let effort = crate::llm::effort::Effort::parse(text);
            if effort.is_none() && !text.trim().is_empty() {
                tracing::warn!(value = %text, "unknown reasoning_effort in config.yaml; using the default");
            }
            effort
        }
        _ => None,
    }
}

/// One `fallback_providers` entry: `{provider, model, base_url?, api_key?, api_mode?}` or the
/// short string form `provider:model`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FallbackEntry {
    pub provider: String,
    pub model: String,
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_mode: Option<String>,
}

/// One `custom_providers` entry (a list of `{name, base_url, api_key?, model?, api_mode?}` or a
/// mapping from name to the same fields).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NamedProvider {
    pub name: String,
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: Option<String>,
    pub api_mode: Option<String>,
}

fn parse_named(value: Option<&Value>) -> Vec<NamedProvider> {
    let entry = |name: Option<String>, v: &Value| -> Option<NamedProvider> {
        Some(NamedProvider {
            name: name.or_else(|| string_at(v, "name"))?,
            base_url: string_at(v, "base_url").or_else(|| string_at(v, "url"))?,
            api_key: string_at(v, "api_key"),
            model: string_at(v, "model").or_else(|| string_at(v, "default")),
            api_mode: string_at(v, "api_mode"),
        })
    };
    match value {
        Some(Value::Sequence(list)) => list.iter().filter_map(|v| entry(None, v)).collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .filter_map(|(k, v)| entry(k.as_str().map(str::to_string), v))
            .collect(),
        _ => Vec::new(),
    }
}

fn parse_fallbacks(value: Option<&Value>) -> Vec<FallbackEntry> {
    let Some(list) = value.and_then(Value::as_sequence) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|item| match item {
            Value::String(s) => {
                let (provider, model) = s.split_once(':')?;
                Some(FallbackEntry {
                    provider: provider.trim().into(),
                    model: model.trim().into(),
                    ..Default::default()
                })
            }
            map => Some(FallbackEntry {
                provider: string_at(map, "provider")?,
                model: string_at(map, "model")
                    .or_else(|| string_at(map, "default"))
                    .unwrap_or_default(),
                base_url: string_at(map, "base_url"),
                api_key: string_at(map, "api_key"),
                api_mode: string_at(map, "api_mode"),
            }),
        })
        .collect()
}

/// `root.section.key` as a duration in seconds. YAML's `.inf`, `.nan`, negative and huge values
/// are refused (they would panic `Duration::from_secs_f64` or mean "wait forever").
fn seconds_at(root: &Value, section: &str, key: &str, name: &'static str) -> Result<Option<Duration>, ParseError> {
    let Some(value) = root.get(section).and_then(|s| s.get(key)) else {
        return Ok(None);
    };
    let invalid = |problem: String| ParseError::Invalid { key: name, problem };
    let secs = match value {
        Value::Null => return Ok(None),
        Value::Number(n) => n.as_f64().ok_or_else(|| invalid(format!("is not a number: {n}")))?,
        other => return Err(invalid(format!("must be a number of seconds, got {other:?}"))),
    };
    crate::duration::positive_seconds(secs, crate::duration::MAX_SETTING)
        .map(Some)
        .map_err(|e| invalid(e.to_string()))
}

/// The OS sandbox settings: `sandbox: workspace-write | read-only | off` (default
/// workspace-write), `terminal.writable_roots` (extra directories commands may write to; `~`
/// is expanded by the caller, which knows the home directory) and `terminal.network`
/// (`deny`, the default: commands run offline unless granted; `allow`: every command has it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SandboxConfig {
    pub mode: crate::safety::sandbox::SandboxMode,
    pub writable_roots: Vec<String>,
    pub network: crate::safety::sandbox::NetworkMode,
}

impl SandboxConfig {
    fn parse(root: &Value) -> SandboxConfig {
        use crate::safety::sandbox::{NetworkMode, SandboxMode};
        // `sandbox: false` reads as a YAML boolean, not a string.
        let mode = match root.get("sandbox") {
            None | Some(Value::Null) => SandboxMode::default(),
            Some(Value::Bool(false)) => SandboxMode::Off,
            Some(Value::String(s)) => SandboxMode::parse(s).unwrap_or_else(|| {
                // An unreadable value must not switch the sandbox off.
                tracing::warn!(value = %s, "unknown `sandbox:` value; using workspace-write");
                SandboxMode::default()
            }),
            Some(_) => SandboxMode::default(),
        };
        let writable_roots = root
            .get("terminal")
            .and_then(|t| t.get("writable_roots"))
            .and_then(Value::as_sequence)
            .map(|seq| seq.iter().filter_map(Value::as_str).filter_map(non_empty).collect())
            .unwrap_or_default();
        let network = match root.get("terminal").and_then(|t| t.get("network")) {
            None | Some(Value::Null) => NetworkMode::default(),
            Some(Value::Bool(true)) => NetworkMode::Allow,
            Some(Value::Bool(false)) => NetworkMode::Deny,
            Some(Value::String(s)) => NetworkMode::parse(s).unwrap_or_else(|| {
                // An unreadable value must not open the network.
                tracing::warn!(value = %s, "unknown `terminal.network` value; using deny");
                NetworkMode::Deny
            }),
            Some(_) => NetworkMode::Deny,
        };
        SandboxConfig {
            mode,
            writable_roots,
            network,
        }
    }
}

fn string_at(value: &Value, key: &str) -> Option<String> {
    match value.get(key)? {
        Value::String(s) => non_empty(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn non_empty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

#[cfg(test)]
mod tests;
