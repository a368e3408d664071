//! The system prompt: identity (`HERMES_HOME/SOUL.md` or our built-in one — or the editor's
//! text when it asked to override it), a note about running inside a code editor, the
//! session's folders, date, model and provider, the project's context files found from each of
//! the SESSION's folders (never the process cwd — Hermes bug B5), and the editor's appended
//! instructions last. Built once per session so provider prompt caches stay warm.

use std::path::{Path, PathBuf};

use crate::runtime::PromptSection;
use crate::store::{ClientPrompt, ClientPromptMode};

/// Context files are capped so one huge file cannot eat the context window.
pub const CONTEXT_FILE_MAX_CHARS: usize = 20_000;

const DEFAULT_IDENTITY: &str = "You are Hermes Agent, an intelligent AI assistant and expert software engineer. \
You help the user with coding tasks: reading and understanding code, making precise edits, running builds and tests, \
and explaining what you did. You are direct, careful and honest about uncertainty.";

const ACP_NOTE: &str = "You are running inside a code editor through the Agent Client Protocol. \
The user sees your answer and every tool call live in the editor. File edits and risky shell commands may need the \
user's approval; if one is denied, do not retry it — explain or ask instead. Paths are relative to the working \
directory below unless absolute. Be concise: prefer short answers and show code only when it helps.";

/// What the prompt is built from.
#[derive(Debug, Clone)]
pub struct PromptInputs<'a> {
    pub hermes_home: &'a Path,
    pub cwd: &'a Path,
    /// The session's folders beside the cwd.
    pub additional: &'a [PathBuf],
    /// The editor's own instructions (ACP `systemPrompt`).
    pub client: Option<&'a ClientPrompt>,
    pub model: &'a str,
    pub provider: &'a str,
    /// Tool names available to the session.
    pub tool_names: Vec<&'a str>,
    /// The prompt sections those tools need (`Tool::prompt_section`).
    pub sections: Vec<PromptSection>,
}

/// Builds the system prompt text.
pub fn build(inputs: &PromptInputs<'_>) -> String {
    // `override` takes the place of the identity only: the operating rules below stay.
    let identity = match inputs.client {
        Some(client) if client.mode == ClientPromptMode::Override => client.text.trim().to_string(),
        _ => std::fs::read_to_string(inputs.hermes_home.join("SOUL.md"))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| DEFAULT_IDENTITY.to_string()),
    };
    let mut out = String::with_capacity(4096);
    out.push_str(&identity);
    out.push_str("\n\n");
    out.push_str(ACP_NOTE);
    if !inputs.tool_names.is_empty() {
        out.push_str("\n\nAvailable tools: ");
        out.push_str(&inputs.tool_names.join(", "));
        out.push_str(". Use read_file/search_files instead of cat/grep in the terminal, and patch for small edits.");
    }
    if inputs.sections.contains(&PromptSection::SkillsIndex)
        && let Some(index) = crate::tools::skills::prompt_index(inputs.hermes_home)
    {
        out.push_str("\n\n");
        out.push_str(&index);
    }
    let folders = std::iter::once(inputs.cwd).chain(inputs.additional.iter().map(PathBuf::as_path));
    for (path, text) in folders.flat_map(context_files) {
        out.push_str("\n\n# Project Context\n\n");
        out.push_str(&format!("## {}\n\n{}", path.display(), text));
    }
    // Memory is a snapshot taken when the session's prompt is built (kept stable for caching).
    if inputs.sections.contains(&PromptSection::MemorySnapshot)
        && let Some(memory) = crate::tools::memory::prompt_block(inputs.hermes_home)
    {
        out.push_str("\n\n");
        out.push_str(&memory);
    }
    out.push_str(&format!(
        "\n\nWorking directory: {}\nConversation started: {}\nModel: {}\nProvider: {}",
        inputs.cwd.display(),
        chrono::Local::now().format("%A, %B %d, %Y"),
        inputs.model,
        inputs.provider
    ));
    if !inputs.additional.is_empty() {
        let shown: Vec<String> = inputs.additional.iter().map(|p| p.display().to_string()).collect();
        out.push_str(&format!(
            "\nAlso project folders (name them by absolute path; they are part of the project like the working directory): {}",
            shown.join(", ")
        ));
    }
    if let Some(client) = inputs.client.filter(|c| c.mode == ClientPromptMode::Append) {
        out.push_str("\n\n# Instructions from the editor\n\n");
        out.push_str(client.text.trim());
    }
    out
}

