//! `hermes-acp --check`: reads the configuration (reporting mistakes in it), resolves the
//! provider (saying which, and why), opens the database, lists the provider's models and sends
//! one tiny completion (`probe`). Prints a verdict line and a few detail lines on stdout; the
//! exit code says what failed — see `EXIT_CODES`, which `--help` shows.

use std::path::Path;
use std::process::ExitCode;

use super::probe::{self, Diagnosis};
use crate::config::Config;
use crate::llm;
use crate::llm::{ApiMode, Endpoint};
use crate::store::Store;

/// The exit codes of `--check`, for `--help`.
pub const EXIT_CODES: &str = "\
Exit codes of --check:
  0  OK: the model answered
  1  configuration problem (no provider, unreadable config.yaml, bad URL, unknown provider or no model)
  2  provider unreachable (connection refused, unknown host, timeout)
  3  API key rejected (the message says where the key was read)
  4  the provider does not have the model (the closest listed names are shown)
  5  rate-limited or out of credits
  6  not the configured kind of API at that URL (an HTML page, nothing at /chat/completions,
     /responses or /v1/messages)
  7  other provider failure
  8  the session database cannot be opened";

/// Runs the check.
pub async fn run() -> ExitCode {
    let report = verdict().await;
    print_report(&report);
    ExitCode::from(report.code)
}

/// What `--check` prints, and its exit code.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub code: u8,
    pub headline: String,
    /// (label, text) lines printed under the headline.
    pub details: Vec<(&'static str, String)>,
}

#[allow(clippy::print_stdout)] // --check is for a person at a terminal, not an editor.
fn print_report(report: &Report) {
    println!("{}", report.headline);
    for (label, text) in &report.details {
        println!("  {label:<9} {text}");
    }
}

fn failed(code: u8, what: &str, details: Vec<(&'static str, String)>) -> Report {
    Report {
        code,
        headline: format!("hermes-acp check FAILED: {what}"),
        details,
    }
}

async fn verdict() -> Report {
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => return failed(1, &format!("cannot read the configuration: {e:#}"), vec![]),
    };
    let settings = match &config.provider {
        Ok(s) => s.clone(),
        Err(e) => return failed(1, &e.to_string(), vec![("home", config.home.display().to_string())]),
    };
    let mut details = vec![
        ("provider", format!("{} — {}", settings.id, settings.reason)),
        ("base URL", settings.base_url.clone()),
        ("key", describe_key(&settings)),
    ];
    if let Err(e) = Store::open(&config.db_path) {
        details.push(("database", config.db_path.display().to_string()));
        return failed(8, &format!("cannot open the session database: {e}"), details);
    }
    let provider = llm::from_endpoint(&settings, llm::http::client());
    let models = probe::list_models(provider.as_ref()).await;
    let listed = models.as_ref().map(Vec::as_slice).unwrap_or(&[]);
    let model = if settings.model.is_empty() {
        match listed.first() {
            Some(first) => {
                details.push((
                    "model",
                    format!("none configured (model.default); new sessions use the first listed, '{first}'"),
                ));
                first.clone()
            }
            None => {
                return failed(
                    1,
                    &format!(
                        "no model configured: set model.default in {}",
                        config.home.join("config.yaml").display()
                    ),
                    details,
                );
            }
        }
    } else {
        settings.model.clone()
    };
    // A refused connection while listing makes the completion pointless: same answer, slower.
    let diagnosis = match &models {
        Err(e @ llm::LlmError::Connect { .. }) => probe::diagnose(e, &model, &[]),
        _ => probe::complete_once(provider.as_ref(), &model, listed).await,
    };
    match &models {
        Ok(list) if !list.is_empty() => {
            let note = if list.contains(&model) {
                ""
            } else {
                " (the model is not among them)"
            };
            details.push(("models", format!("{} listed by the provider{note}", list.len())));
        }
        _ => {}
    }
    details.push(("database", config.db_path.display().to_string()));
    explain(&diagnosis, &model, &settings, &config.home, details)
}

