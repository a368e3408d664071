//! One shadow repository per session folder, under `HERMES_HOME/checkpoints/<hash>/` (the first
//! 16 hex digits of the SHA-256 of the canonical folder path): a bare repository whose work tree
//! is the folder, with its own index kept between snapshots so git re-reads only files whose
//! size or time changed. Snapshots are commits chained on `refs/hermes/checkpoints`, which keeps
//! them all reachable (gc never runs). Blocking: call it on the blocking pool.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use sha2::Digest;

use super::CheckpointError;
use super::excludes::{self, ATTRIBUTES, EXCLUDES, MAX_FILE_BYTES, MAX_FILES};
use super::git::Git;
use crate::sync::lock;

const REF: &str = "refs/hermes/checkpoints";

/// One serialising lock per shadow repository in this process: two sessions in one folder
/// share its index.
static LOCKS: LazyLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = LazyLock::new(Default::default);

/// How a file differs between a checkpoint and now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Absent at the checkpoint: restoring removes it.
    Created,
    /// Different content, mode or type: restoring writes the checkpoint's version.
    Modified,
    /// Present at the checkpoint, gone now: restoring writes it back.
    Deleted,
}

/// One file to put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Relative to the session folder, `/`-separated as git prints it.
    pub path: String,
    pub kind: ChangeKind,
    /// The checkpoint's git mode (`100644`, `100755`, `120000` symlink, `160000` submodule).
    pub old_mode: u32,
    /// The checkpoint's blob id (all zeros for `Created`).
    pub old_blob: String,
}

/// The shadow repository of one folder.
pub struct Shadow {
    git: Git,
    lock: Arc<Mutex<()>>,
}