/// The project's context files, in Hermes' priority order: `.hermes.md`/`HERMES.md` (walking
/// up to the git root), else `AGENTS.md`, else `CLAUDE.md`, else `.cursorrules` /
/// `.cursor/rules/*.mdc`. Each capped at [`CONTEXT_FILE_MAX_CHARS`].
pub fn context_files(cwd: &Path) -> Vec<(PathBuf, String)> {
    let read = |p: &Path| -> Option<(PathBuf, String)> {
        let text = std::fs::read_to_string(p).ok()?;
        let text = text.trim();
        (!text.is_empty()).then(|| (p.to_path_buf(), cap(text)))
    };
    for dir in cwd.ancestors() {
        for name in [".hermes.md", "HERMES.md"] {
            if let Some(found) = read(&dir.join(name)) {
                return vec![found];
            }
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    for names in [["AGENTS.md", "agents.md"], ["CLAUDE.md", "claude.md"]] {
        for name in names {
            if let Some(found) = read(&cwd.join(name)) {
                return vec![found];
            }
        }
    }
    if let Some(found) = read(&cwd.join(".cursorrules")) {
        return vec![found];
    }
    let mut rules: Vec<PathBuf> = std::fs::read_dir(cwd.join(".cursor").join("rules"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "mdc"))
        .collect();
    rules.sort();
    rules.iter().filter_map(|p| read(p)).collect()
}

fn cap(text: &str) -> String {
    crate::text::cap_with(text, CONTEXT_FILE_MAX_CHARS, CONTEXT_FILE_MAX_CHARS, |_| {
        format!("\n\n[truncated to {CONTEXT_FILE_MAX_CHARS} characters]")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_comes_from_the_session_cwd_in_priority_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        let sub = root.join("crate");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("CLAUDE.md"), "claude rules").unwrap();
        assert_eq!(context_files(&sub)[0].1, "claude rules");
        std::fs::write(sub.join("AGENTS.md"), "agent rules").unwrap();
        assert_eq!(context_files(&sub)[0].1, "agent rules");
        std::fs::write(root.join("HERMES.md"), "hermes rules").unwrap();
        assert_eq!(context_files(&sub)[0].1, "hermes rules");
        let prompt = build(&PromptInputs {
            hermes_home: root,
            cwd: &sub,
            additional: &[],
            client: None,
            model: "m1",
            provider: "custom",
            tool_names: vec!["read_file"],
            sections: vec![],
        });
        assert!(prompt.contains("hermes rules"));
        assert!(prompt.contains(&format!("Working directory: {}", sub.display())));
        assert!(prompt.contains("Model: m1"));
    }

    #[test]
    fn soul_md_replaces_the_identity() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SOUL.md"), "You are Pirate Hermes.").unwrap();
        let prompt = build(&PromptInputs {
            hermes_home: dir.path(),
            cwd: dir.path(),
            additional: &[],
            client: None,
            model: "m",
            provider: "p",
            tool_names: vec![],
            sections: vec![],
        });
        assert!(prompt.starts_with("You are Pirate Hermes."));
    }

    #[test]
    fn the_editor_appends_or_replaces_the_identity_and_every_folder_brings_its_context() {
        let (app, lib) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::write(lib.path().join("AGENTS.md"), "lib rules").unwrap();
        let additional = [lib.path().to_path_buf()];
        let client = |mode, text: &str| ClientPrompt {
            mode,
            text: text.into(),
        };
        let appended = client(ClientPromptMode::Append, "Answer in French.");
        let inputs = PromptInputs {
            hermes_home: app.path(),
            cwd: app.path(),
            additional: &additional,
            client: Some(&appended),
            model: "m",
            provider: "p",
            tool_names: vec!["read_file"],
            sections: vec![],
        };
        let prompt = build(&inputs);
        assert!(
            prompt.starts_with(DEFAULT_IDENTITY) && prompt.ends_with("Answer in French."),
            "{prompt}"
        );
        assert!(prompt.contains("lib rules") && prompt.contains(&lib.path().display().to_string()));
        let replaced = client(ClientPromptMode::Override, "You are a terse reviewer.");
        let prompt = build(&PromptInputs {
            client: Some(&replaced),
            ..inputs
        });
        assert!(prompt.starts_with("You are a terse reviewer.") && !prompt.contains(DEFAULT_IDENTITY));
        // The operating rules and the tools stay.
        assert!(prompt.contains(ACP_NOTE) && prompt.contains("Available tools: read_file"));
    }
}
