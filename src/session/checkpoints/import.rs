//! Writing a snapshot into the shadow repository with one `git fast-import`: the files whose
//! stat data changed since the cached snapshot are streamed in as blobs, and one commit on
//! `refs/hermes/checkpoints` takes the previous snapshot's tree with those paths modified and
//! the vanished ones deleted. One process per snapshot, whatever changed; small imports are
//! unpacked into loose objects (`fastimport.unpackLimit`), so packs do not pile up. A snapshot
//! tree holds the folder's files under `files/` and the git metadata and the snapshot's
//! records under `.git/`.

use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ChildStdin;
use std::time::Duration;

use super::CheckpointError;
use super::cache::{Cache, Cached};
use super::git::Git;
use super::index_file::StatData;

/// The tree entry holding the folder's files.
pub const FILES: &str = "files";

/// A first snapshot of a large folder streams every file: allow it more than one git call.
const IMPORT_TIMEOUT: Duration = Duration::from_secs(300);

/// One path the snapshot tree must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The tree path (`files/…` or `.git/…`).
    pub path: Vec<u8>,
    /// Where its content is read from.
    pub abs: PathBuf,
    pub stat: StatData,
    pub mode: u32,
}

/// What differs from the cached snapshot.
#[derive(Debug, Default)]
pub struct Delta {
    /// Indexes into the wanted paths: new, or changed since cached.
    pub changed: Vec<usize>,
    /// Cached paths no longer wanted.
    pub removed: Vec<Vec<u8>>,
    /// The cache did not match: the tree is rebuilt whole.
    pub full: bool,
}

impl Delta {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty() && !self.full
    }
}

/// Compares `wanted` with `cache` (rebuilding everything when `full`).
pub fn delta(cache: &Cache, wanted: &[Wanted], full: bool) -> Delta {
    let changed = (0..wanted.len())
        .filter(|i| full || !cache.unchanged(&wanted[*i].path, wanted[*i].mode, &wanted[*i].stat))
        .collect();
    let present: HashSet<&[u8]> = wanted.iter().map(|w| w.path.as_slice()).collect();
    let removed = match full {
        true => Vec::new(),
        false => cache
            .entries
            .keys()
            .filter(|p| !present.contains(p.as_slice()))
            .cloned()
            .collect(),
    };
    Delta { changed, removed, full }
}

/// Imports `delta` on top of `tip` as one commit and brings `cache` up to date. Returns the
/// commit and the wanted paths that could not be read (left out of it).
pub fn import(
    git: &Git,
    tip: Option<&str>,
    wanted: &[Wanted],
    delta: Delta,
    message: &str,
    cache: &mut Cache,
) -> Result<(String, Vec<usize>), CheckpointError> {
    let marks = git.git_dir.join("hermes-marks");
    let _ = std::fs::remove_file(&marks);
    let sources: Vec<(Vec<u8>, PathBuf, u32)> = delta
        .changed
        .iter()
        .map(|i| (wanted[*i].path.clone(), wanted[*i].abs.clone(), wanted[*i].mode))
        .collect();
    let (tip_owned, message_owned, full, removed) = (
        tip.map(str::to_string),
        message.to_string(),
        delta.full,
        delta.removed.clone(),
    );
    let marks_arg = format!("--export-marks={}", marks.display());
    let args = ["fast-import", "--quiet", "--done", "--date-format=now", &marks_arg];
    let (unread, _) = git.run_feeding(&args, IMPORT_TIMEOUT, move |stdin| {
        let commit = Commit {
            tip: tip_owned.as_deref(),
            message: &message_owned,
            full,
            removed: &removed,
        };
        let mut unread = vec![false; sources.len()];
        // A write error means git stopped reading: its exit status says why.
        let _ = stream(stdin, &sources, &commit, &mut unread);
        unread
    })?;
    let ids = read_marks(&marks)?;
    let commit_mark = delta.changed.len() + 1;
    let commit = ids
        .get(commit_mark)
        .cloned()
        .flatten()
        .ok_or_else(|| CheckpointError::Corrupt("fast-import named no commit".into()))?;
    if delta.full {
        cache.entries.clear();
    }
    for path in &delta.removed {
        cache.entries.remove(path);
    }
    let mut failed = Vec::new();
    for (k, i) in delta.changed.iter().enumerate() {
        let w = &wanted[*i];
        match (unread[k], ids.get(k + 1).cloned().flatten()) {
            (false, Some(oid)) => {
                cache.entries.insert(
                    w.path.clone(),
                    Cached {
                        mode: w.mode,
                        stat: w.stat,
                        oid,
                    },
                );
            }
            _ => {
                cache.entries.remove(&w.path);
                failed.push(*i);
            }
        }
    }
    cache.commit = Some(commit.clone());
    Ok((commit, failed))
}

