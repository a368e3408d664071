//! Slash commands answered locally, before the model (reference §1.13): advertised with
//! `available_commands_update`, replied to as agent message chunks. An unknown `/word` is not a
//! command: it goes to the model as ordinary text.

use agent_client_protocol::v1::schema::{
    AvailableCommand, AvailableCommandInput, AvailableCommandsUpdate, SessionUpdate, UnstructuredCommandInput,
};

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::state::AcpState;
use crate::agent::Sink;
use crate::runtime::FileSystem;
use crate::session::Session;
use crate::text::thousands;
use crate::transcript::Role;

mod permissions;
mod undo;

/// The slash commands we answer. Parsed once from the prompt text (`parse`), dispatched by one
/// match (`handle`); their names, help and hints live in one table (`COMMANDS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slash {
    Help,
    Model,
    Tools,
    Context,
    Reset,
    Compact,
    Steer,
    Queue,
    Permissions,
    Undo,
    Checkpoints,
    Version,
}

/// One row of the table: a name (several names may share a command), what the editor's menu
/// shows, what `/help` shows, and the hint for the argument when there is one.
struct Entry {
    name: &'static str,
    command: Slash,
    advertised: &'static str,
    help: &'static str,
    hint: Option<&'static str>,
}

const COMMANDS: &[Entry] = &[
    Entry {
        name: "help",
        command: Slash::Help,
        advertised: "List available commands",
        help: "Show available commands",
        hint: None,
    },
    Entry {
        name: "model",
        command: Slash::Model,
        advertised: "Show current model and provider, or switch models",
        help: "Show or change current model",
        hint: Some("model name to switch to"),
    },
    Entry {
        name: "tools",
        command: Slash::Tools,
        advertised: "List available tools with descriptions",
        help: "List available tools",
        hint: None,
    },
    Entry {
        name: "context",
        command: Slash::Context,
        advertised: "Show conversation message counts by role",
        help: "Show conversation context info",
        hint: None,
    },
    Entry {
        name: "reset",
        command: Slash::Reset,
        advertised: "Clear conversation history",
        help: "Clear conversation history",
        hint: None,
    },
    Entry {
        name: "compact",
        command: Slash::Compact,
        advertised: "Summarise everything but the last exchange now, to free context",
        help: "Compress the conversation now (optionally: what the summary should keep)",
        hint: Some("optional: what the summary should concentrate on"),
    },
    // Hermes renamed `/compact` to `/compress`: both work.
    Entry {
        name: "compress",
        command: Slash::Compact,
        advertised: "Same as /compact (Hermes' name)",
        help: "Same as /compact",
        hint: Some("optional: what the summary should concentrate on"),
    },
    Entry {
        name: "steer",
        command: Slash::Steer,
        advertised: "Guide the running turn (delivered with its next tool results)",
        help: "Steer the running turn",
        hint: Some("guidance for the running turn"),
    },
    Entry {
        name: "queue",
        command: Slash::Queue,
        advertised: "Queue a prompt to run after the current turn",
        help: "Queue a prompt for the next turn",
        hint: Some("prompt to run next"),
    },
    Entry {
        name: "permissions",
        command: Slash::Permissions,
        advertised: "List permission rules; revoke one, or always allow in this project what this session allowed",
        help: "List, revoke or keep remembered permissions",
        hint: Some("revoke <number> | always [number]"),
    },
    Entry {
        name: "undo",
        command: Slash::Undo,
        advertised: "Undo the last turn: restore the files it changed and drop it from the conversation",
        help: "Undo the last turn (files and conversation)",
        hint: None,
    },
    Entry {
        name: "checkpoints",
        command: Slash::Checkpoints,
        advertised: "List the checkpoints /undo can go back to",
        help: "List undo checkpoints",
        hint: None,
    },
    Entry {
        name: "version",
        command: Slash::Version,
        advertised: "Show Hermes version",
        help: "Show Hermes version",
        hint: None,
    },
];

