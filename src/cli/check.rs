//! `hermes-acp --check`: validates the configuration, resolves the provider (saying which, and
//! why), asks the provider for its model list, and opens the database. Prints one verdict line
//! on stdout; the exit code says what failed (0 ok, 1 configuration, 2 provider, 3 database).

use std::process::ExitCode;

use crate::config::Config;
use crate::llm::{self, LlmError};
use crate::store::Store;

/// Runs the check.
pub async fn run() -> ExitCode {
    let (line, code) = verdict().await;
    report(&line);
    ExitCode::from(code)
}

#[allow(clippy::print_stdout)] // --check is for a person at a terminal, not an editor.
fn report(line: &str) {
    println!("{line}");
}

async fn verdict() -> (String, u8) {
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => return (format!("hermes-acp check FAILED (configuration): {e:#}"), 1),
    };
    let settings = match &config.provider {
        Ok(s) => s.clone(),
        Err(e) => return (format!("hermes-acp check FAILED (no provider): {e}"), 1),
    };
    let described = format!(
        "provider {} ({}), model '{}', base URL {}",
        settings.id,
        settings.reason,
        if settings.model.is_empty() {
            "<none configured>"
        } else {
            &settings.model
        },
        settings.base_url
    );
    if let Err(e) = Store::open(&config.db_path) {
        return (
            format!(
                "hermes-acp check FAILED (database {}): {e}; {described}",
                config.db_path.display()
            ),
            3,
        );
    }
    let provider = match llm::from_settings(&settings, config.file.prompt_cache_ttl, llm::http::client()) {
        Ok(p) => p,
        Err(e) => return (format!("hermes-acp check FAILED (provider): {e}"), 2),
    };
    match provider.list_models().await {
        Ok(models) => {
            let listed = if settings.model.is_empty() || models.is_empty() || models.contains(&settings.model) {
                String::new()
            } else {
                format!(" (warning: the provider does not list '{}')", settings.model)
            };
            (
                format!(
                    "hermes-acp check OK: {described}, {} models available, database {}{listed}",
                    models.len(),
                    config.db_path.display()
                ),
                0,
            )
        }
        Err(LlmError::Status { status: 404 | 405, .. }) => (
            format!(
                "hermes-acp check OK: {described} (no model list endpoint), database {}",
                config.db_path.display()
            ),
            0,
        ),
        Err(e) => (
            format!("hermes-acp check FAILED (provider unreachable): {e}; {described}"),
            2,
        ),
    }
}
