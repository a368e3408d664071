//! Applying parsed V4A operations in memory: every hunk of every file is matched against a
//! virtual copy of the files (so later operations see earlier ones), and the result is either
//! the complete list of file edits or every validation error. Nothing here touches the disk;
//! the tool writes the plan only once all of it is valid (all-or-nothing).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::parse::{Hunk, OpKind, Operation};
use crate::runtime::file_io::{preserve_conventions, strip_bom, unified_diff};
use crate::runtime::fuzzy::{self, NO_MATCH};

/// Bytes before / after a context hint searched when a hunk does not match the whole file.
const HINT_WINDOW_BEFORE: usize = 500;
const HINT_WINDOW_AFTER: usize = 2000;

/// One file's change, ready for approval and writing.
#[derive(Debug, Clone, PartialEq)]
pub struct FileEdit {
    pub path: PathBuf,
    /// The file as read (BOM included), `None` when it did not exist.
    pub before_raw: Option<String>,
    /// What to write (conventions applied), `None` to delete.
    pub after_raw: Option<String>,
    /// Texts for diffs and the editor (BOM stripped).
    pub before: Option<String>,
    pub after: Option<String>,
    /// For a move destination: the source, whose permission bits the new file takes.
    pub mode_from: Option<PathBuf>,
}

/// The whole patch, validated.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub edits: Vec<FileEdit>,
    pub diff: String,
    /// Every path the patch touches, in order.
    pub touched: Vec<PathBuf>,
    pub created: Vec<PathBuf>,
    pub deleted: Vec<PathBuf>,
}

/// Files as read before planning: resolved path → content (raw), `None` if missing.
pub type Snapshot = HashMap<PathBuf, Result<Option<String>, String>>;

