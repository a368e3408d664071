//! The `read_file` tool: a text file as `LINE|content` lines with offset/limit paging, a
//! 100 000-character budget cut on a line boundary (`next_offset`), long-line clamping, binary
//! and device refusal, the Hermes credential denylist, `.ipynb` extraction and "did you mean"
//! suggestions for a missing file. Inside the workspace the editor's buffer (unsaved edits)
//! wins over the disk. Result JSON matches Hermes' `ReadResult.to_dict()` (see the spec §5.2).

mod notebook;
mod present;
mod reader;
mod suggest;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{BufReader, Cursor, ErrorKind, Read};
use std::path::Path;

use futures::future::BoxFuture;
use serde_json::{Map, Value, json};

use crate::runtime::file_io::read_guards as guards;
use crate::runtime::{Presentation, ToolEffect, args};
use crate::runtime::{Tool, ToolContext, ToolOutput};
use crate::text::thousands;
use reader::{EXACT_COUNT_MAX_BYTES, LineTotal, MAX_READ_CHARS, Page, PageRequest};

const DESCRIPTION: &str = "Read a text file with line numbers and pagination. Use this instead of \
cat/head/tail in terminal. Output format: 'LINE_NUM|CONTENT'. Suggests similar filenames if not \
found. Use offset and limit for large files. Reads exceeding ~100K characters are cut on a line \
boundary; continue from the returned next_offset. Jupyter notebooks (.ipynb) are auto-extracted \
to readable text. NOTE: Cannot read images or other binary files — use vision_analyze for images.";

const DEFAULT_LIMIT: i64 = 500;
/// `tool_output.max_lines`: the most lines one read may return.
const MAX_LIMIT: i64 = 2000;
/// Above this size a wide, truncated read gets a hint toward targeted reads.
const LARGE_FILE_HINT_BYTES: u64 = 512_000;
const SAMPLE_BYTES: usize = 1000;
const BINARY_CONTENT_ERROR: &str =
    "Binary file - cannot display as text. Use appropriate tools to handle this file type.";

/// Registered as `read_file`.
pub struct ReadFileTool;

impl Tool for ReadFileTool {
    fn name(&self) -> &'static str {
        "read_file"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path to the file to read (absolute, relative, or ~/path)"},
                "offset": {"type": "integer", "description": "Line number to start reading from (1-indexed, default: 1)", "default": 1, "minimum": 1},
                "limit": {"type": "integer", "description": "Maximum number of lines to read (default: 500, max: 2000)", "default": 500, "maximum": 2000}
            },
            "required": ["path"]
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

    fn summarise(&self, args: &Value, result: &Value) -> String {
        present::summarise(args, result)
    }

    fn brief(&self, args: &Value) -> Option<String> {
        crate::runtime::describe::arg(args, "path").map(|p| crate::runtime::describe::clip(p, 80))
    }
}

async fn run(ctx: &ToolContext, args: Value) -> ToolOutput {
    let raw = match args.get("path") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => return ToolOutput::error("read_file: missing required field 'path'"),
    };
    let req = PageRequest {
        offset: args::int_or(&args, "offset", 1).max(1) as usize,
        limit: args::int_or(&args, "limit", DEFAULT_LIMIT).clamp(1, MAX_LIMIT) as usize,
        max_chars: MAX_READ_CHARS,
    };
    let resolved = ctx.session.workspace.resolve(&raw);

    let (guard_raw, guard_path) = (raw.clone(), resolved.clone());
    let hermes_home = ctx.services.hermes_home.clone();
    match tokio::task::spawn_blocking(move || refusal(&guard_raw, &guard_path, hermes_home.as_deref())).await {
        Ok(Some(message)) => return ToolOutput::error(message),
        Ok(None) => {}
        Err(e) => return ToolOutput::error(format!("Tool execution failed: {e}")),
    }

    // Unsaved editor buffers win inside the workspace; the disk answers everything else.
    let overlay = if ctx.session.workspace.contains(&resolved) {
        match ctx.session.fs.read_text(&resolved).await {
            Some(Ok(text)) => Some(text),
            _ => None,
        }
    } else {
        None
    };

    let read = tokio::task::spawn_blocking(move || match overlay {
        Some(text) => read_memory(text.into_bytes(), &resolved, req),
        None => read_disk(&raw, &resolved, req),
    });
    match read.await {
        Ok((value, true)) => ToolOutput::json_error(value),
        Ok((value, false)) => ToolOutput::json(value),
        Err(e) => ToolOutput::error(format!("Tool execution failed: {e}")),
    }
}