/// A slash command as typed: which one, and the text after its name (trimmed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parsed<'a> {
    pub command: Slash,
    pub args: &'a str,
}

/// The command `text` spells (`/name args`, the name in any case), or `None` when it is not
/// one of ours — then it goes to the model as ordinary text.
pub fn parse(text: &str) -> Option<Parsed<'_>> {
    let rest = text.strip_prefix('/')?;
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let name = rest[..end].to_ascii_lowercase();
    let entry = COMMANDS.iter().find(|entry| entry.name == name)?;
    Some(Parsed {
        command: entry.command,
        args: rest[end..].trim(),
    })
}

/// The `available_commands_update` sent after new/load/resume/fork.
pub fn available_commands_update() -> SessionUpdate {
    let commands = COMMANDS
        .iter()
        .map(|c| {
            let cmd = AvailableCommand::new(c.name, c.advertised);
            match c.hint {
                Some(hint) => cmd.input(AvailableCommandInput::Unstructured(UnstructuredCommandInput::new(hint))),
                None => cmd,
            }
        })
        .collect();
    SessionUpdate::AvailableCommandsUpdate(AvailableCommandsUpdate::new(commands))
}

/// What a slash command asks the prompt handler to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Answer with this text; no model call.
    Reply(String),
    /// Run this text as an ordinary prompt (an idle `/steer`).
    Prompt(String),
}

/// Runs `text` as a slash command. `None` when it is not one of ours (send it to the model).
pub async fn handle(
    state: &AcpState,
    session: &Arc<Session>,
    sink: Sink,
    text: &str,
    cancel: &CancellationToken,
    fs: Arc<dyn FileSystem>,
) -> Option<Outcome> {
    let Parsed { command, args } = parse(text)?;
    let reply = match command {
        Slash::Steer => return Some(steer(session, state.manager.is_running(&session.id), args)),
        Slash::Help => help(),
        Slash::Model => model(state, session, args).await,
        Slash::Tools => tools(session),
        Slash::Context => context(state, session).await,
        Slash::Reset => match state.manager.reset(session).await {
            Ok(()) => "Conversation history cleared.".to_string(),
            Err(e) => format!("Error executing /reset: {e}"),
        },
        Slash::Compact => {
            let instructions = Some(args).filter(|a| !a.is_empty());
            match state.manager.compact_now(session, sink, cancel, instructions).await {
                Ok(reply) => reply,
                Err(e) => crate::agent::compaction::replies::failed(&e),
            }
        }
        Slash::Queue => queue(session, args),
        Slash::Permissions => permissions::reply(state, session, args).await,
        Slash::Undo => undo::undo(state, session, fs).await,
        Slash::Checkpoints => undo::checkpoints(state, session).await,
        Slash::Version => format!("Hermes Agent (hermes-acp) v{}", env!("CARGO_PKG_VERSION")),
    };
    Some(Outcome::Reply(reply))
}

fn steer(session: &Session, running: bool, args: &str) -> Outcome {
    if args.is_empty() {
        return Outcome::Reply("Usage: /steer <guidance>".into());
    }
    if !running {
        return Outcome::Prompt(args.to_string());
    }
    session.tool_state.add_guidance(args);
    let shown: String = args.chars().take(80).collect();
    let more = if args.chars().count() > 80 { "..." } else { "" };
    Outcome::Reply(format!("⏩ Steer queued for the active turn: {shown}{more}"))
}

fn queue(session: &Session, args: &str) -> String {
    if args.is_empty() {
        return "Usage: /queue <prompt>".into();
    }
    format!("Queued for the next turn. ({} queued)", session.enqueue(args))
}

fn help() -> String {
    let mut out = String::from("Available commands:\n\n");
    for c in COMMANDS {
        out.push_str(&format!("  /{:<10}  {}\n", c.name, c.help));
    }
    out.push_str("\nUnrecognized /commands are sent to the model as normal messages.");
    out
}

