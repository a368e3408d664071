//! The composition root: configuration → process services (store, providers, tools) → session
//! manager → ACP server. Wiring only; every decision lives in the modules it connects.

mod process;

use std::sync::Arc;

use crate::acp::{self, AcpState, WireLimits};
use crate::config::Config;
use crate::config::ProviderError;
use crate::services::Services;
use crate::session::SessionManager;
use crate::store::Store;

/// Builds the process scope from a loaded configuration.
pub fn build_services(config: &Config) -> Arc<Services> {
    let store = open_store(config);
    // Start two blocking-pool threads now: one soon waits in stdin's read for good, and the
    // first write to stdout (the `initialize` answer) would otherwise wait for a thread to be
    // created. Each holds until both exist, so the pool cannot satisfy both with one thread.
    let both_started = Arc::new(std::sync::Barrier::new(2));
    for _ in 0..2 {
        let both_started = both_started.clone();
        tokio::task::spawn_blocking(move || {
            both_started.wait();
        });
    }
    Arc::new(process::process_services(config, store))
}

/// The session database. Opened in the background: `initialize` is answered before SQLite is
/// ready. With no provider configured at all and no database yet, nothing is created on disk:
/// such a process cannot start a session (the provider is resolved once, at start), so a
/// first look from an editor or the registry's probe leaves no `HERMES_HOME/hermes-acp` behind.
fn open_store(config: &Config) -> Store {
    let nothing_configured = matches!(config.provider, Err(ProviderError::NotConfigured { .. }));
    if nothing_configured && !config.db_path.exists() {
        match Store::open_in_memory() {
            Ok(store) => return store,
            Err(e) => tracing::warn!(error = %e, "cannot open an in-memory session database"),
        }
    }
    Store::open_in_background(config.db_path.clone())
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
/// termination signal arrives. `listening` runs once the signal handlers are installed (a note
/// that tells a person to press Ctrl-C must not come before Ctrl-C is handled).
pub async fn serve(listening: impl FnOnce()) -> anyhow::Result<()> {
    // Listen before anything else, so an early SIGTERM still gets the clean path.
    let shutdown = crate::signals::shutdown();
    listening();
    // A broken config.yaml must not kill the agent before `initialize`: sessions report it.
    let config = Config::load_or_problem();
    let limits = wire_limits(&config);
    let services = build_services(&config);
    crate::safety::secrets::redact::logs::install(services.tools.secrets.clone());
    let manager = Arc::new(SessionManager::new(services, config));
    acp::serve_stdio(Arc::new(AcpState::new(manager)), limits, shutdown)
        .await
        .map_err(|e| anyhow::anyhow!("ACP connection failed: {e}"))
}
