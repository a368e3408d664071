//! The process scope: what is built once at start and shared by every session and turn — the
//! configuration, the session database, the providers (main and fallbacks, over one HTTP
//! client), the retry policy, the built-in tools and what tools need from the process
//! (`ToolServices`). Sessions add their own scope (`tools::SessionScope`), turns theirs
//! (`agent::TurnScope`).

use std::sync::Arc;
use std::time::Duration;

use crate::config::{Config, ProviderSettings};
use crate::llm::{self, Provider, RetryPolicy};
use crate::store::Store;
use crate::tools::file_io::GuardEnv;
use crate::tools::{ToolRegistry, ToolServices};

/// The main provider with its settings, or why there is none (shown to the user).
pub type MainProvider = Result<(ProviderSettings, Arc<dyn Provider>), String>;

/// Everything that lives as long as the process.
pub struct Services {
    pub config: Config,
    pub store: Store,
    /// The provider new sessions use.
    pub provider: MainProvider,
    /// `fallback_providers`: (provider, model) tried in order when the main provider fails.
    pub fallbacks: Vec<(Arc<dyn Provider>, String)>,
    pub retry: RetryPolicy,
    /// The built-in toolset every session starts with (MCP tools are added per session).
    pub builtin_tools: ToolRegistry,
    /// The part of this scope tools may use.
    pub tools: Arc<ToolServices>,
    /// The sessions Hermes itself saved (`HERMES_HOME/state.db`), read-only.
    pub hermes_sessions: crate::store::hermes::HermesSessions,
}

impl Services {
    /// Builds the process scope from the configuration (read once) and the store.
    pub fn new(config: Config, store: Store) -> Services {
        let http = llm::http::client();
        let provider = match &config.provider {
            Ok(settings) => {
                tracing::info!(provider = %settings.id, model = %settings.model, base_url = %settings.base_url, reason = %settings.reason, "provider resolved");
                let provider = llm::from_settings(settings, config.file.prompt_cache_ttl, http.clone());
                Ok((settings.clone(), provider))
            }
            Err(e) => {
                tracing::warn!("no usable provider: {e}");
                Err(e.to_string())
            }
        };
        let fallbacks = (config.fallbacks.iter())
            .map(|s| {
                (
                    llm::from_settings(s, config.file.prompt_cache_ttl, http.clone()),
                    s.model.clone(),
                )
            })
            .collect();
        let guard = GuardEnv::new(&config.home, config.env.get("HERMES_WRITE_SAFE_ROOT"));
        let tools = Arc::new(ToolServices {
            hermes_home: Some(config.home.clone()),
            store: Some(store.clone()),
            secrets: Arc::new(config.secret_set()),
            child_env: Arc::new(config.child_env()),
            sandbox: crate::safety::sandbox::SandboxSettings {
                mode: config.file.sandbox.mode,
                extra_roots: (config.file.sandbox.writable_roots.iter())
                    .map(|root| crate::tools::workspace::expand_home(root))
                    .collect(),
                network: config.file.sandbox.network,
                secrets: crate::safety::sandbox::secrets(&crate::tools::workspace::home_dir(), &config.home),
            },
            http: crate::net::GuardedHttp::new(config.file.web.allow_private),
            vision: crate::tools::vision::VisionServices::from_config(&config, retry_policy(&config), http.clone()),
            skills: config.file.skills,
            web: Arc::new(crate::tools::web::WebBackends::from_config(
                &config.file.web,
                &config.env,
                &config.home,
            )),
            code_execution: config.file.code_execution,
        });
        Services {
            retry: retry_policy(&config),
            provider,
            fallbacks,
            builtin_tools: builtin_tools(guard, &config),
            tools,
            hermes_sessions: crate::store::hermes::HermesSessions::new(config.home.join("state.db")),
            store,
            config,
        }
    }
}

/// Retry settings; `HERMES_ACP_RETRY_BASE_MS` / `HERMES_ACP_RETRY_MAX_MS` /
/// `HERMES_ACP_MAX_RETRIES` tune them (tests use short delays).
pub fn retry_policy(config: &Config) -> RetryPolicy {
    let mut policy = RetryPolicy::default();
    let read = |key: &str| config.env.get(key).and_then(|v| v.parse::<u64>().ok());
    if let Some(ms) = read("HERMES_ACP_RETRY_BASE_MS") {
        policy.base_delay = Duration::from_millis(ms);
    }
    if let Some(ms) = read("HERMES_ACP_RETRY_MAX_MS") {
        policy.max_delay = Duration::from_millis(ms);
    }
    if let Some(n) = config
        .env
        .get("HERMES_ACP_MAX_RETRIES")
        .and_then(|v| v.parse::<u32>().ok())
    {
        policy.max_retries = n;
    }
    policy
}

/// The built-in tools, those that state the user's limits built from the configuration.
fn builtin_tools(guard: GuardEnv, config: &Config) -> ToolRegistry {
    let mut tools = ToolRegistry::builtin(guard);
    let delegation = crate::tools::delegate::DelegateTool::new(config.file.delegation.clone());
    tools.replace(Arc::new(delegation));
    tools
}
