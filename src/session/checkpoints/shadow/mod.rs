//! One shadow repository per session folder, under `HERMES_HOME/checkpoints/<hash>/` (the first
//! 16 hex digits of the SHA-256 of the canonical folder path): a bare repository whose work tree
//! is the folder. A snapshot walks the folder (`walk.rs`), lists the git metadata of the
//! repositories in it (`meta.rs`), compares both with the stat cache of the last snapshot
//! (`cache.rs`) and imports what changed as one commit (`import.rs`): the files under `files/`,
//! the metadata and the snapshot's records under `.git/`. Snapshots are chained on
//! `refs/hermes/checkpoints`, which keeps them all reachable (gc never runs); an unchanged
//! folder costs a walk and no git call. The object files of the folder's own repository are
//! kept beside it by hard links (`objects.rs`), not in the tree. Blocking: call it on the blocking pool.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use sha2::Digest;

use super::CheckpointError;
use super::cache::Cache;
use super::excludes::{self, ATTRIBUTES, Limits};
use super::git::Git;
use super::import::{self, FILES, REF};
use super::modes::Modes;
use super::objects::{self, Link};
use super::parse::{parse_batch, parse_raw};
use super::walk::{self, LeftOut, Why};
use super::{delta, meta, repos};
use crate::sync::lock;

/// One serialising lock per shadow repository in this process: two sessions in one folder
/// share its index.
static LOCKS: LazyLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = LazyLock::new(Default::default);

pub use super::parse::{Change, ChangeKind};

/// A git repository found in or above the session folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoFound {
    pub work_tree: PathBuf,
    pub git_dir: PathBuf,
}

/// A snapshot taken: its commit and what it does not cover.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub commit: String,
    /// Precious paths left out (over the caps, unreadable, unstorable, other VCS metadata).
    pub left_out: Vec<LeftOut>,
    /// Whether the count cap stopped the walk (files after the last one were not looked at).
    pub truncated: bool,
    /// The enclosing repository first, then every `.git` found inside, in walk order.
    pub repos: Vec<RepoFound>,
    /// Why the object files of the folder's own repository could not all be kept; `None`
    /// when they are (or the folder is not a repository).
    pub objects_not_kept: Option<String>,
}

/// What a checkpoint recorded about what it left out, so a restore never removes a file the
/// checkpoint could not see, and the files' permissions. `None` from `records` for checkpoints
/// of earlier versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Records {
    pub excluded: Vec<Vec<u8>>,
    pub left_out: Vec<Vec<u8>>,
    pub cutoff: Option<Vec<u8>>,
    pub modes: Modes,
}

/// The shadow repository of one folder.
pub struct Shadow {
    git: Git,
    lock: Arc<Mutex<()>>,
    limits: Limits,
    /// The checkpoint store, never walked when it lies inside the folder.
    store: PathBuf,
    /// How the folder's own object files are linked into the store, and how much may be
    /// copied where they cannot be.
    object_link: Link,
    copy_limit: u64,
}