/// The guards Hermes runs before touching the file, in its order: devices, binary extensions,
/// the read denylist. Returns the error message of the first that refuses.
fn refusal(raw: &str, resolved: &Path, hermes_home: Option<&Path>) -> Option<String> {
    if guards::is_blocked_device(resolved) {
        return Some(format!(
            "Cannot read '{raw}': this is a device file that would block or produce infinite output."
        ));
    }
    if let Some(ext) = guards::binary_extension(resolved) {
        return Some(format!(
            "Cannot read binary file '{raw}' ({ext}). Use vision_analyze for images, or terminal \
             to inspect binary files."
        ));
    }
    guards::read_block_error(&resolved.to_string_lossy(), resolved, hermes_home)
}

/// Reads from the disk without loading more than the page: stat first (so FIFOs, sockets and
/// devices are refused before anything opens them), sniff 1000 bytes, then stream.
fn read_disk(raw: &str, resolved: &Path, req: PageRequest) -> (Value, bool) {
    let meta = match std::fs::metadata(resolved) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            let result = ReadResult {
                error: Some(format!("File not found: {raw}")),
                similar_files: suggest::similar_files(raw, resolved),
                ..ReadResult::default()
            };
            return (Value::Object(result.into_map()), true);
        }
        Err(e) => return error_result(format!("Failed to read file: {e}")),
    };
    if meta.is_dir() {
        return error_result(format!(
            "Cannot read '{raw}': it is a directory, not a file. Use search_files with \
             target='files' to list its contents."
        ));
    }
    if !meta.is_file() {
        return error_result(format!(
            "Cannot read '{raw}': not a regular file (directory, FIFO, socket, or device). \
             Reading it could block indefinitely."
        ));
    }
    let size = meta.len();
    if notebook::is_notebook(resolved)
        && size <= notebook::MAX_NOTEBOOK_BYTES
        && let Ok(bytes) = std::fs::read(resolved)
    {
        return read_memory(bytes, resolved, req);
    }
    let mut file = match File::open(resolved) {
        Ok(file) => file,
        Err(e) => return error_result(format!("Failed to read file: {e}")),
    };
    let mut sample = Vec::with_capacity(SAMPLE_BYTES);
    if let Err(e) = (&mut file).take(SAMPLE_BYTES as u64).read_to_end(&mut sample) {
        return error_result(format!("Failed to read file: {e}"));
    }
    if guards::looks_binary(&sample) {
        return binary_result(size);
    }
    let stream = BufReader::with_capacity(64 * 1024, Cursor::new(sample).chain(file));
    match reader::read_page(stream, size, req, EXACT_COUNT_MAX_BYTES) {
        Ok(page) => assemble(page, size, req, false),
        Err(e) => error_result(format!("Failed to read file: {e}")),
    }
}

/// Reads text already in memory (an editor buffer, or a notebook to extract).
fn read_memory(bytes: Vec<u8>, path: &Path, req: PageRequest) -> (Value, bool) {
    let size = bytes.len() as u64;
    if notebook::is_notebook(path)
        && let Some(text) = notebook::extract(&String::from_utf8_lossy(&bytes))
    {
        return match reader::read_page(text.as_bytes(), text.len() as u64, req, u64::MAX) {
            Ok(page) => assemble(page, size, req, true),
            Err(e) => error_result(format!("Failed to read file: {e}")),
        };
    }
    if guards::looks_binary(&bytes[..bytes.len().min(SAMPLE_BYTES)]) {
        return binary_result(size);
    }
    match reader::read_page(bytes.as_slice(), size, req, u64::MAX) {
        Ok(page) => assemble(page, size, req, false),
        Err(e) => error_result(format!("Failed to read file: {e}")),
    }
}

/// Hermes' `ReadResult`: defaults are always present, `None`/empty-list fields are dropped.
#[derive(Debug, Default)]
struct ReadResult {
    content: String,
    total_lines: usize,
    file_size: u64,
    truncated: bool,
    hint: Option<String>,
    is_binary: bool,
    error: Option<String>,
    similar_files: Vec<String>,
}

