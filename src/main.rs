//! The `hermes-acp` binary: parses the command line, sends logs to stderr without ever blocking
//! on it (stdout carries only protocol frames), and runs the server, the configuration check or
//! the setup wizard. Exits within a bounded time once serving ends (stdin EOF or a signal).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

/// The static musl build uses mimalloc: musl's own allocator serialises every allocation on
/// one lock, which showed in start-up and in streaming.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How long tasks still running (and blocking-pool work) get once serving has ended. The
/// blocking read of stdin never returns after a signal, so this is always a bound, not a join.
const RUNTIME_GRACE: Duration = Duration::from_millis(200);
/// How long queued log lines get to reach stderr at exit.
const LOG_FLUSH_GRACE: Duration = Duration::from_millis(300);

/// A coding agent for editors, speaking the Agent Client Protocol on stdin/stdout.
///
/// Without arguments (or with `acp`) it starts the ACP server on stdin/stdout: that is how
/// editors launch it, so run it from a terminal only with --setup or --check. It reads the
/// files and environment variables listed below.
#[derive(Debug, Default, Parser)]
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

/// The command line. An editor's launch (no arguments, or just `acp`) skips clap: building the
/// parser with its help texts took a tenth of the time to answer `initialize`.
fn parse_command_line() -> Cli {
    let mut args = std::env::args_os().skip(1);
    match (args.next(), args.next()) {
        (None, _) => Cli::default(),
        (Some(first), None) if first == "acp" => Cli {
            command: Some("acp".to_string()),
            ..Cli::default()
        },
        (Some(first), _) => {
            if let Some(error) = flag_without_dashes(&first.to_string_lossy()) {
                error.exit();
            }
            Cli::parse()
        }
    }
}

/// `hermes-acp setup` / `check` / `help`: a word that is one of our flags without its dashes
/// (other CLIs spell these as subcommands, Hermes' own `hermes setup` among them) gets clap's
/// own "unexpected argument" error with a tip naming the flag, instead of a list of values.
fn flag_without_dashes(word: &str) -> Option<clap::Error> {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if word.starts_with('-') || word == "acp" {
        return None;
    }
    let mut command = Cli::command();
    command.build();
    let known = command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .any(|long| long == word);
    if !known {
        return None;
    }
    let mut error = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(&command);
    error.insert(ContextKind::InvalidArg, ContextValue::String(word.to_string()));
    error.insert(ContextKind::SuggestedArg, ContextValue::String(format!("--{word}")));
    error.insert(ContextKind::Usage, ContextValue::StyledStr(command.render_usage()));
    Some(error)
}

fn main() -> ExitCode {
    // The sandbox launcher the editor's terminal runs (see `safety::sandbox::launch`): before
    // anything else, since it is neither a server nor a tool a user calls.
    if let Some(spec) = std::env::var_os(hermes_acp::safety::sandbox::launch::SPEC_ENV) {
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        hermes_acp::safety::sandbox::launch::main(std::path::Path::new(&spec), &args);
    }
    let cli = parse_command_line();
    let logs = hermes_acp::logging::init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            logs.finish(LOG_FLUSH_GRACE);
            return ExitCode::FAILURE;
        }
    };
    let code = if cli.check {
        runtime.block_on(hermes_acp::cli::check::run())
    } else if cli.setup {
        runtime.block_on(hermes_acp::cli::setup())
    } else {
        let by_hand = std::io::stdin().is_terminal();
        runtime.spawn(logs.reporter());
        let listening = move || {
            if by_hand {
                started_by_hand();
            }
        };
        match runtime.block_on(hermes_acp::app::serve(listening)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!("{e:#}");
                ExitCode::FAILURE
            }
        }
    };
    // Dropping the remaining tasks also kills the process groups of commands they own.
    runtime.shutdown_timeout(RUNTIME_GRACE);
    logs.finish(LOG_FLUSH_GRACE);
    code
}

/// Someone ran the server from a terminal: say once, on stderr, what this is and what to do,
/// instead of leaving them facing a silent prompt that answers typing with JSON-RPC errors.
fn started_by_hand() {
    eprintln!("{}", hermes_acp::cli::HAND_STARTED_NOTE);
}