/// Applies `ops` to `snapshot` in memory. `resolve` maps a patch path to the file.
pub fn plan(ops: &[Operation], snapshot: &Snapshot, resolve: &dyn Fn(&str) -> PathBuf) -> Result<Plan, Vec<String>> {
    let mut state = State {
        snapshot,
        files: HashMap::new(),
        templates: HashMap::new(),
        modes: HashMap::new(),
    };
    let mut plan = Plan::default();
    let mut diffs = Vec::new();
    let mut errors = Vec::new();
    let mut real_changes = 0;

    for op in ops {
        let path = resolve(&op.path);
        touch(&mut plan.touched, &path);
        match op.kind {
            OpKind::Update => {
                let current = match state.current(&path) {
                    Ok(Some(text)) => text,
                    Ok(None) => {
                        errors.push(format!("{}: File not found: {}", op.path, path.display()));
                        continue;
                    }
                    Err(e) => {
                        errors.push(format!("{}: {e}", op.path));
                        continue;
                    }
                };
                let (updated, changes) = match apply_hunks(&op.path, &current, &op.hunks) {
                    Ok(done) => done,
                    Err(mut hunk_errors) => {
                        errors.append(&mut hunk_errors);
                        continue;
                    }
                };
                real_changes += changes;
                match op.new_path.as_deref() {
                    Some(dest_raw) => {
                        let dest = resolve(dest_raw);
                        touch(&mut plan.touched, &dest);
                        if let Err(e) = state.check_free(dest_raw, &dest) {
                            errors.push(e);
                            continue;
                        }
                        real_changes += 1;
                        diffs.push(unified_diff(
                            &current,
                            &updated,
                            &format!("a/{}", op.path),
                            &format!("b/{dest_raw}"),
                        ));
                        state.relocate(&path, &dest, Some(updated));
                    }
                    None => {
                        diffs.push(unified_diff(
                            &current,
                            &updated,
                            &format!("a/{}", op.path),
                            &format!("b/{}", op.path),
                        ));
                        state.files.insert(path, Some(updated));
                    }
                }
            }
            OpKind::Add => {
                real_changes += 1;
                let lines: Vec<&str> = op
                    .hunks
                    .iter()
                    .flat_map(|h| &h.lines)
                    .filter(|l| l.prefix == '+')
                    .map(|l| l.text.as_str())
                    .collect();
                // Each added line ends with a newline, as in the codex format.
                let content: String = lines.iter().map(|l| format!("{l}\n")).collect();
                diffs.push(unified_diff("", &content, "/dev/null", &format!("b/{}", op.path)));
                state.files.insert(path.clone(), Some(content));
                touch(&mut plan.created, &path);
            }
            OpKind::Delete => {
                real_changes += 1;
                match state.current(&path) {
                    Ok(Some(text)) => {
                        let diff = unified_diff(&text, "", &format!("a/{}", op.path), "/dev/null");
                        diffs.push(if diff.is_empty() {
                            format!("# Deleted: {}", op.path)
                        } else {
                            diff
                        });
                        state.files.insert(path.clone(), None);
                        touch(&mut plan.deleted, &path);
                    }
                    _ => errors.push(format!("{}: file not found for deletion", op.path)),
                }
            }
            OpKind::Move => {
                real_changes += 1;
                let dest_raw = op.new_path.as_deref().unwrap_or_default();
                let dest = resolve(dest_raw);
                touch(&mut plan.touched, &dest);
                let source = state.current(&path).ok().flatten();
                if source.is_none() {
                    errors.push(format!("{}: source file not found for move", op.path));
                }
                let free = state.check_free(dest_raw, &dest);
                if let Err(e) = &free {
                    errors.push(e.clone());
                }
                if let (Some(text), Ok(())) = (source, free) {
                    diffs.push(format!("# Moved: {} -> {dest_raw}", op.path));
                    state.relocate(&path, &dest, Some(text));
                }
            }
        }
    }
    if errors.is_empty() && real_changes == 0 {
        errors.push("Patch contains no changes (only context lines were provided)".to_string());
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    plan.diff = diffs
        .into_iter()
        .filter(|d| !d.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    for path in &plan.touched {
        let before_raw = snapshot.get(path).and_then(|r| r.clone().ok()).flatten();
        let before = before_raw.as_deref().map(|raw| strip_bom(raw).0.to_string());
        let after = state.files.get(path).cloned().unwrap_or_else(|| before.clone());
        if after == before {
            continue;
        }
        let template = state.templates.get(path).cloned().unwrap_or_else(|| before_raw.clone());
        let after_raw = after
            .as_deref()
            .map(|text| preserve_conventions(template.as_deref(), text));
        let mode_from = state.modes.get(path).cloned();
        plan.edits.push(FileEdit {
            path: path.clone(),
            before_raw,
            after_raw,
            before,
            after,
            mode_from,
        });
    }
    Ok(plan)
}

struct State<'a> {
    snapshot: &'a Snapshot,
    /// Current virtual text (BOM stripped) of every path written so far.
    files: HashMap<PathBuf, Option<String>>,
    /// Whose raw text decides line endings and BOM for a path (a move carries its source's).
    templates: HashMap<PathBuf, Option<String>>,
    modes: HashMap<PathBuf, PathBuf>,
}

impl State<'_> {
    fn current(&self, path: &Path) -> Result<Option<String>, String> {
        if let Some(text) = self.files.get(path) {
            return Ok(text.clone());
        }
        match self.snapshot.get(path) {
            Some(Ok(raw)) => Ok(raw.as_deref().map(|r| strip_bom(r).0.to_string())),
            Some(Err(e)) => Err(e.clone()),
            None => Ok(None),
        }
    }

    fn check_free(&self, dest_raw: &str, dest: &Path) -> Result<(), String> {
        match self.current(dest) {
            Ok(None) => Ok(()),
            _ => Err(format!("{dest_raw}: destination already exists — move would overwrite")),
        }
    }

    fn relocate(&mut self, from: &Path, to: &Path, text: Option<String>) {
        let template = self
            .templates
            .get(from)
            .cloned()
            .unwrap_or_else(|| self.snapshot.get(from).and_then(|r| r.clone().ok()).flatten());
        self.templates.insert(to.to_path_buf(), template);
        let origin = self.modes.get(from).cloned().unwrap_or_else(|| from.to_path_buf());
        self.modes.insert(to.to_path_buf(), origin);
        self.files.insert(from.to_path_buf(), None);
        self.files.insert(to.to_path_buf(), text);
    }
}

fn touch(list: &mut Vec<PathBuf>, path: &Path) {
    if !list.iter().any(|p| p == path) {
        list.push(path.to_path_buf());
    }
}

