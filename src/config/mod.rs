//! Configuration, compatible with Hermes: `HERMES_HOME` (default `~/.hermes`), its `.env`
//! (which overrides the shell) and `config.yaml`, resolved once at start into a `Config` that is
//! passed down explicitly. Nothing here is global.

pub mod code_execution;
pub mod compaction;
pub mod delegation;
pub mod env;
pub mod file;
pub mod keepalive;
pub mod pricing;
pub mod provider;
pub mod secrets;
pub mod skills;
pub mod vision;
pub mod web;

use std::path::{Path, PathBuf};

use crate::llm::Endpoint;
use std::time::Duration;

pub use env::EnvMap;
pub use file::ConfigFile;
pub use provider::ProviderError;

/// Model calls per prompt turn before the agent asks for a summary (Hermes' default).
pub const DEFAULT_MAX_ITERATIONS: u32 = 90;
/// How long a permission request waits for the user.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(60);

/// Everything read from the user's configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub home: PathBuf,
    pub env: EnvMap,
    pub file: ConfigFile,
    /// The provider for new sessions, or why there is none.
    pub provider: Result<Endpoint, ProviderError>,
    /// Our own database (never Hermes' `state.db`, which another program owns).
    pub db_path: PathBuf,
    pub max_iterations: u32,
    pub approval_timeout: Duration,
    /// Whether the `yolo` mode (no prompts at all) is offered.
    pub yolo_allowed: bool,
    /// `fallback_providers`, resolved (entries that do not resolve are logged and skipped).
    pub fallbacks: Vec<Endpoint>,
    /// Why `config.yaml` could not be used (file, line and problem), when it could not: the
    /// server still starts and answers `initialize`, then refuses sessions with this message.
    pub problem: Option<String>,
}

impl Config {
    /// Loads from `HERMES_HOME` (or `~/.hermes`).
    pub fn load() -> anyhow::Result<Config> {
        let home = env::hermes_home_from_process();
        Config::load_from(&home, EnvMap::load(&home))
    }

    /// Loads from an explicit home and environment (tests, `--check`); a broken `config.yaml`
    /// is an error.
    pub fn load_from(home: &Path, env: EnvMap) -> anyhow::Result<Config> {
        let config = Config::load_tolerant(home, env);
        match &config.problem {
            Some(problem) => Err(anyhow::anyhow!("{problem}")),
            None => Ok(config),
        }
    }

    /// Loads from `HERMES_HOME` (or `~/.hermes`), keeping a broken `config.yaml` as `problem`
    /// (with empty settings) instead of failing: the server must still answer `initialize`.
    pub fn load_or_problem() -> Config {
        let home = env::hermes_home_from_process();
        Config::load_tolerant(&home, EnvMap::load(&home))
    }

    /// Like [`Config::load_from`], but a broken `config.yaml` becomes `problem`.
    pub fn load_tolerant(home: &Path, env: EnvMap) -> Config {
        let (file, problem) = match ConfigFile::load(&home.join("config.yaml")) {
            Ok(file) => (file, None),
            Err(e) => {
                tracing::error!("{e}");
                (ConfigFile::default(), Some(e.to_string()))
            }
        };
        let home_text = home.display().to_string();
        let provider = provider::resolve(&file, &env, &home_text);
        let fallbacks = file
            .fallback_providers
            .iter()
            .filter_map(|entry| {
                let as_main = ConfigFile {
                    model_default: Some(entry.model.clone()).filter(|m| !m.is_empty()),
                    model_provider: Some(entry.provider.clone()),
                    model_base_url: entry.base_url.clone(),
                    model_api_key: entry.api_key.clone(),
                    model_api_mode: entry.api_mode.clone(),
                    // Every other setting (cache lifetime, custom providers, provider keys
                    // added later) is the main file's: one key reaches every endpoint.
                    ..file.clone()
                };
                // A fallback's own base URL wins over the environment's CUSTOM_BASE_URL.
                let mut env = env.clone();
                if entry.base_url.is_some() {
                    env.remove("CUSTOM_BASE_URL");
                }
                match provider::resolve(&as_main, &env, &home_text).and_then(|settings| {
                    provider::entry_over_named(settings, entry, &file.custom_providers, &home_text)
                }) {
                    Ok(settings) => Some(settings),
                    Err(e) => {
                        tracing::warn!(provider = %entry.provider, "skipping a fallback provider: {e}");
                        None
                    }
                }
            })
            .collect();
        let db_path = env
            .get("HERMES_ACP_DB")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join("hermes-acp").join("sessions.db"));
        Config {
            home: home.to_path_buf(),
            max_iterations: file.max_turns.unwrap_or(DEFAULT_MAX_ITERATIONS),
            approval_timeout: file.approvals_timeout.unwrap_or(DEFAULT_APPROVAL_TIMEOUT),
            yolo_allowed: file.yolo || env.is_truthy("HERMES_YOLO_MODE"),
            env,
            file,
            provider,
            fallbacks,
            db_path,
            problem,
        }
    }
}

