//! The process scope built from the configuration: the providers (main and fallbacks over one
//! HTTP client), the retry policy, what tools need from the process and the built-in toolset.
//! Each piece gets the settings type its own layer defines; `config` only read the files.

use std::sync::Arc;
use std::time::Duration;

use crate::config::Config;
use crate::llm::{self, RetryPolicy};
use crate::runtime::ToolServices;
use crate::runtime::file_io::GuardEnv;
use crate::services::Services;
use crate::store::Store;

/// Builds the process scope from the configuration (read once) and the store.
pub(super) fn process_services(config: &Config, store: Store) -> Services {
    let http = llm::http::client();
    let provider = match &config.provider {
        Ok(settings) => {
            tracing::info!(provider = %settings.id, model = %settings.model, base_url = %settings.base_url, reason = %settings.reason, "provider resolved");
            let provider = llm::from_endpoint(settings, http.clone());
            Ok((settings.clone(), provider))
        }
        Err(e) => {
            tracing::warn!("no usable provider: {e}");
            Err(e.to_string())
        }
    };
    let fallbacks = (config.fallbacks.iter())
        .map(|s| (llm::from_endpoint(s, http.clone()), s.model.clone()))
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
                .map(|root| crate::home::expand_home(root))
                .collect(),
            network: config.file.sandbox.network,
            secrets: crate::safety::sandbox::secrets(&crate::home::home_dir(), &config.home),
        },
        http: crate::net::GuardedHttp::new(config.file.web.allow_private),
    });
    let settings = crate::tools::BuiltinSettings {
        vision: crate::tools::vision::VisionServices::new(
            crate::config::vision::vision_settings(config),
            retry_policy(config),
            http.clone(),
        ),
        skills: config.file.skills,
        web: Arc::new(crate::tools::web::WebBackends::from_config(
            &config.file.web,
            &config.env,
            &config.home,
        )),
        code_execution: config.file.code_execution,
        delegation: config.file.delegation.clone(),
    };
    Services {
        retry: retry_policy(config),
        provider,
        fallbacks,
        builtin_tools: crate::tools::builtin(guard, settings),
        tools,
        hermes_sessions: crate::store::hermes::HermesSessions::new(config.home.join("state.db")),
        store,
        delegation: config.file.delegation.clone(),
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
