//! The integration suite, one binary. Each module drives the real `hermes-acp` binary over
//! pipes (or the server in-process) against the mock LLM on 127.0.0.1.

mod support;

/// The native Anthropic Messages provider against the mock Messages API.
mod anthropic;
/// Tidy checks: module headers, one-way layering, no import circle across folders, no stdout
/// printing in the library.
mod architecture;
/// The editor bridge: modes, permissions, timeouts, editor files, replay fidelity.
mod bridge;
/// `clarify` through editor forms: offered with `elicitation.form`; accept, decline, cancel,
/// timeout and a cancelled turn.
mod clarify;
/// The command line: `--check` verdicts and exit codes, `--help`.
mod cli;
/// The command line on a pseudo-terminal: `--setup` prompt by prompt, the note when started by
/// hand. Linux only: the pty comes from libc's posix_openpt with O_CLOEXEC and ptsname_r,
/// which the libc crate offers on Linux alone.
#[cfg(target_os = "linux")]
mod cli_pty;
/// `--setup` with piped input: re-asking, the editor snippet, a clean stop.
mod cli_setup;
/// The editor's session setup: its system prompt (append, override, refusals) kept across a
/// restart, a second project folder end to end, missing folders refused.
mod client_setup;
/// What each client shows and what clients rely on: stand-alone permission questions, card
/// titles, usage after a cancel, `/compact` now, keepalives, MCP close, new files through the
/// editor, JetBrains.
mod clients;
/// Slash commands advertised and in /help; model choices validated.
mod commands;
/// Compaction on the user's terms: `/compact <instructions>`, the per-session `auto_compact`
/// toggle.
mod compaction_controls;
mod containment;
/// What `/undo` can restore decides what runs unasked; nested repositories' hooks are read-only.
#[cfg(target_os = "linux")]
mod coverage_gate;
/// delegate_task: subagents within the turn, as sessions or one card; cancel; usage.
mod delegate;
/// The editor config snippets and the ACP registry manifest.
mod distribution;
/// The check-then-write race through the real binary: a background process flips a symlink
/// while write_file runs; nothing lands outside the project.
// Unix only: symlinks, `mv -T`.
#[cfg(unix)]
mod edit_race;
/// `execute_code`: scripts calling tools through the gate, limits, cancel.
// Unix only: Unix sockets, process groups and /proc.
#[cfg(unix)]
mod execute_code;
/// Sessions Hermes saved in its own `state.db`: listed, loaded, continued, never written.
mod hermes_sessions;
/// The npm package and the Python wheel, installed from local files and probed like the ACP
/// registry does.
mod launchers;
/// Providers and long sessions: fallbacks, backoff, compaction, context files, memory, search.
mod long_sessions;
/// MCP client in-process against the example MCP server: tools, calls, failures, close.
mod mcp;
/// Bounded property tests: the untrusted-text parsers never panic.
mod parser_props;
/// Containment first, recognition second: what `default` asks, scripts with dangers inside,
/// the no-containment fallback, and prefix rules that allow exactly what they name.
// Unix only: file modes.
#[cfg(unix)]
mod permissions;
/// Plan mode: changes refused, the plan shown and approved or kept.
mod plan_mode;
/// Streaming prompts, cancel, provider failures and retries.
mod prompting;
/// Handshake, malformed input, unknown methods and ids, stdout hygiene.
mod protocol;
/// Rate limits and cost: rate-limit headers in `usage_update._meta`, low-limit notices, a
/// 429's reset time, turn and session cost from configured or built-in prices.
mod rate_limits;
/// Reasoning effort: the `thought_level` option per model, its wire formats, the config
/// default, and Anthropic thinking signatures echoed across a tool loop.
mod reasoning_effort;
/// Reasoning effort under hostile calls: garbage values, unknown ids, model switches.
mod reasoning_effort_hostile;
/// Redaction as the second net: encoded copies of a key a command prints reach neither the
/// model, the editor nor the database; memory stores keys redacted and asks before an entry
/// that skips approvals.
mod redaction;
/// The OpenAI Responses API mode against the Responses mock: streaming, encrypted reasoning
/// in the tool loop, parallel calls, retries, errors, cancel.
mod responses_api;
/// Bad input gets an error, not a panic or a hang; replay frames stay small.
mod robustness;
/// Safety by construction: destructive commands, symlink escapes, sensitive files.
// Unix only: symlinks and file modes.
#[cfg(unix)]
mod safety;
/// The OS sandbox (Landlock) for commands, end to end.
mod sandbox;
/// Secrets never leak: model, editor, logs, database; child environments; file modes.
// Unix only: file modes.
#[cfg(unix)]
mod secrets;
/// `session/options` and initial config options on session setup.
mod session_options;
/// Persistence across restarts: list, load (replay), resume, fork, close, delete, settings.
mod sessions;
/// `skill_manage` round trips: create, view, patch, delete through the real binary.
mod skill_manage;
/// `_session/steering`: inject into a running turn, start one when idle.
mod steering;
/// The tool loop end to end: edits, search, commands, parallel calls, budget, cancel.
mod tool_loop;
/// One owner per prompt: cancels never lost, exact `$/cancel_request`, ordered settings,
/// editor terminals killed and released on cancel.
mod turns;
/// `/undo` and `/checkpoints`: files byte-identical, the turn gone from the next request, after
/// a restart too.
mod undo;
/// `/undo` of git and mode changes: a nested repository after `reset --hard` and `clean -fdx`,
/// ignored files a script deleted, `chmod -x`, the project's refs, modes through the editor.
// Unix only: file modes.
#[cfg(unix)]
mod undo_git;
/// `/undo` of commands that delete the project's own git objects (`rm -rf .git`, a pruning gc).
#[cfg(unix)]
mod undo_objects;
/// `vision_analyze`: both wire formats, the session model, refused URLs, when it is offered.
mod vision;
/// The web tools against mocked backends and pages: results, cards, failures, offering, guard.
mod web;
/// The wire under abuse: garbage frames, over-long lines, unread stderr, signals.
// Unix only: signals and FIONREAD on the stderr pipe.
#[cfg(unix)]
mod wire;
