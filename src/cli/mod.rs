//! Command-line modes other than serving: `--check` and `--setup`, and the `--help` epilogue.
//! These talk to a person on a terminal, so they (and only they) print to stdout.

pub mod check;
mod editors;
pub mod probe;
pub mod setup;
mod wizard;
mod yaml_edit;

/// `hermes-acp --setup`, the wizard behind the editor's terminal auth method. Input may be a
/// terminal or a pipe (scripted setups); a closed input ends it.
pub async fn setup() -> std::process::ExitCode {
    match wizard::wizard().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            #[allow(clippy::print_stdout)] // A wizard talks to a person on a terminal.
            {
                println!("Setup did not finish: {e}");
            }
            std::process::ExitCode::FAILURE
        }
    }
}

/// Printed on stderr when the server is started with a terminal as stdin (not by an editor).
pub const HAND_STARTED_NOTE: &str = "\
hermes-acp is an ACP agent server: your editor starts it and talks JSON-RPC on stdin/stdout,
so there is nothing to type here. Set it up with `hermes-acp --setup`, test it with
`hermes-acp --check`, and add it to your editor as README.md \"Add it to your editor\" shows
(https://github.com/hermes-acp/hermes-acp#add-it-to-your-editor). Press Ctrl-C to quit.";

/// The text under `--help`: the files and variables read, and the exit codes of `--check`.
pub fn help_epilogue() -> String {
    format!(
        "\
Configuration (read at start, as Hermes Agent reads it):
  $HERMES_HOME             the settings folder (default ~/.hermes)
  $HERMES_HOME/.env        API keys (OPENROUTER_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY,
                           CUSTOM_API_KEY, ...); its values win over the shell's
  $HERMES_HOME/config.yaml model.provider, model.base_url, model.default, model.api_key,
                           custom_providers, fallback_providers, mcp_servers, ...
Environment variables:
  HERMES_INFERENCE_PROVIDER, CUSTOM_BASE_URL, HERMES_MODEL   provider, URL and model overrides
  HERMES_ACP_DB            the session database (default $HERMES_HOME/hermes-acp/sessions.db)
  HERMES_YOLO_MODE=1       offer the mode that never asks
  RUST_LOG=debug           more logs (always on stderr; stdout carries only protocol frames)

{}",
        check::EXIT_CODES
    )
}
