//! Regex content search. Pass 1 walks the tree in parallel and only counts output lines per
//! file (matches, plus context lines in `content` mode), so exact totals cost no allocation per
//! match. Files are then ordered by path and pass 2 re-searches just the files that overlap the
//! requested page to collect their lines — memory stays bounded by the page, not the hit count.

use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::WalkState;
use tokio_util::sync::CancellationToken;

use super::walk::{self, Batch, GlobFilter, Stopper};
use super::{Entry, MAX_MATCH_CHARS, OutputMode, SearchOutcome, SearchParams};
use crate::runtime::file_io::read_guards::DenyList;

const MULTILINE_NOTE: &str = "Pattern contains \\n — multiline mode (-U) was enabled \
automatically so the regex can match across line boundaries.";

/// Output lines one file contributes.
struct Hit {
    path: PathBuf,
    count: u64,
}

pub(crate) fn search(params: &SearchParams, cancel: &CancellationToken) -> SearchOutcome {
    let multiline = has_regex_newline(&params.pattern);
    let matcher = match build_matcher(&params.pattern, multiline) {
        Ok(matcher) => matcher,
        Err(e) => return SearchOutcome::error(format!("Search failed: {e}")),
    };
    let context = if params.mode == OutputMode::Content {
        params.context
    } else {
        0
    };
    let mut searcher = SearcherBuilder::new();
    searcher
        .line_number(true)
        .binary_detection(BinaryDetection::quit(b'\x00'))
        .multi_line(multiline)
        .before_context(context)
        .after_context(context);
    let filter = match params
        .file_glob
        .as_deref()
        .map(|g| (g, GlobFilter::new(&params.root, g)))
    {
        None => None,
        Some((_, Ok(filter))) => Some(filter),
        Some((glob, Err(e))) => {
            return SearchOutcome::error(format!("Search failed: invalid file_glob '{glob}': {e}"));
        }
    };
    let walker = walk::walker(params);

    let hits: Mutex<Vec<Hit>> = Mutex::new(Vec::new());
    let stopper = Stopper::new(cancel, params.deadline);
    let files_only = params.mode == OutputMode::FilesOnly;
    walker.build_parallel().run(|| {
        let matcher = matcher.clone();
        let mut searcher = searcher.build();
        let mut batch = Batch::new(&hits);
        let (stopper, filter) = (&stopper, filter.as_ref());
        Box::new(move |entry| {
            if stopper.should_stop() {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) || !GlobFilter::allows(filter, &entry, true) {
                return WalkState::Continue;
            }
            let mut sink = CountSink { count: 0, files_only };
            if searcher.search_path(&matcher, entry.path(), &mut sink).is_ok() && sink.count > 0 {
                batch.items.push(Hit {
                    path: entry.into_path(),
                    count: sink.count,
                });
            }
            WalkState::Continue
        })
    });
    let warning = stopper.warning();
    if cancel.is_cancelled() {
        return SearchOutcome::default();
    }

    let deny = DenyList::new(params.hermes_home.as_deref());
    let mut outcome = SearchOutcome::default();
    let mut files: Vec<(String, Hit)> = Vec::new();
    for hit in hits.into_inner().unwrap_or_else(|p| p.into_inner()) {
        if walk::is_denied(&deny, &hit.path) {
            outcome.omitted += if params.mode == OutputMode::Count { 1 } else { hit.count };
            continue;
        }
        files.push((walk::display(params, &hit.path), hit));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));

    let (start, end) = (params.offset, params.offset.saturating_add(params.limit));
    match params.mode {
        OutputMode::FilesOnly => {
            outcome.total_count = files.len() as u64;
            outcome.truncated = files.len() > end;
            outcome.files = files.into_iter().skip(start).take(params.limit).map(|f| f.0).collect();
        }
        OutputMode::Count => {
            outcome.total_count = files.iter().map(|f| f.1.count).sum();
            outcome.truncated = files.len() > end;
            outcome.counts = files
                .into_iter()
                .skip(start)
                .take(params.limit)
                .map(|(p, h)| (p, h.count))
                .collect();
        }
        OutputMode::Content => {
            outcome.total_count = files.iter().map(|f| f.1.count).sum();
            outcome.truncated = outcome.total_count > end as u64;
            outcome.matches = collect_page(&files, start as u64, end as u64, &matcher, &mut searcher.build());
        }
    }
    outcome.warning = match (multiline.then_some(MULTILINE_NOTE), warning) {
        (Some(note), Some(w)) => Some(format!("{note} {w}")),
        (note, w) => w.or(note.map(str::to_string)),
    };
    outcome
}