async fn model(state: &AcpState, session: &Session, args: &str) -> String {
    let provider = state
        .manager
        .provider()
        .map(|(s, _)| s.id.clone())
        .unwrap_or_else(|_| "auto".into());
    if args.is_empty() {
        let current = session.settings().model;
        let mut out = format!("Current model: {current}\nProvider: {provider}\nAvailable models:");
        for m in state.manager.models(&current).await {
            let mark = if m == current { " (current)" } else { "" };
            out.push_str(&format!("\n  {m}{mark}"));
        }
        out.push_str("\nSwitch with /model <id>.");
        return out;
    }
    match state.manager.set_model(session, args).await {
        Ok(()) => format!("Model switched to: {args}\nProvider: {provider}"),
        Err(e) => format!("Error executing /model: {e}"),
    }
}

fn tools(session: &Session) -> String {
    let registry = session.tools();
    if registry.is_empty() {
        return "No tools available.".into();
    }
    let mut out = format!("Available tools ({}):", registry.len());
    for tool in registry.tools() {
        let desc = tool.description();
        let desc = if desc.chars().count() > 80 {
            format!("{}...", desc.chars().take(77).collect::<String>())
        } else {
            desc
        };
        out.push_str(&format!("\n  {}: {desc}", tool.name()));
    }
    out
}

async fn context(state: &AcpState, session: &Session) -> String {
    let history = session.history().await;
    if history.is_empty() {
        return "Conversation is empty (no messages yet).".into();
    }
    let count = |role: Role| history.iter().filter(|m| m.role() == role).count();
    // The same measure `usage_update` reports: the next request's size as the provider last
    // counted it, else estimated from the history.
    let used = match state.manager.context_used(session).await {
        Some(tokens) => tokens as usize,
        None => crate::agent::compaction::estimate_tokens(&history) as usize,
    };
    let settings = session.settings();
    let window = state.manager.context_window(&settings.model) as usize;
    let provider = state
        .manager
        .provider()
        .map(|(s, _)| s.id.clone())
        .unwrap_or_else(|_| "auto".into());
    format!(
        "Conversation: {} messages\n  user: {}, assistant: {}, tool: {}, system: {}\nModel: {}\nProvider: {provider}\nContext usage: ~{} / {} tokens ({:.1}%)",
        history.len(),
        count(Role::User),
        count(Role::Assistant),
        count(Role::Tool),
        count(Role::System),
        settings.model,
        thousands(used as u64),
        thousands(window as u64),
        used as f64 * 100.0 / window.max(1) as f64
    ) + "\n"
        + &session.meter.spend().describe(&settings.model)
        + "\n"
        + &state.manager.compaction_lines(session, used as u64, window as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_command() {
        let text = help();
        assert!(text.starts_with("Available commands:\n\n  /help        Show available commands\n"));
        for name in [
            "compact",
            "steer",
            "queue",
            "permissions",
            "model",
            "reset",
            "undo",
            "checkpoints",
        ] {
            assert!(text.contains(&format!("  /{name} ")), "/help lists /{name}");
        }
        assert!(text.ends_with("Unrecognized /commands are sent to the model as normal messages."));
    }

    #[test]
    fn a_command_is_parsed_once_with_its_arguments() {
        fn parsed(text: &str) -> Option<(Slash, &str)> {
            parse(text).map(|p| (p.command, p.args))
        }
        assert_eq!(
            parsed("/compact keep the names "),
            Some((Slash::Compact, "keep the names"))
        );
        assert_eq!(parsed("/COMPRESS"), Some((Slash::Compact, "")));
        assert_eq!(parsed("/steer\tgo left"), Some((Slash::Steer, "go left")));
        assert_eq!(parsed("/permissions revoke 2"), Some((Slash::Permissions, "revoke 2")));
        // Not ours: the model gets it.
        assert_eq!(parsed("/usr/bin/env is a path"), None);
        assert_eq!(parsed("/ help"), None);
        assert_eq!(parsed("help"), None);
        // Every advertised name parses to its command.
        for entry in COMMANDS {
            let text = format!("/{}", entry.name);
            assert_eq!(parsed(&text), Some((entry.command, "")));
        }
    }
}
