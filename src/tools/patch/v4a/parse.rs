//! Parsing V4A patches (Hermes' `patch_parser.py`, the codex/cline format):
//!
//! ```text
//! *** Begin Patch
//! *** Update File: path/to/file.py
//! *** Move to: path/to/renamed.py        (optional: update and rename, codex style)
//! @@ optional context hint @@
//!  context line
//! -removed line
//! +added line
//! *** Add File: path/to/new.py
//! +new file content
//! *** Delete File: path/to/old.py
//! *** Move File: old/path.py -> new/path.py
//! *** End Patch
//! ```
//!
//! Like Hermes: `***` may lack the following space, lines without a prefix are context, `\`
//! lines are skipped. Beyond Hermes: `*** Move to:` and `*** End of File` are understood, an
//! `@@ hint` without closing `@@` still gives a hint, and empty lines between hunk lines are kept
//! as blank context (marked, so the applier can retry without them as Hermes would).

use std::sync::LazyLock;

use regex::Regex;

static UPDATE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\*\*\*\s*Update\s+File:\s*(.+)").unwrap());
static ADD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\*\*\*\s*Add\s+File:\s*(.+)").unwrap());
static DELETE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\*\*\*\s*Delete\s+File:\s*(.+)").unwrap());
static MOVE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\*\*\*\s*Move\s+File:\s*(.+?)\s*->\s*(.+)").unwrap());
static MOVE_TO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\*\*\*\s*Move\s+to:\s*(.+)").unwrap());

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    Add,
    Update,
    Delete,
    Move,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HunkLine {
    /// `' '`, `'-'` or `'+'`.
    pub prefix: char,
    pub text: String,
    /// An empty patch line taken as blank context (Hermes dropped those).
    pub implicit_blank: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hunk {
    pub hint: Option<String>,
    pub lines: Vec<HunkLine>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub kind: OpKind,
    pub path: String,
    /// Move destination (`Move File: a -> b`, or `Move to:` after an update).
    pub new_path: Option<String>,
    pub hunks: Vec<Hunk>,
}

/// Every path a patch names in its headers (update/add/delete targets, both ends of a move),
/// found anywhere in the text: what the guards must check before anything else happens.
pub fn header_paths(patch: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for line in patch.lines() {
        if let Some(c) = UPDATE
            .captures(line)
            .or_else(|| ADD.captures(line))
            .or_else(|| DELETE.captures(line))
        {
            paths.push(c[1].trim().to_string());
        } else if let Some(c) = MOVE.captures(line) {
            paths.push(c[1].trim().to_string());
            paths.push(c[2].trim().to_string());
        } else if let Some(c) = MOVE_TO.captures(line) {
            paths.push(c[1].trim().to_string());
        }
    }
    paths.retain(|p| !p.is_empty());
    paths
}

/// Parses a patch into operations; errors read `Parse error: ...` like Hermes.
pub fn parse(patch: &str) -> Result<Vec<Operation>, String> {
    let lines: Vec<&str> = patch.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    // The last Begin before the first End opens the body; no Begin means the whole text.
    let mut start = None;
    let mut end = lines.len();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("*** Begin Patch") || line.contains("***Begin Patch") {
            start = Some(i);
        } else if line.contains("*** End Patch") || line.contains("***End Patch") {
            end = i;
            break;
        }
    }
    let mut parser = Parser::default();
    for line in &lines[start.map_or(0, |s| s + 1)..end] {
        parser.line(line);
    }
    let operations = parser.finish();

    let mut errors = Vec::new();
    for op in &operations {
        if op.path.is_empty() {
            errors.push("Operation with empty file path".to_string());
        }
        if op.kind == OpKind::Update && op.hunks.is_empty() && op.new_path.is_none() {
            errors.push(format!("UPDATE '{}': no hunks found", op.path));
        }
        if op.kind == OpKind::Move && op.new_path.as_deref().is_none_or(str::is_empty) {
            errors.push(format!(
                "MOVE '{}': missing destination path (expected 'src -> dst')",
                op.path
            ));
        }
    }
    if errors.is_empty() {
        Ok(operations)
    } else {
        Err(format!("Parse error: {}", errors.join("; ")))
    }
}

