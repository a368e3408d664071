//! How a tool describes itself to the layers above, in our own types (only `acp/` knows ACP):
//! its card (`Presentation`: kind, title, locations, start text), a readable summary of its
//! result, a plan for the editor, a one-line note for pruned history, its `ToolEffect` for the
//! read-only gate, and the system-prompt sections it needs. The generic defaults here are what
//! a tool without its own knowledge (an MCP tool, a call to a tool no longer registered) gets.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::safety::policy::Mode;

/// The kind of a card; `acp/render.rs` maps it to the ACP `ToolKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolKind {
    Read,
    Edit,
    Delete,
    Search,
    Execute,
    Fetch,
    /// Changes the session's mode (leaving plan mode).
    SwitchMode,
    #[default]
    Other,
}

/// A place the editor can follow along: a file, with a line when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub line: Option<u32>,
}

/// What the editor shows when a call starts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Presentation {
    pub kind: ToolKind,
    pub title: String,
    pub locations: Vec<Location>,
    /// Text shown while the call is pending/running (capped by the renderer).
    pub start_text: Option<String>,
}

/// What a call does to the world, computed from its arguments (the mode gate asks this).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolEffect {
    /// Reads only.
    ReadOnly,
    /// Writes, patches, adds or deletes files.
    EditsFiles,
    /// Runs a shell command: the permission gate decides, with the command's own analysis.
    RunsCommand,
    /// Kills, writes to or closes a running process.
    ControlsProcess,
    /// Changes the agent's persistent memory.
    WritesMemory,
    /// Creates, changes or deletes the agent's skills (`HERMES_HOME/skills/`).
    WritesSkills,
    /// Acts through another program whose effect we cannot know (MCP servers); `read_only` is
    /// what the server claims (its `readOnlyHint`), which we cannot check.
    External { read_only: bool },
}

impl ToolEffect {
    /// Why a call with this effect is refused in `mode`, if it is, before it runs. In
    /// `read_only` and `plan` nothing may change (read-only mode refuses every MCP tool, since
    /// a server's hints are claims we cannot check; plan mode lets those that claim to be
    /// read-only run, because planning needs lookups); in `observe` no command runs. Commands
    /// are otherwise left to the terminal's permission gate (the policy allows read-only
    /// commands there).
    pub fn refusal(&self, mode: Mode) -> Option<String> {
        if !mode.runs_commands() {
            let what = match self {
                ToolEffect::RunsCommand => "commands do not run",
                ToolEffect::ControlsProcess => "process control is disabled",
                _ => return None,
            };
            return Some(format!("{} mode: {what}. {}", mode.name(), mode.refusal_note()));
        }
        let what = match self {
            ToolEffect::ReadOnly | ToolEffect::RunsCommand => return None,
            ToolEffect::External { read_only: true } if mode == Mode::Plan => return None,
            ToolEffect::EditsFiles => "file edits are disabled",
            ToolEffect::ControlsProcess => "process control is disabled",
            ToolEffect::WritesMemory => "memory is not modified",
            ToolEffect::WritesSkills => "skills are not modified",
            ToolEffect::External { .. } => "external tools are disabled",
        };
        mode.change_refusal(what)
    }
}

/// A system-prompt section a tool needs when it is available.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptSection {
    /// The index of installed skills (for a tool that opens them).
    SkillsIndex,
    /// The memory snapshot (for a tool that edits it).
    MemorySnapshot,
}

/// One entry of a plan a tool's result carries (the todo list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanItem {
    pub content: String,
    pub status: PlanStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanStatus {
    Pending,
    InProgress,
    Completed,
}

/// A non-empty string argument.
pub fn arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The card of a tool without its own knowledge: the name as title, the `path` argument (when
/// there is one) as location, the arguments as start text.
pub fn generic_presentation(name: &str, args: &Value, cwd: &Path) -> Presentation {
    Presentation {
        kind: ToolKind::Other,
        title: name.to_string(),
        locations: path_location(args, cwd, None).into_iter().collect(),
        start_text: pretty_args(args),
    }
}

/// The arguments as pretty JSON, when there are any.
pub fn pretty_args(args: &Value) -> Option<String> {
    match args.as_object() {
        Some(map) if !map.is_empty() => serde_json::to_string_pretty(args).ok(),
        _ => None,
    }
}

/// The `path` argument resolved against the session cwd, as a location.
pub fn path_location(args: &Value, cwd: &Path, line: Option<u32>) -> Option<Location> {
    arg(args, "path").map(|p| Location {
        path: super::workspace::resolve_against(cwd, p),
        line,
    })
}

/// A readable summary of a JSON result for a tool without its own: every field, capped.
pub fn generic_summary(name: &str, v: &Value) -> String {
    let Some(obj) = v.as_object() else {
        return cap(&v.to_string(), 1_500);
    };
    let mut out = if obj.get("success").and_then(Value::as_bool) == Some(true) {
        format!("✅ {name} completed")
    } else {
        format!("{name} result")
    };
    for (key, value) in obj.iter().take(40) {
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push_str(&format!("\n- **{key}:** {}", cap(&text, 500)));
    }
    out
}

/// What a call did in a few words, for a tool without its own: its first string argument.
pub fn generic_brief(args: &Value) -> Option<String> {
    args.as_object()?
        .iter()
        .find_map(|(k, v)| v.as_str().map(|s| format!("{k}={}", clip(s, 60))))
}

/// Calls `f` with every path-like argument (`path`, `file_path`, `workdir`, `cwd`) anywhere in
/// a call's arguments, for any tool (the files a conversation touched).
pub fn collect_paths(value: &Value, f: &mut dyn FnMut(&str)) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("path" | "file_path" | "workdir" | "cwd", Value::String(s)) if !s.trim().is_empty() => f(s),
                    _ => collect_paths(v, f),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_paths(v, f)),
        _ => {}
    }
}