/// Applies one file's hunks in order; returns the new text and how many hunks changed
/// something, or one error per failing hunk.
fn apply_hunks(raw_path: &str, original: &str, hunks: &[Hunk]) -> Result<(String, usize), Vec<String>> {
    let mut text = original.to_string();
    let mut errors = Vec::new();
    let mut changes = 0;
    for (index, hunk) in hunks.iter().enumerate() {
        let (search, replace) = sides(hunk, true);
        let changed = hunk.lines.iter().any(|l| l.prefix != ' ');
        if !changed || search == replace {
            // Models sometimes emit pure-context anchor hunks: harmless, skip them.
            continue;
        }
        changes += 1;
        let label = hunk
            .hint
            .as_deref()
            .map_or("(no hint)".to_string(), |h| format!("'{h}'"));
        if search.is_empty() {
            match insert_addition(&text, hunk.hint.as_deref(), &replace.join("\n")) {
                Ok(updated) => text = updated,
                Err(e) => errors.push(format!("{raw_path}: {e}")),
            }
            continue;
        }
        match replace_hunk(&text, hunk) {
            Ok(updated) => text = updated,
            Err(error) => {
                let pattern = search.join("\n");
                let mut message = format!("{raw_path}: hunk {} {label} not found — {error}", index + 1);
                if error == NO_MATCH {
                    message.push_str(&fuzzy::did_you_mean(&pattern, &text));
                }
                errors.push(message);
            }
        }
    }
    if errors.is_empty() {
        Ok((text, changes))
    } else {
        Err(errors)
    }
}

/// The hunk's search lines (context and removed) and replacement lines (context and added).
fn sides(hunk: &Hunk, with_blanks: bool) -> (Vec<&str>, Vec<&str>) {
    let lines = hunk.lines.iter().filter(|l| with_blanks || !l.implicit_blank);
    let search = lines
        .clone()
        .filter(|l| l.prefix != '+')
        .map(|l| l.text.as_str())
        .collect();
    let replace = lines.filter(|l| l.prefix != '-').map(|l| l.text.as_str()).collect();
    (search, replace)
}

/// Replaces one hunk with the fuzzy matcher: the whole file first, then the window around the
/// context hint, then (if the hunk had empty lines taken as blank context) both again without
/// them. The first error is the one reported.
fn replace_hunk(text: &str, hunk: &Hunk) -> Result<String, String> {
    let has_blanks = hunk.lines.iter().any(|l| l.implicit_blank);
    let mut first_error = None;
    for with_blanks in [true, false] {
        if !with_blanks && !has_blanks {
            break;
        }
        let (search, replace) = sides(hunk, with_blanks);
        if search.is_empty() {
            continue;
        }
        let (search, replace) = (search.join("\n"), replace.join("\n"));
        match fuzzy::find_and_replace(text, &search, &replace, false) {
            Ok(done) => return Ok(done.content),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        if let Some(pos) = hunk.hint.as_deref().and_then(|h| text.find(h)) {
            // The hint names the scope the hunk lives in: first everything from the hint's line
            // on (the V4A meaning), then Hermes' window around it.
            let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
            let windows = [
                (line_start, text.len()),
                (
                    floor_boundary(text, pos.saturating_sub(HINT_WINDOW_BEFORE)),
                    floor_boundary(text, (pos + HINT_WINDOW_AFTER).min(text.len())),
                ),
            ];
            for (start, end) in windows {
                if let Ok(done) = fuzzy::find_and_replace(&text[start..end], &search, &replace, false) {
                    return Ok(format!("{}{}{}", &text[..start], done.content, &text[end..]));
                }
            }
        }
    }
    Err(first_error.unwrap_or_else(|| NO_MATCH.to_string()))
}

/// An addition-only hunk: after the line holding the (unique) hint, or at the end of the file.
fn insert_addition(text: &str, hint: Option<&str>, insert: &str) -> Result<String, String> {
    let Some(hint) = hint else {
        return Ok(format!("{}\n{insert}\n", text.trim_end_matches('\n')));
    };
    // Hermes counts overlapping occurrences.
    let mut occurrences = 0;
    let mut from = 0;
    while let Some(i) = text[from..].find(hint) {
        occurrences += 1;
        from += i + text[from + i..].chars().next().map_or(1, char::len_utf8);
    }
    match occurrences {
        0 => Err(format!("addition-only hunk context hint '{hint}' not found")),
        1 => {
            let pos = text.find(hint).unwrap_or(0);
            Ok(match text[pos..].find('\n') {
                Some(eol) => {
                    let cut = pos + eol + 1;
                    format!("{}{insert}\n{}", &text[..cut], &text[cut..])
                }
                None => format!("{text}\n{insert}"),
            })
        }
        n => Err(format!(
            "addition-only hunk context hint '{hint}' is ambiguous ({n} occurrences)"
        )),
    }
}

fn floor_boundary(text: &str, mut pos: usize) -> usize {
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}