/// The commit part of the stream.
struct Commit<'a> {
    tip: Option<&'a str>,
    message: &'a str,
    full: bool,
    removed: &'a [Vec<u8>],
}

/// Writes the fast-import stream: blobs `:1…:n` (a file that cannot be read is skipped and
/// flagged in `unread`), then the commit, mark `:n+1`.
fn stream(
    stdin: ChildStdin,
    sources: &[(Vec<u8>, PathBuf, u32)],
    commit: &Commit<'_>,
    unread: &mut [bool],
) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, stdin);
    for (k, (_, abs, mode)) in sources.iter().enumerate() {
        let content = match *mode == 0o120000 {
            true => std::fs::read_link(abs).map(|target| super::walk::path_bytes(&target)),
            false => std::fs::read(abs),
        };
        let Ok(content) = content else {
            unread[k] = true;
            continue;
        };
        write!(out, "blob\nmark :{}\ndata {}\n", k + 1, content.len())?;
        out.write_all(&content)?;
        out.write_all(b"\n")?;
    }
    write!(
        out,
        "commit refs/hermes/checkpoints\nmark :{}\ncommitter Hermes Checkpoint <hermes@local> now\ndata {}\n{}\n",
        sources.len() + 1,
        commit.message.len(),
        commit.message
    )?;
    if let Some(tip) = commit.tip {
        writeln!(out, "from {tip}")?;
    }
    if commit.full {
        out.write_all(b"deleteall\n")?;
    }
    let unread_paths = sources
        .iter()
        .zip(unread.iter())
        .filter(|(_, u)| **u)
        .map(|(s, _)| &s.0);
    for path in commit.removed.iter().chain(unread_paths) {
        out.write_all(b"D ")?;
        out.write_all(&quote(path))?;
        out.write_all(b"\n")?;
    }
    for (k, (path, _, mode)) in sources.iter().enumerate().filter(|(k, _)| !unread[*k]) {
        write!(out, "M {mode:o} :{} ", k + 1)?;
        out.write_all(&quote(path))?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"done\n")?;
    out.flush()
}

/// Reads `--export-marks` output: `:<mark> <id>` per line, as a table by mark.
fn read_marks(path: &std::path::Path) -> Result<Vec<Option<String>>, CheckpointError> {
    let text = std::fs::read_to_string(path)?;
    let mut ids: Vec<Option<String>> = Vec::new();
    for line in text.lines() {
        let Some((mark, id)) = line.strip_prefix(':').and_then(|l| l.split_once(' ')) else {
            continue;
        };
        let Ok(mark) = mark.parse::<usize>() else {
            continue;
        };
        if ids.len() <= mark {
            ids.resize(mark + 1, None);
        }
        ids[mark] = Some(id.to_string());
    }
    Ok(ids)
}

/// A path as fast-import reads it: as is, or C-quoted when it holds a newline, a quote or a
/// backslash, or bytes that are not printable ASCII.
fn quote(path: &[u8]) -> Vec<u8> {
    if !path
        .iter()
        .any(|b| matches!(b, b'\n' | b'"' | b'\\') || *b < 0x20 || *b == 0x7f)
    {
        return path.to_vec();
    }
    let mut out = vec![b'"'];
    for &b in path {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x20..=0x7e => out.push(b),
            _ => out.extend_from_slice(format!("\\{b:03o}").as_bytes()),
        }
    }
    out.push(b'"');
    out
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