/// How a card title names a path: relative to the session folder when it is inside it (the
/// folder itself is `.`), else absolute. Locations carry the absolute path; titles stay short.
pub fn shown_path(raw: &str, cwd: &Path) -> String {
    let path = super::workspace::resolve_against(cwd, raw);
    match path.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// The first non-empty line of `text`, trimmed and clipped to `max` characters; an ellipsis
/// says that more lines (or characters) follow. For card titles, which every client shows on
/// one line.
pub fn first_line(text: &str, max: usize) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default();
    let clipped = crate::text::clip(first, max);
    if lines.next().is_some() && !clipped.ends_with('…') {
        format!("{clipped} …")
    } else {
        clipped
    }
}

/// `text` as a Markdown code span that survives backticks inside it (the fence is one backtick
/// longer than the longest run inside, padded when the text starts or ends with one). Zed
/// renders it as code; CodeCompanion takes a title that opens with a code span as the command.
pub fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// An argument on one line (trimmed, newlines as spaces), clipped to `max` characters.
pub fn clip(s: &str, max: usize) -> String {
    crate::text::clip(&s.trim().replace('\n', " "), max)
}

/// Caps text for UI safety with a "(N chars total, truncated)" marker.
pub fn cap(text: &str, max: usize) -> String {
    crate::text::cap_with(text, max, max.saturating_sub(100), |total| {
        format!("\n... ({total} chars total, truncated)")
    })
}

/// `text` cut to `keep` characters plus "..." when longer than `limit`.
pub fn shorten(text: &str, limit: usize, keep: usize) -> String {
    if text.chars().count() > limit {
        format!("{}...", text.chars().take(keep).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Whitespace runs collapsed to one space, then shortened to `max`.
pub fn collapse(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    shorten(&collapsed, max, max.saturating_sub(3))
}

/// Wraps text in a backtick fence longer than any backtick run inside it.
pub fn fence(body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    format!("{ticks}\n{body}\n{ticks}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generic_descriptions() {
        let p = generic_presentation("mcp_x_y", &json!({"path": "a.txt"}), Path::new("/w"));
        assert_eq!((p.kind, p.title.as_str()), (ToolKind::Other, "mcp_x_y"));
        assert_eq!(p.locations[0].path, PathBuf::from("/w/a.txt"));
        assert!(
            generic_brief(&json!({"url": "https://e.x"}))
                .unwrap()
                .contains("url=https://e.x")
        );
        assert_eq!(ToolEffect::ReadOnly.refusal(Mode::ReadOnly), None);
        assert!(
            (ToolEffect::External { read_only: true })
                .refusal(Mode::ReadOnly)
                .unwrap()
                .contains("external tools")
        );
        // Plan mode trusts a server's read-only claim; observe refuses only what runs commands.
        assert_eq!((ToolEffect::External { read_only: true }).refusal(Mode::Plan), None);
        assert!(
            (ToolEffect::External { read_only: false })
                .refusal(Mode::Plan)
                .is_some()
        );
        assert!(
            ToolEffect::EditsFiles
                .refusal(Mode::Plan)
                .unwrap()
                .starts_with("Plan mode")
        );
        assert_eq!(ToolEffect::EditsFiles.refusal(Mode::Observe), None);
        assert!(ToolEffect::RunsCommand.refusal(Mode::Observe).is_some());
        for mode in [Mode::Default, Mode::AcceptEdits, Mode::DontAsk, Mode::Yolo] {
            assert_eq!(ToolEffect::WritesMemory.refusal(mode), None);
        }
        assert!(cap(&"a".repeat(6000), 5_000).ends_with("(6000 chars total, truncated)"));
        assert_eq!(fence("a ``` b"), "````\na ``` b\n````");
    }

    #[test]
    fn title_pieces() {
        let cwd = Path::new("/w");
        assert_eq!(shown_path("src/a.rs", cwd), "src/a.rs");
        assert_eq!(shown_path("/w/src/a.rs", cwd), "src/a.rs");
        assert_eq!(shown_path("/w", cwd), ".");
        assert_eq!(shown_path("../x", cwd), "/x");
        assert_eq!(shown_path("/etc/hosts", cwd), "/etc/hosts");
        assert_eq!(first_line("  ls -la  ", 80), "ls -la");
        assert_eq!(first_line("cd a &&\nmake", 80), "cd a && …");
        assert_eq!(first_line(&"x".repeat(100), 10), format!("{}…", "x".repeat(9)));
        assert_eq!(code_span("rm -rf build"), "`rm -rf build`");
        assert_eq!(code_span("echo `date`"), "`` echo `date` ``");
        assert_eq!(code_span("a``b"), "```a``b```");
    }
}
