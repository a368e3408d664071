//! The `hermes-acp` binary: parses the command line, sends logs to stderr (stdout carries only
//! protocol frames), and runs the server, the configuration check or the setup wizard.

use std::process::ExitCode;

use clap::Parser;

/// A coding agent for editors, speaking the Agent Client Protocol on stdin/stdout.
///
/// Without arguments (or with `acp`) it starts the ACP server on stdin/stdout: that is how
/// editors launch it, so run it from a terminal only with --setup or --check.
#[derive(Debug, Parser)]
#[command(name = "hermes-acp", version, about, after_help = hermes_acp::cli::help_epilogue())]
struct Cli {
    /// `acp` is accepted (and ignored) because launchers pass it.
    #[arg(value_parser = ["acp"])]
    command: Option<String>,
    /// Test the configuration for real: resolve the provider, send one tiny completion, report
    /// what works or exactly what to fix (exit codes below).
    #[arg(long, conflicts_with = "setup")]
    check: bool,
    /// Interactive setup: provider, key, model, a real test, then the snippet for your editor.
    #[arg(long)]
    setup: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    if cli.check {
        return runtime.block_on(hermes_acp::cli::check::run());
    }
    if cli.setup {
        return runtime.block_on(hermes_acp::cli::setup::run());
    }
    match runtime.block_on(hermes_acp::app::serve()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to stderr only, redacted; the level comes from `RUST_LOG` (default: info for us,
/// warn else).
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("hermes_acp=info,warn"));
    tracing_subscriber::fmt()
        // Every event is redacted (known secret values and patterns) before it reaches stderr.
        .with_writer(hermes_acp::tools::redact::logs::RedactingStderr)
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(false)
        .init();
}
