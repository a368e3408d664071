//! Writing a snapshot into the shadow repository with one `git fast-import`: the files whose
//! stat data changed since the cached snapshot are streamed in as blobs, and one commit on
//! `refs/hermes/checkpoints` takes the previous snapshot's tree with those paths modified, the
//! vanished ones deleted and the snapshot's records written inline. One process per snapshot,
//! whatever changed; each import is one pack (cheaper than a loose file per object), and the
//! packs are merged geometrically once they pile up. A snapshot tree holds the folder's files
//! under `files/` and the git metadata and the snapshot's records under `.git/`.

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

/// The ref the snapshots are chained on.
pub const REF: &str = "refs/hermes/checkpoints";

/// A first snapshot of a large folder streams every file: allow it more than one git call.
const IMPORT_TIMEOUT: Duration = Duration::from_secs(300);

/// Past this many packs, a snapshot merges them (`git repack --geometric=2`).
const MAX_PACKS: usize = 32;

/// A path whose content must be read into the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The tree path (`files/…` or `.git/…`).
    pub path: Vec<u8>,
    /// Where its content is read from.
    pub abs: PathBuf,
    pub stat: StatData,
    pub mode: u32,
}

/// What a snapshot changes in the tree of the previous one.
#[derive(Debug, Default)]
pub struct Changes {
    /// New paths, and paths whose stat data or mode changed.
    pub changed: Vec<Wanted>,
    /// Paths of the previous tree no longer there.
    pub removed: Vec<Vec<u8>>,
    /// Records whose content changed: (tree path, content).
    pub inline: Vec<(Vec<u8>, Vec<u8>)>,
    /// The cache did not describe the previous tree: the tree is rebuilt whole.
    pub full: bool,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty() && self.inline.is_empty() && !self.full
    }
}

/// Imports `changes` on top of `tip` as one commit and brings `cache` up to date. Returns the
/// commit and the tree paths that could not be read (left out of it).
pub fn import(
    git: &Git,
    tip: Option<&str>,
    changes: Changes,
    message: &str,
    cache: &mut Cache,
) -> Result<(String, Vec<Vec<u8>>), CheckpointError> {
    let Changes {
        changed,
        removed,
        inline,
        full,
    } = changes;
    let sources: Vec<(Vec<u8>, PathBuf, u32)> = changed
        .iter()
        .map(|w| (w.path.clone(), w.abs.clone(), w.mode))
        .collect();
    let commit = Commit {
        tip: tip.map(str::to_string),
        message: message.to_string(),
        full,
        removed: removed.clone(),
        inline: inline.clone(),
    };
    let args = ["fast-import", "--quiet", "--done", "--date-format=now"];
    let (unread, out) = git.run_feeding(&args, IMPORT_TIMEOUT, move |stdin| {
        let mut unread = vec![false; sources.len()];
        // A write error means git stopped reading: its exit status says why.
        let _ = stream(stdin, &sources, &commit, &mut unread);
        unread
    })?;
    // `get-mark` answers: one id per blob written, in order.
    let mut ids = String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter();
    if full {
        cache.entries.clear();
    }
    for path in &removed {
        cache.entries.remove(path);
    }
    let mut failed = Vec::new();
    for (wanted, unread) in changed.into_iter().zip(unread) {
        match unread {
            true => {
                cache.entries.remove(&wanted.path);
                failed.push(wanted.path);
            }
            false => {
                let oid = ids
                    .next()
                    .ok_or_else(|| CheckpointError::Corrupt("fast-import named fewer blobs".into()))?;
                let cached = Cached {
                    mode: wanted.mode,
                    stat: wanted.stat,
                    oid,
                };
                cache.entries.insert(wanted.path, cached);
            }
        }
    }
    // fast-import wrote the ref when it finished.
    let commit = std::fs::read_to_string(git.git_dir.join(REF))
        .ok()
        .map(|id| id.trim().to_string())
        .filter(|id| id.len() >= 40 && Some(id.as_str()) != tip)
        .ok_or_else(|| CheckpointError::Corrupt("fast-import did not move the checkpoint ref".into()))?;
    for (path, content) in inline {
        cache.records.insert(path, content);
    }
    cache.commit = Some(commit.clone());
    merge_packs(git);
    Ok((commit, failed))
}

/// The commit part of the stream.
struct Commit {
    tip: Option<String>,
    message: String,
    full: bool,
    removed: Vec<Vec<u8>>,
    inline: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Writes the fast-import stream: blobs `:1…:n`, each followed by `get-mark` so its id comes
/// back on stdout (a file that cannot be read is skipped and flagged in `unread`), then the
/// commit.
fn stream(
    stdin: ChildStdin,
    sources: &[(Vec<u8>, PathBuf, u32)],
    commit: &Commit,
    unread: &mut [bool],
) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, stdin);
    out.write_all(b"feature get-mark\n")?;
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
        out.write_all(b"\nget-mark :")?;
        writeln!(out, "{}", k + 1)?;
    }
    write!(
        out,
        "commit {REF}\ncommitter Hermes Checkpoint <hermes@local> now\ndata {}\n{}\n",
        commit.message.len(),
        commit.message
    )?;
    if let Some(tip) = &commit.tip {
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
    for (path, content) in &commit.inline {
        out.write_all(b"M 100644 inline ")?;
        out.write_all(&quote(path))?;
        write!(out, "\ndata {}\n", content.len())?;
        out.write_all(content)?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"done\n")?;
    out.flush()
}

/// Merges the packs geometrically once there are more than `MAX_PACKS` (each import adds
/// one). A failure only leaves more packs: the next snapshot tries again.
fn merge_packs(git: &Git) {
    let packs = std::fs::read_dir(git.git_dir.join("objects/pack"))
        .map(|dir| {
            dir.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".pack"))
                .count()
        })
        .unwrap_or(0);
    if packs > MAX_PACKS
        && let Err(e) = git.run(&["repack", "-d", "-q", "--geometric=2"])
    {
        tracing::debug!(error = %e, "merging checkpoint packs failed");
    }
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
mod tests;
