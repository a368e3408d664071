//! The composition root: configuration → store → provider → tools → session manager → ACP
//! server. Wiring only; every decision lives in the modules it connects.

use std::sync::Arc;
use std::time::Duration;

use crate::acp::{self, AcpState, WireLimits};
use crate::config::Config;
use crate::llm::{self, RetryPolicy};
use crate::session::SessionManager;
use crate::store::Store;
use crate::tools::ToolRegistry;

/// Builds the session manager from a loaded configuration.
pub fn build_manager(config: Config) -> Arc<SessionManager> {
    // Opened in the background: `initialize` is answered before SQLite is ready.
    let store = Store::open_in_background(config.db_path.clone());
    // Start a blocking-pool thread now so the first database call does not pay for it.
    tokio::task::spawn_blocking(|| {});
    let provider = match &config.provider {
        Ok(settings) => {
            tracing::info!(provider = %settings.id, model = %settings.model, base_url = %settings.base_url, reason = %settings.reason, "provider resolved");
            llm::from_settings(settings, config.file.prompt_cache_ttl, llm::http::client())
                .map(|p| (settings.clone(), p))
        }
        Err(e) => {
            tracing::warn!("{e}");
            Err(e.to_string())
        }
    };
    if let Err(e) = &provider {
        tracing::warn!("no usable provider: {e}");
    }
    let retry = retry_policy(&config);
    Arc::new(SessionManager::new(
        Arc::new(config),
        store,
        provider,
        ToolRegistry::builtin(),
        retry,
    ))
}

/// Retry settings; `HERMES_ACP_RETRY_BASE_MS` / `HERMES_ACP_RETRY_MAX_MS` /
/// `HERMES_ACP_MAX_RETRIES` tune them (tests use
/// short delays).
pub fn retry_policy(config: &Config) -> RetryPolicy {
    let mut policy = RetryPolicy::default();
    if let Some(ms) = config
        .env
        .get("HERMES_ACP_RETRY_BASE_MS")
        .and_then(|v| v.parse::<u64>().ok())
    {
        policy.base_delay = Duration::from_millis(ms);
    }
    if let Some(ms) = config
        .env
        .get("HERMES_ACP_RETRY_MAX_MS")
        .and_then(|v| v.parse::<u64>().ok())
    {
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

/// Wire size limits; `HERMES_ACP_MAX_LINE_BYTES` / `HERMES_ACP_MAX_FRAME_BYTES` override them
/// (tests use small caps).
pub fn wire_limits(config: &Config) -> WireLimits {
    let mut limits = WireLimits::default();
    let read = |key: &str| config.env.get(key).and_then(|v| v.parse::<usize>().ok());
    if let Some(n) = read("HERMES_ACP_MAX_LINE_BYTES") {
        limits.max_line_in = n;
    }
    if let Some(n) = read("HERMES_ACP_MAX_FRAME_BYTES") {
        limits.max_frame_out = n;
    }
    limits
}

/// Loads the configuration and serves ACP on stdio until the editor closes stdin or a
/// termination signal arrives.
pub async fn serve() -> anyhow::Result<()> {
    // Listen before anything else, so an early SIGTERM still gets the clean path.
    let shutdown = crate::signals::shutdown();
    // A broken config.yaml must not kill the agent before `initialize`: sessions report it.
    let config = Config::load_or_problem();
    let limits = wire_limits(&config);
    let manager = build_manager(config);
    crate::tools::redact::logs::install(manager.secrets());
    acp::serve_stdio(Arc::new(AcpState::new(manager)), limits, shutdown)
        .await
        .map_err(|e| anyhow::anyhow!("ACP connection failed: {e}"))
}