/// The folder staged as a commit.
struct Staged {
    commit: String,
    left_out: Vec<LeftOut>,
    truncated: bool,
    repos: Vec<RepoFound>,
    objects_not_kept: Option<String>,
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
        let store = dir.parent().map(Path::to_path_buf).unwrap_or_default();
        let store = store.canonicalize().unwrap_or(store);
        let git = Git::new(dir.clone(), cwd.clone());
        let lock = lock(&LOCKS).entry(dir.clone()).or_default().clone();
        let shadow = Shadow {
            git,
            lock,
            limits: Limits::default(),
            store,
            object_link: objects::hard_link,
            copy_limit: objects::COPY_LIMIT,
        };
        if !dir.join("HEAD").exists() {
            let _held = lock_of(&shadow.lock);
            std::fs::create_dir_all(&dir)?;
            shadow.git.init_bare()?;
            std::fs::create_dir_all(dir.join("info"))?;
            std::fs::write(dir.join("info/attributes"), ATTRIBUTES)?;
            // Which folder this is, for a person looking at HERMES_HOME (as Hermes does).
            std::fs::write(dir.join("HERMES_WORKDIR"), cwd.as_os_str().as_encoded_bytes())?;
        }
        Ok(shadow)
    }

    /// The same repository with other caps (tests).
    pub fn with_limits(mut self, limits: Limits) -> Shadow {
        self.limits = limits;
        self
    }

    /// The same repository linking the folder's own object files with `link` (tests: another
    /// file system), copying at most `copy_limit` bytes where it fails.
    #[cfg(test)]
    pub(crate) fn with_object_link(mut self, link: Link, copy_limit: u64) -> Shadow {
        self.object_link = link;
        self.copy_limit = copy_limit;
        self
    }

    /// Snapshots the folder: a new commit when anything changed since the last snapshot, the
    /// last one otherwise.
    pub fn snapshot(&self, message: &str) -> Result<Snapshot, CheckpointError> {
        let _held = lock_of(&self.lock);
        let staged = self.stage(message)?;
        Ok(Snapshot {
            commit: staged.commit,
            left_out: staged.left_out,
            truncated: staged.truncated,
            repos: staged.repos,
            objects_not_kept: staged.objects_not_kept,
        })
    }

    /// The folder as it is now, as a commit of the shadow repository (the last snapshot when
    /// nothing changed; otherwise a new one on the chain, which `/undo` compares with).
    pub fn current(&self) -> Result<String, CheckpointError> {
        let _held = lock_of(&self.lock);
        Ok(self.stage("the folder as it is now")?.commit)
    }

    /// The paths that differ between the checkpoint `base` and the commit `current`. A
    /// checkpoint of an earlier version (`recorded` false: no records) held the folder's files
    /// at the top of its tree, so it is compared with the files alone.
    pub fn changes(&self, base: &str, current: &str, recorded: bool) -> Result<Vec<Change>, CheckpointError> {
        let current = match recorded {
            true => current.to_string(),
            false => format!("{current}:{FILES}"),
        };
        let out = self
            .git
            .run(&["diff-tree", "-r", "-z", "--no-renames", "--raw", base, &current])?;
        Ok(parse_raw(&out))
    }

    /// How many of the folder's files differ between two snapshots (metadata not counted).
    pub fn count_changes(&self, from: &str, to: &str) -> Result<usize, CheckpointError> {
        let probes: Vec<String> = [from, to]
            .iter()
            .map(|c| format!("{c}:{}/{}", meta::ENTRY, meta::RECORD_LEFT_OUT))
            .collect();
        let probes: Vec<&str> = probes.iter().map(String::as_str).collect();
        let recorded = self.cat(&probes)?;
        let files_of = |commit: &str, recorded: bool| match recorded {
            true => format!("{commit}:{FILES}"),
            false => commit.to_string(),
        };
        let (from, to) = (
            files_of(from, recorded[0].is_some()),
            files_of(to, recorded[1].is_some()),
        );
        let out = self
            .git
            .run(&["diff-tree", "-r", "-z", "--no-renames", "--name-only", &from, &to])?;
        Ok(out.split(|b| *b == 0).filter(|p| !p.is_empty()).count())
    }

    /// The contents of `blobs`, in order, read by one `git cat-file --batch`.
    pub fn blobs(&self, blobs: &[&str]) -> Result<Vec<Vec<u8>>, CheckpointError> {
        self.cat(blobs)?
            .into_iter()
            .map(|b| b.ok_or_else(|| CheckpointError::Corrupt("a checkpoint blob is missing".into())))
            .collect()
    }

    /// What `commit` recorded about the paths it left out; `None` for a checkpoint taken by
    /// an earlier version (which recorded nothing).
    pub fn records(&self, commit: &str) -> Result<Option<Records>, CheckpointError> {
        let wanted: Vec<String> = meta::RECORDS
            .iter()
            .map(|n| format!("{commit}:{}/{n}", meta::ENTRY))
            .collect();
        let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
        let found = self.cat(&wanted)?;
        let [Some(excluded), Some(left_out), Some(cutoff), Some(modes)] = found.as_slice() else {
            return Ok(None);
        };
        let modes = Modes::decode(modes).ok_or_else(|| CheckpointError::Corrupt("unreadable modes record".into()))?;
        Ok(Some(Records {
            excluded: meta::record_paths(excluded),
            left_out: meta::record_paths(left_out),
            cutoff: meta::record_paths(cutoff).into_iter().next(),
            modes,
        }))
    }

    /// The paths of the regular files of the folder as snapshotted in `commit`.
    pub fn files_of(&self, commit: &str) -> Result<Vec<Vec<u8>>, CheckpointError> {
        let out = self.git.run(&["ls-tree", "-r", "-z", &format!("{commit}:{FILES}")])?;
        Ok(out
            .split(|b| *b == 0)
            .filter_map(|line| {
                let tab = memchr::memchr(b'\t', line)?;
                line.starts_with(b"100").then(|| line[tab + 1..].to_vec())
            })
            .collect())
    }

    /// The session folder (canonical).
    pub fn work_tree(&self) -> &Path {
        &self.git.work_tree
    }

    /// The shadow repository's directory.
    pub fn dir(&self) -> &Path {
        &self.git.git_dir
    }

    /// Whether each object name (`<commit>:<path>`) exists.
    pub fn exist(&self, names: &[&str]) -> Result<Vec<bool>, CheckpointError> {
        Ok(self.cat(names)?.into_iter().map(|found| found.is_some()).collect())
    }

    /// Objects by name, `None` for those that do not exist.
    fn cat(&self, names: &[&str]) -> Result<Vec<Option<Vec<u8>>>, CheckpointError> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        let input = names.join("\n") + "\n";
        let out = self.git.run_input(&["cat-file", "--batch"], Some(input.into_bytes()))?;
        parse_batch(&out, names.len())
    }

    /// The last snapshot, read from the loose ref (gc never packs it).
    fn tip(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.git.git_dir.join(REF)).ok()?;
        let id = text.trim();
        (!id.is_empty()).then(|| id.to_string())
    }

    /// Walks the folder and imports what changed since the cached snapshot.
    fn stage(&self, message: &str) -> Result<Staged, CheckpointError> {
        let root = &self.git.work_tree;
        let walked = super::cache::now();
        let skip = self.store.starts_with(root).then_some(self.store.as_path());
        let scan = walk::scan(root, skip, self.limits);
        let tip = self.tip();
        let cache_path = self.git.git_dir.join("hermes-cache");
        let mut cache = Cache::load(&cache_path);
        let full = tip.is_none() || cache.commit != tip;
        let mut left_out = scan.left_out;
        let mut metadata = Vec::new();
        for dot_git in &scan.dot_gits {
            meta::list(root, dot_git, self.limits, &mut metadata, &mut left_out);
        }
        // The folder's own repository (a `.git` folder, not a link to one elsewhere).
        let own = root.join(meta::ENTRY);
        let objects_not_kept = match std::fs::symlink_metadata(&own).is_ok_and(|m| m.is_dir()) {
            true => objects::keep(&own, &self.git.git_dir, self.object_link, self.copy_limit).err(),
            false => None,
        };
        let (mut changes, unreadable) = delta::changes(&cache, full, root, &scan.files, &metadata);
        left_out.extend(unreadable);
        let records = meta::records(
            &scan.excluded,
            &left_out,
            scan.cutoff.as_deref(),
            Modes::of(&scan.files).encode(),
        );
        delta::add_records(&mut changes, &cache, records);
        let commit = match (tip, changes.is_empty()) {
            (Some(tip), true) => tip,
            (tip, _) => {
                if full {
                    // Written by earlier versions, which staged through git's index.
                    let _ = std::fs::remove_file(self.git.git_dir.join("index"));
                }
                let (commit, failed) = import::import(&self.git, tip.as_deref(), changes, message, &mut cache)?;
                cache.walked = walked;
                cache.save(&cache_path);
                left_out.extend(failed.iter().filter_map(|path| {
                    Some(LeftOut {
                        path: meta::walk_path(path)?,
                        why: Why::Unreadable,
                    })
                }));
                commit
            }
        };
        let mut repos: Vec<RepoFound> = repos::enclosing(root)
            .map(|(work_tree, git_dir)| RepoFound { work_tree, git_dir })
            .into_iter()
            .collect();
        repos.extend(scan.dot_gits.iter().filter_map(|d| {
            let dot_git = walk::absolute(root, &d.path);
            Some(RepoFound {
                git_dir: repos::git_dir(&dot_git)?,
                work_tree: dot_git.parent()?.to_path_buf(),
            })
        }));
        Ok(Staged {
            commit,
            left_out,
            truncated: scan.cutoff.is_some(),
            repos,
            objects_not_kept,
        })
    }
}

fn lock_of(m: &Mutex<()>) -> std::sync::MutexGuard<'_, ()> {
    lock(m)
}

#[cfg(test)]
mod tests;