/// The key line: where the key was read, never the key itself.
fn describe_key(settings: &Endpoint) -> String {
    match (&settings.api_key, &settings.key_source, &settings.key_origin) {
        (None, _, _) if crate::config::provider::is_loopback(&settings.base_url) => {
            "none (a server on this machine usually needs none)".into()
        }
        (None, _, _) => "none configured".into(),
        (Some(_), Some(source), Some(origin)) => format!("{source}, read from {origin}"),
        (Some(_), Some(source), None) => source.clone(),
        (Some(_), None, _) => "set".into(),
    }
}

/// The report for a diagnosis: a headline saying what happened and a line saying what to do.
pub fn explain(
    diagnosis: &Diagnosis,
    model: &str,
    settings: &Endpoint,
    home: &Path,
    mut details: Vec<(&'static str, String)>,
) -> Report {
    let code = diagnosis.exit_code();
    let config_yaml = home.join("config.yaml").display().to_string();
    let (what, fix) = match diagnosis {
        Diagnosis::Ok { latency, .. } => {
            return Report {
                code,
                headline: format!(
                    "hermes-acp check OK: model '{model}' answered in {} ms",
                    latency.as_millis()
                ),
                details,
            };
        }
        Diagnosis::Unreachable(e) => (
            format!("the provider is unreachable ({e})"),
            format!("start the server, or correct the base URL (model.base_url in {config_yaml}); check the network"),
        ),
        Diagnosis::NotAnApi(e) => (
            format!("this is not {} ({e})", api_name(settings.api_mode)),
            format!(
                "the base URL must be the API root that serves {}{} (model.base_url in {config_yaml})",
                settings.base_url,
                endpoint_hint(settings.api_mode)
            ),
        ),
        Diagnosis::BadKey(e) => (format!("the API key was rejected ({e})"), key_fix(settings, home)),
        Diagnosis::UnknownModel { message, closest } => {
            if !closest.is_empty() {
                details.push(("closest", closest.join(", ")));
            }
            (
                format!("the provider does not have the model '{model}' ({message})"),
                format!(
                    "set model.default in {config_yaml} to a model the provider lists, or run `hermes-acp --setup` to pick one"
                ),
            )
        }
        Diagnosis::RateLimited(e) => (
            format!("the provider is rate-limiting or out of credits ({e})"),
            "wait a minute and run the check again, or check the account's credits".to_string(),
        ),
        Diagnosis::Failed(e) => (
            format!("the test completion failed ({e})"),
            "run the check again; if it persists, try another model or provider".to_string(),
        ),
    };
    details.push(("fix", fix));
    failed(code, &what, details)
}

fn key_fix(settings: &Endpoint, home: &Path) -> String {
    let env_file = home.join(".env").display().to_string();
    match (&settings.key_source, &settings.key_origin) {
        (Some(var), Some(origin)) if origin == "the shell environment" => format!(
            "{var} comes from your shell; export a valid key, or put {var}=<key> in {env_file} (it wins over the shell), or run `hermes-acp --setup`"
        ),
        (Some(source), Some(origin)) if origin.ends_with("config.yaml") => {
            format!("correct {source} in {origin}, or run `hermes-acp --setup`")
        }
        (Some(var), Some(origin)) => format!("replace {var} in {origin}, or run `hermes-acp --setup`"),
        _ => format!("this provider needs a key: run `hermes-acp --setup`, or add it to {env_file}"),
    }
}

/// What kind of API the configured mode expects, for "this is not …".
fn api_name(mode: ApiMode) -> &'static str {
    match mode {
        ApiMode::ChatCompletions => "an OpenAI-compatible API",
        ApiMode::CodexResponses => "an OpenAI Responses API",
        ApiMode::AnthropicMessages => "an Anthropic Messages API",
    }
}

/// The path the configured mode posts to, and where its base URL usually ends.
fn endpoint_hint(mode: ApiMode) -> &'static str {
    match mode {
        ApiMode::ChatCompletions => "/chat/completions — usually ending in /v1",
        ApiMode::CodexResponses => "/responses — usually ending in /v1",
        ApiMode::AnthropicMessages => "/v1/messages — without the /v1",
    }
}