impl ReadResult {
    fn into_map(self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("content".into(), self.content.into());
        map.insert("total_lines".into(), self.total_lines.into());
        map.insert("file_size".into(), self.file_size.into());
        map.insert("truncated".into(), self.truncated.into());
        if let Some(hint) = self.hint {
            map.insert("hint".into(), hint.into());
        }
        map.insert("is_binary".into(), self.is_binary.into());
        map.insert("is_image".into(), false.into());
        if let Some(error) = self.error {
            map.insert("error".into(), error.into());
        }
        if !self.similar_files.is_empty() {
            map.insert("similar_files".into(), self.similar_files.into());
        }
        map
    }
}

fn error_result(message: String) -> (Value, bool) {
    let result = ReadResult {
        error: Some(message),
        ..ReadResult::default()
    };
    (Value::Object(result.into_map()), true)
}

fn binary_result(size: u64) -> (Value, bool) {
    let result = ReadResult {
        file_size: size,
        is_binary: true,
        error: Some(BINARY_CONTENT_ERROR.to_string()),
        ..ReadResult::default()
    };
    (Value::Object(result.into_map()), true)
}

/// Turns a page into the result JSON: pagination hint, budget cut fields, large-file hint.
fn assemble(page: Page, size: u64, req: PageRequest, extracted: bool) -> (Value, bool) {
    if size == 0 {
        let result = ReadResult {
            hint: Some("File is empty (0 bytes).".into()),
            ..ReadResult::default()
        };
        return (Value::Object(result.into_map()), false);
    }
    let total = page.total.value();
    let shown_total = match page.total {
        LineTotal::Exact(n) => n.to_string(),
        LineTotal::Estimated(n) => format!("~{n}"),
    };
    if page.lines_shown == 0 && req.offset > total && total > 0 {
        let hint = format!(
            "Note: offset {} is beyond the end of the file ({total} lines total). Retry with \
             offset <= {total}.",
            req.offset
        );
        let result = ReadResult {
            total_lines: total,
            file_size: size,
            hint: Some(hint),
            ..ReadResult::default()
        };
        return (Value::Object(result.into_map()), false);
    }

    let end_line = req.offset + req.limit - 1;
    let truncated = total > end_line;
    let hint = truncated.then(|| {
        format!(
            "Use offset={} to continue reading (showing {}-{end_line} of {shown_total} lines)",
            end_line + 1,
            req.offset
        )
    });
    let result = ReadResult {
        content: page.content,
        total_lines: total,
        file_size: size,
        truncated,
        ..ReadResult::default()
    };
    let mut map = result.into_map();
    if extracted {
        // Hermes' extraction result: no binary/image flags, `extracted_document` instead.
        map.remove("is_binary");
        map.remove("is_image");
        map.insert("extracted_document".into(), true.into());
    }
    if let Some(hint) = hint {
        map.insert("hint".into(), hint.into());
    }
    if matches!(page.total, LineTotal::Estimated(_)) {
        map.insert("total_lines_estimated".into(), true.into());
    }
    if page.budget_cut {
        let next_offset = req.offset + page.lines_shown;
        map.insert("truncated".into(), true.into());
        map.insert("truncated_by".into(), "bytes".into());
        map.insert("next_offset".into(), next_offset.into());
        let mut hint = format!(
            "Output truncated at the {}-char read budget after {} line(s) (showing lines {}-{} \
             of {shown_total}). Use offset={next_offset} to continue.",
            thousands(req.max_chars as u64),
            page.lines_shown,
            req.offset,
            next_offset - 1
        );
        if page.first_line_clamped {
            hint.push_str(
                " Note: the first line alone exceeded the budget and was clamped mid-line; its \
                 remainder is not retrievable via offset.",
            );
        }
        map.insert("hint".into(), hint.into());
    }
    let is_truncated = map.get("truncated").and_then(Value::as_bool).unwrap_or(false);
    if size > LARGE_FILE_HINT_BYTES && req.limit > 200 && is_truncated {
        map.insert(
            "_hint".into(),
            format!(
                "This file is large ({} bytes). Consider reading only the section you need with \
                 offset and limit to keep context usage efficient.",
                thousands(size)
            )
            .into(),
        );
    }
    (Value::Object(map), false)
}