/// Re-searches the files overlapping output lines `start..end` (in path order) and returns
/// exactly those lines.
fn collect_page(
    files: &[(String, Hit)],
    start: u64,
    end: u64,
    matcher: &RegexMatcher,
    searcher: &mut Searcher,
) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut cursor = 0u64;
    for (shown, hit) in files {
        if cursor >= end {
            break;
        }
        let file_end = cursor + hit.count;
        if file_end > start {
            let skip = start.saturating_sub(cursor);
            let take = end.min(file_end) - cursor.max(start);
            let mut sink = CollectSink {
                path: shown,
                skip,
                take,
                seen: 0,
                out: &mut out,
            };
            // A file that vanished since pass 1 simply contributes fewer lines.
            let _ = searcher.search_path(matcher, &hit.path, &mut sink);
        }
        cursor = file_end;
    }
    out
}

/// Pass 1: counts the output lines of one file (stops at the first for `files_only`).
struct CountSink {
    count: u64,
    files_only: bool,
}

impl Sink for CountSink {
    type Error = io::Error;

    fn matched(&mut self, searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        // Line-oriented matches are exactly one line; only multi-line ones need counting.
        self.count += if searcher.multi_line() {
            mat.lines().count() as u64
        } else {
            1
        };
        Ok(!self.files_only)
    }

    fn context(&mut self, _: &Searcher, _: &SinkContext<'_>) -> Result<bool, io::Error> {
        self.count += 1;
        Ok(true)
    }
}

/// Pass 2: keeps output lines `skip..skip + take` of one file.
struct CollectSink<'a> {
    path: &'a str,
    skip: u64,
    take: u64,
    seen: u64,
    out: &'a mut Vec<Entry>,
}

impl CollectSink<'_> {
    /// Records one line; false once the page slice of this file is complete.
    fn push(&mut self, line: u64, bytes: &[u8]) -> bool {
        let index = self.seen;
        self.seen += 1;
        if index < self.skip {
            return true;
        }
        if index >= self.skip + self.take {
            return false;
        }
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let text = String::from_utf8_lossy(bytes);
        let content = match text.char_indices().nth(MAX_MATCH_CHARS) {
            Some((cut, _)) => text[..cut].to_string(),
            None => text.into_owned(),
        };
        self.out.push(Entry {
            path: self.path.to_string(),
            line,
            content,
        });
        index + 1 < self.skip + self.take
    }
}

impl Sink for CollectSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        let first = mat.line_number().unwrap_or(0);
        for (i, line) in mat.lines().enumerate() {
            if !self.push(first + i as u64, line) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, io::Error> {
        Ok(self.push(ctx.line_number().unwrap_or(0), ctx.bytes()))
    }
}

/// Line-oriented unless the pattern wants a newline; then multi-line like `rg -U`.
fn build_matcher(pattern: &str, multiline: bool) -> Result<RegexMatcher, grep_regex::Error> {
    let mut builder = RegexMatcherBuilder::new();
    if multiline {
        builder.multi_line(true);
    } else {
        // Lets the searcher scan whole buffers and only split lines around candidates.
        builder.line_terminator(Some(b'\n'));
    }
    builder.build(pattern)
}

/// True when the regex asks for a line break: a literal newline, or `\n` preceded by an even
/// number of further backslashes (`\\n` is a backslash followed by `n`).
pub(crate) fn has_regex_newline(pattern: &str) -> bool {
    if pattern.contains('\n') {
        return true;
    }
    let mut backslashes = 0usize;
    for c in pattern.chars() {
        match c {
            '\\' => backslashes += 1,
            'n' if backslashes % 2 == 1 => return true,
            _ => backslashes = 0,
        }
    }
    false
}