/// `HERMES_HOME/checkpoints/<hash of the canonical cwd>`.
pub fn shadow_dir(home: &Path, canonical_cwd: &Path) -> PathBuf {
    let digest = sha2::Sha256::digest(canonical_cwd.as_os_str().as_encoded_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    home.join("checkpoints").join(hex)
}

impl Shadow {
    /// Opens (creating on first use) the shadow repository of `cwd`.
    pub fn open(home: &Path, cwd: &Path) -> Result<Shadow, CheckpointError> {
        let cwd = cwd.canonicalize().map_err(|e| CheckpointError::Folder(e.to_string()))?;
        let home_dir = crate::home::home_dir();
        if let Some(why) = excludes::too_broad(&cwd, Some(&home_dir)) {
            return Err(CheckpointError::TooBroad(why));
        }
        let dir = shadow_dir(home, &cwd);
        let git = Git::new(dir.clone(), cwd.clone());
        let lock = lock(&LOCKS).entry(dir.clone()).or_default().clone();
        let shadow = Shadow { git, lock };
        if !dir.join("HEAD").exists() {
            let _held = lock_of(&shadow.lock);
            std::fs::create_dir_all(&dir)?;
            shadow.git.init_bare()?;
            std::fs::create_dir_all(dir.join("info"))?;
            std::fs::write(dir.join("info/exclude"), EXCLUDES.join("\n") + "\n")?;
            std::fs::write(dir.join("info/attributes"), ATTRIBUTES)?;
            // Which folder this is, for a person looking at HERMES_HOME (as Hermes does).
            std::fs::write(dir.join("HERMES_WORKDIR"), cwd.as_os_str().as_encoded_bytes())?;
        }
        Ok(shadow)
    }

    /// Snapshots the folder. Returns the commit id: a new commit when anything changed since
    /// the last snapshot, the last one otherwise.
    pub fn snapshot(&self, message: &str) -> Result<String, CheckpointError> {
        let _held = lock_of(&self.lock);
        let tip = self.tip();
        let changed = self.stage_index(tip.as_deref())?;
        if let Some(tip) = &tip
            && !changed
        {
            return Ok(tip.clone());
        }
        let tree = self.git.text(&["write-tree"])?;
        let mut args = vec!["commit-tree", tree.as_str(), "-m", message];
        if let Some(tip) = &tip {
            args.extend(["-p", tip.as_str()]);
        }
        let commit = self.git.text(&args)?;
        match &tip {
            Some(tip) => self.git.run(&["update-ref", REF, &commit, tip])?,
            None => self.git.run(&["update-ref", REF, &commit])?,
        };
        Ok(commit)
    }

    /// The tree of the folder as it is now (staged into the shadow index, nothing committed).
    pub fn current_tree(&self, base: &str) -> Result<String, CheckpointError> {
        let _held = lock_of(&self.lock);
        self.stage_index(Some(base))?;
        Ok(self.git.text(&["write-tree"])?)
    }

    /// The files that differ between `commit` and `tree`.
    pub fn changes(&self, commit: &str, tree: &str) -> Result<Vec<Change>, CheckpointError> {
        let out = self
            .git
            .run(&["diff-tree", "-r", "-z", "--no-renames", "--raw", commit, tree])?;
        Ok(parse_raw(&out))
    }

    /// How many files differ between two commits or trees.
    pub fn count_changes(&self, from: &str, to: &str) -> Result<usize, CheckpointError> {
        let out = self
            .git
            .run(&["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to])?;
        Ok(out.split(|b| *b == 0).filter(|p| !p.is_empty()).count())
    }

    /// The contents of `blobs`, in order, read by one `git cat-file --batch`.
    pub fn blobs(&self, blobs: &[&str]) -> Result<Vec<Vec<u8>>, CheckpointError> {
        if blobs.is_empty() {
            return Ok(Vec::new());
        }
        let input = blobs.join("\n") + "\n";
        let out = self.git.run_input(&["cat-file", "--batch"], Some(input.into_bytes()))?;
        parse_batch(&out, blobs.len())
    }

    /// The session folder (canonical).
    pub fn work_tree(&self) -> &Path {
        &self.git.work_tree
    }

    /// The last snapshot, read from the loose ref (gc never packs it).
    fn tip(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.git.git_dir.join(REF)).ok()?;
        let id = text.trim();
        (!id.is_empty()).then(|| id.to_string())
    }

    /// Stages the whole folder into the shadow index; returns whether it differs from `base`.
    /// Files over the size cap are dropped from the index (checked only among paths that
    /// differ from `base`, or all of them on a first snapshot).
    fn stage_index(&self, base: Option<&str>) -> Result<bool, CheckpointError> {
        let index = self.git.git_dir.join("index");
        if !index.exists() {
            let files = excludes::count_files(&self.git.work_tree, MAX_FILES);
            if files > MAX_FILES {
                return Err(CheckpointError::TooManyFiles(MAX_FILES));
            }
        }
        self.git.run(&["add", "-A", "--", "."])?;
        if index_entries(&index).is_some_and(|n| n > MAX_FILES) {
            // Start from a fresh count next time.
            let _ = std::fs::remove_file(&index);
            return Err(CheckpointError::TooManyFiles(MAX_FILES));
        }
        let candidates = match base {
            Some(base) => self
                .git
                .run(&["diff-index", "--cached", "-z", "--name-only", "--no-renames", base])?,
            None => self.git.run(&["ls-files", "-z", "--cached"])?,
        };
        let candidates: Vec<String> = candidates
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        let oversize: Vec<&String> = candidates
            .iter()
            .filter(|p| {
                std::fs::symlink_metadata(self.git.work_tree.join(p))
                    .is_ok_and(|m| m.is_file() && m.len() > MAX_FILE_BYTES)
            })
            .collect();
        for chunk in oversize.chunks(200) {
            tracing::debug!(
                count = chunk.len(),
                "leaving files over the size cap out of the checkpoint"
            );
            let mut args = vec!["rm", "--cached", "--quiet", "--ignore-unmatch", "--"];
            args.extend(chunk.iter().map(|p| p.as_str()));
            self.git.run(&args)?;
        }
        // A dropped big file may still differ from `base` (it was small there): count it.
        Ok(!candidates.is_empty())
    }
}

fn lock_of(m: &Mutex<()>) -> std::sync::MutexGuard<'_, ()> {
    lock(m)
}

/// The entry count in a git index header (`DIRC`, version, count), without running git.
fn index_entries(index: &Path) -> Option<usize> {
    use std::io::Read;
    let mut header = [0u8; 12];
    std::fs::File::open(index).ok()?.read_exact(&mut header).ok()?;
    (&header[..4] == b"DIRC").then(|| u32::from_be_bytes([header[8], header[9], header[10], header[11]]) as usize)
}

/// Parses `diff-tree --raw -z`: `:old new oldsha newsha S\0path\0` per file.
fn parse_raw(out: &[u8]) -> Vec<Change> {
    let mut fields = out.split(|b| *b == 0);
    let mut changes = Vec::new();
    while let (Some(meta), Some(path)) = (fields.next(), fields.next()) {
        let meta = String::from_utf8_lossy(meta);
        let parts: Vec<&str> = meta.trim_start_matches(':').split(' ').collect();
        if parts.len() < 5 {
            continue;
        }
        let kind = match parts[4].chars().next() {
            Some('A') => ChangeKind::Created,
            Some('D') => ChangeKind::Deleted,
            _ => ChangeKind::Modified,
        };
        changes.push(Change {
            path: String::from_utf8_lossy(path).into_owned(),
            kind,
            old_mode: u32::from_str_radix(parts[0], 8).unwrap_or(0),
            old_blob: parts[2].to_string(),
        });
    }
    changes
}

/// Parses `cat-file --batch`: `<id> blob <size>\n<content>\n` per object.
fn parse_batch(out: &[u8], expected: usize) -> Result<Vec<Vec<u8>>, CheckpointError> {
    let mut rest = out;
    let mut blobs = Vec::with_capacity(expected);
    while blobs.len() < expected {
        let nl = memchr::memchr(b'\n', rest).ok_or_else(|| CheckpointError::Corrupt("short cat-file output".into()))?;
        let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| header.contains(" blob "))
            .ok_or_else(|| CheckpointError::Corrupt(format!("unexpected cat-file header: {header}")))?;
        let body = &rest[nl + 1..];
        if body.len() < size {
            return Err(CheckpointError::Corrupt("truncated cat-file output".into()));
        }
        blobs.push(body[..size].to_vec());
        rest = &body[(size + 1).min(body.len())..];
    }
    Ok(blobs)
}

#[cfg(test)]
#[path = "shadow_tests.rs"]
mod tests;