/// `HERMES_HOME` when set (a leading `~` expanded), else `~/.hermes`.
pub fn hermes_home(explicit: Option<PathBuf>) -> PathBuf {
    match explicit {
        Some(p) if !p.as_os_str().is_empty() => match p.to_str() {
            Some(text) => crate::home::expand_home(text),
            None => p,
        },
        _ => crate::home::home_dir().join(".hermes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fallback is resolved from the main file with its own provider, model, URL and key: the
    /// rest (named custom providers, the cache lifetime) is the main file's, so a setting added
    /// for the main provider reaches the fallbacks without being copied by hand.
    #[test]
    fn a_fallback_resolves_from_the_main_files_other_settings() {
        let home = tempfile::tempdir().unwrap();
        let yaml = "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: main-model\n\
                    prompt_cache_ttl: 1h\n\
                    custom_providers:\n  - name: lab\n    base_url: http://127.0.0.1:8000/v1\n    api_key: lab-key-123\n\
                    fallback_providers:\n  - provider: lab\n    model: qwen\n";
        std::fs::write(home.path().join("config.yaml"), yaml).unwrap();
        let config = Config::load_tolerant(home.path(), EnvMap::from_pairs([]));
        let fallback = config
            .fallbacks
            .first()
            .expect("the fallback through a named provider resolves");
        assert_eq!(fallback.base_url, "http://127.0.0.1:8000/v1");
        assert_eq!(fallback.model, "qwen");
        assert_eq!(fallback.cache_ttl, config.provider.as_ref().unwrap().cache_ttl);
        assert_eq!(fallback.api_key.as_ref().map(|k| k.expose()), Some("lab-key-123"));
    }

    /// What a fallback entry says for itself wins over the named provider it goes through.
    #[test]
    fn a_fallback_entrys_own_model_url_and_key_win_over_its_named_provider() {
        let home = tempfile::tempdir().unwrap();
        let yaml = "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: main-model\n\
                    custom_providers:\n  - name: lab\n    base_url: http://127.0.0.1:8000/v1\n    model: llama\n    api_key: lab-key-123\n\
                    fallback_providers:\n  - provider: lab\n    model: qwen\n    base_url: http://127.0.0.1:8001/v1\n    api_key: own-key-456\n  - provider: lab\n";
        std::fs::write(home.path().join("config.yaml"), yaml).unwrap();
        let config = Config::load_tolerant(home.path(), EnvMap::from_pairs([]));
        let [own, plain] = &config.fallbacks[..] else {
            panic!("two fallbacks: {:?}", config.fallbacks)
        };
        assert_eq!(
            (
                own.model.as_str(),
                own.base_url.as_str(),
                own.api_key.as_ref().map(|k| k.expose())
            ),
            ("qwen", "http://127.0.0.1:8001/v1", Some("own-key-456"))
        );
        assert_eq!(
            (
                plain.model.as_str(),
                plain.base_url.as_str(),
                plain.api_key.as_ref().map(|k| k.expose())
            ),
            ("llama", "http://127.0.0.1:8000/v1", Some("lab-key-123"))
        );
    }
}