#[derive(Default)]
struct Parser {
    operations: Vec<Operation>,
    current: Option<Operation>,
    hunk: Option<Hunk>,
    /// Empty lines seen in the current hunk, kept only if more hunk lines follow.
    pending_blanks: usize,
}

impl Parser {
    fn line(&mut self, line: &str) {
        if let Some(c) = UPDATE.captures(line) {
            self.start(OpKind::Update, c[1].trim(), None, false);
        } else if let Some(c) = ADD.captures(line) {
            self.start(OpKind::Add, c[1].trim(), None, false);
        } else if let Some(c) = DELETE.captures(line) {
            self.start(OpKind::Delete, c[1].trim(), None, true);
        } else if let Some(c) = MOVE.captures(line) {
            self.start(OpKind::Move, c[1].trim(), Some(c[2].trim()), true);
        } else if let Some(c) = MOVE_TO.captures(line) {
            if let Some(op) = self.current.as_mut().filter(|op| op.kind == OpKind::Update) {
                op.new_path = Some(c[1].trim().to_string());
            }
        } else if line.starts_with("*** End of File") {
            // Codex's end-of-file marker carries no content.
        } else if line.starts_with("@@") {
            if self.current.is_some() {
                self.close_hunk();
                self.hunk = Some(Hunk {
                    hint: hint_of(line),
                    lines: Vec::new(),
                });
            }
        } else if self.current.is_some() {
            self.hunk_line(line);
        }
    }

    fn hunk_line(&mut self, line: &str) {
        if line.is_empty() {
            self.pending_blanks += 1;
            return;
        }
        if line.starts_with('\\') {
            // "\ No newline at end of file".
            return;
        }
        let hunk = self.hunk.get_or_insert_with(Hunk::default);
        // Only blanks between hunk lines are context; leading ones are layout.
        let blanks = std::mem::take(&mut self.pending_blanks);
        if !hunk.lines.is_empty() {
            for _ in 0..blanks {
                hunk.lines.push(HunkLine {
                    prefix: ' ',
                    text: String::new(),
                    implicit_blank: true,
                });
            }
        }
        let (prefix, text) = match line.chars().next() {
            Some(c @ ('+' | '-' | ' ')) => (c, &line[1..]),
            _ => (' ', line),
        };
        hunk.lines.push(HunkLine {
            prefix,
            text: text.to_string(),
            implicit_blank: false,
        });
    }

    fn start(&mut self, kind: OpKind, path: &str, new_path: Option<&str>, complete: bool) {
        self.close_op();
        let op = Operation {
            kind,
            path: path.to_string(),
            new_path: new_path.map(str::to_string),
            hunks: Vec::new(),
        };
        if complete {
            self.operations.push(op);
        } else {
            self.current = Some(op);
        }
    }

    fn close_hunk(&mut self) {
        self.pending_blanks = 0;
        if let (Some(op), Some(hunk)) = (self.current.as_mut(), self.hunk.take())
            && !hunk.lines.is_empty()
        {
            op.hunks.push(hunk);
        }
    }

    fn close_op(&mut self) {
        self.close_hunk();
        if let Some(op) = self.current.take() {
            self.operations.push(op);
        }
    }

    fn finish(mut self) -> Vec<Operation> {
        self.close_op();
        self.operations
    }
}

/// `@@ hint @@` or `@@ hint` → `hint`; a bare `@@` has none.
fn hint_of(line: &str) -> Option<String> {
    let inner = line.trim_start_matches('@').trim();
    let inner = inner.strip_suffix("@@").unwrap_or(inner).trim();
    (!inner.is_empty()).then(|| inner.to_string())
}
