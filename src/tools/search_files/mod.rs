//! The `search_files` tool: regex content search (`output_mode` content / files_only / count)
//! and file-name search (glob, newest first), done in-process with ripgrep's libraries
//! (`ignore` walker, `grep-searcher`, `grep-regex`) — no `rg` binary. Respects .gitignore
//! (inside git repos, as rg does), .ignore/.rgignore, skips hidden files. Result JSON follows
//! Hermes' `SearchResult.to_dict(densify=True)` (spec §5.5), including the dense
//! `matches_format`/`matches_text` form for ≥5 matches and the trailing truncation hint.
//! Without a `path` it searches the whole project: the session cwd and the editor's additional
//! folders (results there shown with absolute paths).

mod content;
mod names;
mod present;
#[cfg(test)]
mod tests;
mod walk;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::runtime::file_io::read_guards as guards;
use crate::runtime::{Presentation, ToolEffect, args};
use crate::runtime::{Tool, ToolContext, ToolDisplay, ToolOutput};

const DESCRIPTION: &str = "Search file contents or find files by name. Use this instead of \
grep/rg/find/ls in terminal. Ripgrep-backed, faster than shell equivalents.\n\nContent search \
(target='content'): Regex search inside files. Output modes: full matches with line numbers, file \
paths only, or match counts.\n\nFile search (target='files'): Find files by glob pattern (e.g., \
'*.py', '*config*'). Also use this instead of ls — results sorted by modification time.";

/// Hermes' rg timeout: a search that runs longer returns what it found, marked partial.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);
/// Upper bound on `context` so a huge value cannot make the searcher buffer whole files.
const MAX_CONTEXT: usize = 100;
/// Each match line's content is cut to this many characters.
const MAX_MATCH_CHARS: usize = 500;
/// From this many matches on, the result is densified into `matches_text`.
const DENSIFY_MIN_MATCHES: usize = 5;

/// Registered as `search_files`.
pub struct SearchFilesTool;

impl Tool for SearchFilesTool {
    fn name(&self) -> &'static str {
        "search_files"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search"},
                "target": {"type": "string", "enum": ["content", "files"], "description": "'content' searches inside file contents, 'files' searches for files by name", "default": "content"},
                "path": {"type": "string", "description": "Directory or file to search in (default: current working directory, plus any additional project folders)", "default": "."},
                "file_glob": {"type": "string", "description": "Filter files by pattern in grep mode (e.g., '*.py' to only search Python files)"},
                "limit": {"type": "integer", "description": "Maximum number of results to return (default: 50)", "default": 50},
                "offset": {"type": "integer", "description": "Skip first N results for pagination (default: 0)", "default": 0},
                "output_mode": {"type": "string", "enum": ["content", "files_only", "count"], "description": "Output format for grep mode: 'content' shows matching lines with line numbers, 'files_only' lists file paths, 'count' shows match counts per file", "default": "content"},
                "context": {"type": "integer", "description": "Number of context lines before and after each match (grep mode only)", "default": 0}
            },
            "required": ["pattern"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        present::present(args, cwd)
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        present::summarise(result)
    }

    fn brief(&self, args: &Value) -> Option<String> {
        present::brief(args)
    }
}

/// Content-search output shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputMode {
    Content,
    FilesOnly,
    Count,
}

/// A validated call.
#[derive(Debug, Clone)]
pub(crate) struct SearchParams {
    pub pattern: String,
    /// true for `target: files` (alias `find`).
    pub names: bool,
    /// The path as the model typed it (shown in errors).
    pub raw_path: String,
    pub root: PathBuf,
    /// More folders walked with `root`: the session's other folders when the model named no
    /// path (a search of the whole project); none of them lies inside another.
    pub also: Vec<PathBuf>,
    /// Results are shown relative to this directory (the session cwd) when set.
    pub display_base: Option<PathBuf>,
    /// The session cwd (also given to the walker instead of the process cwd).
    pub cwd: PathBuf,
    pub file_glob: Option<String>,
    pub limit: usize,
    pub offset: usize,
    pub mode: OutputMode,
    pub context: usize,
    pub deadline: Instant,
    /// The configured `HERMES_HOME`, whose credentials the read denylist hides.
    pub hermes_home: Option<PathBuf>,
    /// git's `GIT_CEILING_DIRECTORIES`: no repository is looked for above these (see
    /// `walk::walker`).
    pub git_ceilings: Vec<PathBuf>,
}

/// One line of content output.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub path: String,
    pub line: u64,
    pub content: String,
}

/// What a search found (one page of it), plus totals.
#[derive(Debug, Default)]
pub(crate) struct SearchOutcome {
    pub matches: Vec<Entry>,
    pub files: Vec<String>,
    pub counts: Vec<(String, u64)>,
    pub total_count: u64,
    pub truncated: bool,
    pub warning: Option<String>,
    pub error: Option<String>,
    /// Results dropped because they sit in credential / secret files.
    pub omitted: u64,
}

impl SearchOutcome {
    pub(crate) fn error(message: String) -> SearchOutcome {
        SearchOutcome {
            error: Some(message),
            ..SearchOutcome::default()
        }
    }

    fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("total_count".into(), self.total_count.into());
        if self.matches.len() >= DENSIFY_MIN_MATCHES {
            map.insert(
                "matches_format".into(),
                "path-grouped: each file path on its own line, followed by indented \
                 '<line>: <content>' rows for matches in that file"
                    .into(),
            );
            map.insert("matches_text".into(), densify(&self.matches).into());
        } else if !self.matches.is_empty() {
            let rows = self
                .matches
                .iter()
                .map(|m| json!({"path": m.path, "line": m.line, "content": m.content}))
                .collect::<Vec<_>>();
            map.insert("matches".into(), rows.into());
        }
        if !self.files.is_empty() {
            map.insert("files".into(), self.files.clone().into());
        }
        if !self.counts.is_empty() {
            let counts: Map<String, Value> = self.counts.iter().map(|(p, n)| (p.clone(), Value::from(*n))).collect();
            map.insert("counts".into(), counts.into());
        }
        if self.truncated {
            map.insert("truncated".into(), true.into());
        }
        if let Some(warning) = &self.warning {
            map.insert("warning".into(), warning.clone().into());
        }
        if let Some(error) = &self.error {
            map.insert("error".into(), error.clone().into());
        }
        if self.omitted > 0 {
            map.insert(
                "_omitted".into(),
                format!(
                    "{} result(s) omitted because they target credential, token, cache, or \
                     secret-bearing environment files.",
                    self.omitted
                )
                .into(),
            );
        }
        Value::Object(map)
    }
}

/// Path once, then `  <line>: <content>` rows (entries of one file are contiguous).
fn densify(matches: &[Entry]) -> String {
    let mut out = String::new();
    let mut current: Option<&str> = None;
    for m in matches {
        if current != Some(m.path.as_str()) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&m.path);
            current = Some(m.path.as_str());
        }
        out.push_str(&format!("\n  {}: {}", m.line, m.content.trim_end()));
    }
    out
}

async fn run(ctx: &ToolContext, args: Value) -> ToolOutput {
    let pattern = match args.get("pattern") {
        Some(Value::String(s)) => s.clone(),
        _ => return ToolOutput::error("search_files: missing required field 'pattern'"),
    };
    let names = matches!(args.get("target").and_then(Value::as_str), Some("files" | "find"));
    let (raw_path, whole_project) = match args.get("path") {
        Some(Value::String(s)) if !s.trim().is_empty() => (s.clone(), false),
        _ => (".".to_string(), true),
    };
    let mut roots = vec![ctx.session.workspace.resolve(&raw_path)];
    if whole_project {
        roots.extend(ctx.session.workspace.additional());
    }
    let mut roots = outermost(roots).into_iter();
    let root = roots.next().unwrap_or_else(|| ctx.session.workspace.root());
    let also: Vec<PathBuf> = roots.collect();
    let cwd = ctx.session.workspace.root();
    let typed_absolute = raw_path.trim().starts_with('/') || raw_path.trim().starts_with('~');
    let display_base = (!typed_absolute && root.starts_with(&cwd)).then(|| cwd.clone());
    let params = SearchParams {
        pattern,
        names,
        raw_path,
        root,
        also,
        display_base,
        cwd,
        file_glob: args
            .get("file_glob")
            .and_then(Value::as_str)
            .filter(|g| !g.trim().is_empty())
            .map(str::to_string),
        limit: args::int_or(&args, "limit", 50).max(1) as usize,
        offset: args::int_or(&args, "offset", 0).max(0) as usize,
        mode: match args.get("output_mode").and_then(Value::as_str) {
            Some("files_only") => OutputMode::FilesOnly,
            Some("count") => OutputMode::Count,
            _ => OutputMode::Content,
        },
        context: args::int_or(&args, "context", 0).clamp(0, MAX_CONTEXT as i64) as usize,
        deadline: Instant::now() + SEARCH_TIMEOUT,
        hermes_home: ctx.services.hermes_home.clone(),
        git_ceilings: walk::git_ceilings_from_env(),
    };
    let (offset, limit) = (params.offset, params.limit);

    let cancel = ctx.cancel.clone();
    let worker_cancel = cancel.clone();
    let task = tokio::task::spawn_blocking(move || execute(&params, &worker_cancel));
    let outcome = tokio::select! {
        joined = task => match joined {
            Ok(Some(Ok(outcome))) => outcome,
            Ok(Some(Err(message))) => return ToolOutput::error(message),
            Ok(None) => return ToolOutput::error("search_files cancelled"),
            Err(e) => return ToolOutput::error(format!("Tool execution failed: {e}")),
        },
        // The walker sees the same token and stops on its own; do not wait for it.
        _ = cancel.cancelled() => return ToolOutput::error("search_files cancelled"),
    };

    let mut content = outcome.to_json().to_string();
    if outcome.truncated {
        content.push_str(&format!(
            "\n\n[Hint: Results truncated. Use offset={} to see more, or narrow with a more \
             specific pattern or file_glob.]",
            offset + limit
        ));
    }
    ToolOutput {
        content,
        is_error: outcome.error.is_some(),
        display: ToolDisplay::None,
        images: Vec::new(),
    }
}

/// The folders to walk so that each file is walked once: duplicates and folders inside another
/// one of the list dropped, the order kept.
fn outermost(roots: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut kept: Vec<PathBuf> = Vec::new();
    for root in roots {
        if kept.iter().any(|k| root.starts_with(k)) {
            continue;
        }
        kept.retain(|k| !k.starts_with(&root));
        kept.push(root);
    }
    kept
}

/// Runs one search on the blocking pool. `None` when cancelled; `Some(Err(message))` when the
/// search root itself is refused (Hermes answers that with a bare `{"error": …}`).
pub(crate) fn execute(params: &SearchParams, cancel: &CancellationToken) -> Option<Result<SearchOutcome, String>> {
    for root in std::iter::once(&params.root).chain(&params.also) {
        if let Some(message) = guards::read_block_error(&root.to_string_lossy(), root, params.hermes_home.as_deref()) {
            return Some(Err(message));
        }
    }
    if !params.root.exists() {
        return Some(Ok(walk::path_not_found(&params.raw_path, &params.cwd)));
    }
    let outcome = if params.names {
        names::search(params, cancel)
    } else {
        content::search(params, cancel)
    };
    (!cancel.is_cancelled()).then_some(Ok(outcome))
}
