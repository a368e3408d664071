//! The folder's own repository's object files, kept beside its shadow repository so `/undo`
//! can bring back commits a command deleted (`rm -rf .git`, `git gc --prune=now`, `git prune`):
//! loose objects (`objects/xx/<id>`), packs with their indexes (`objects/pack/pack-<id>.pack`,
//! `.idx`, `.rev`, `.bitmap`, `.mtimes`, `.promisor`), Git LFS objects (`lfs/objects/xx/yy/<id>`),
//! git-annex objects (`annex/objects/<h>/<h>/<key>/<key>`) and the `objects/info/alternates`
//! list. Object files are named by their content and never
//! written again, so each is kept by a hard link under `<shadow>/own-objects/` (no copy, no
//! disk until the project deletes its own); where a link is impossible (another file system,
//! a refused link), by a copy, as long as all copies stay under `COPY_LIMIT`, else the
//! snapshot says the objects cannot be kept and its coverage is incomplete.
//!
//! Incremental like the stat cache: `hermes-objects` records the stat data of every object
//! folder whose files are all kept; a folder whose stat data is unchanged (and not racily
//! clean) holds no new file and is not read again. Nothing in the project is ever written
//! here; `objects_back.rs` puts missing files back on `/undo`.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::Path;

use super::index_file::StatData;
use super::objects_record::Record;

/// The store of kept files, under the shadow repository, laid out as in the git directory.
pub const STORE: &str = "own-objects";
/// The record of the object folders whose files are all kept.
const RECORD: &str = "hermes-objects";
/// How much the store may hold in copies (hard links are free).
pub const COPY_LIMIT: u64 = 64 << 20;
/// The alternates list: configuration, not content-named, so copied when it changes.
pub const ALTERNATES: &str = "objects/info/alternates";
const MAX_ALTERNATES_BYTES: u64 = 64 << 10;

/// How a file is linked into the store (injectable: tests simulate another file system).
pub type Link = fn(&Path, &Path) -> io::Result<()>;

/// `std::fs::hard_link`, as a `Link`.
pub fn hard_link(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::hard_link(from, to)
}

/// Where a folder sits in an object store, which says which of its entries are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Objects,
    Fanout,
    Pack,
    Lfs,
    LfsFanout,
    LfsLeaf,
    Annex,
    AnnexFanout,
    AnnexHashed,
    AnnexKey,
}

/// The object stores kept, relative to the git directory.
const ROOTS: [(&str, Level); 3] = [
    ("objects", Level::Objects),
    ("lfs/objects", Level::Lfs),
    ("annex/objects", Level::Annex),
];

/// The folders of the store above the object stores.
pub const STORE_PARENTS: &[&str] = &[
    "objects",
    "objects/info",
    "lfs",
    "lfs/objects",
    "annex",
    "annex/objects",
];

const PACK_EXTENSIONS: &[&str] = &["pack", "idx", "rev", "bitmap", "mtimes", "promisor"];

fn hex(name: &str, lengths: &[usize]) -> bool {
    lengths.contains(&name.len()) && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The level of a subfolder `name` of a folder at `level`, if it is walked.
fn child_level(level: Level, name: &str) -> Option<Level> {
    match level {
        Level::Objects if name == "pack" => Some(Level::Pack),
        Level::Objects if hex(name, &[2]) => Some(Level::Fanout),
        Level::Lfs if hex(name, &[2]) => Some(Level::LfsFanout),
        Level::LfsFanout if hex(name, &[2]) => Some(Level::LfsLeaf),
        // git-annex hashes keys into two levels of short alphanumeric folders.
        Level::Annex if short_alphanumeric(name) => Some(Level::AnnexFanout),
        Level::AnnexFanout if short_alphanumeric(name) => Some(Level::AnnexHashed),
        Level::AnnexHashed if !name.starts_with('.') => Some(Level::AnnexKey),
        _ => None,
    }
}

fn short_alphanumeric(name: &str) -> bool {
    (1..=4).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether a file `name` in the folder `rel` at `level` is an object file (temporary files,
/// and an annex key's `.map` and `.cache` beside it, are not).
fn is_object_file(level: Level, rel: &str, name: &str) -> bool {
    match level {
        // SHA-1 and SHA-256 object names, less the two digits of the fan-out folder.
        Level::Fanout => hex(name, &[38, 62]),
        Level::Pack => name
            .strip_prefix("pack-")
            .and_then(|rest| rest.split_once('.'))
            .is_some_and(|(id, ext)| hex(id, &[40, 64]) && PACK_EXTENSIONS.contains(&ext)),
        Level::LfsLeaf => hex(name, &[64]),
        Level::AnnexKey => rel.rsplit('/').next() == Some(name),
        _ => false,
    }
}

/// The level of a folder of the store by its path relative to the git directory.
fn level_of(rel: &str) -> Option<Level> {
    let (root, level) = ROOTS
        .iter()
        .find(|(root, _)| rel == *root || rel.strip_prefix(root).is_some_and(|r| r.starts_with('/')))?;
    rel[root.len()..]
        .split('/')
        .filter(|p| !p.is_empty())
        .try_fold(*level, child_level)
}

/// Whether `name` in the store folder `rel` is a kept object file.
pub fn kept_file(rel: &str, name: &str) -> bool {
    level_of(rel).is_some_and(|level| is_object_file(level, rel, name))
}

/// Whether `name` in the store folder `rel` is a kept subfolder.
pub fn kept_dir(rel: &str, name: &str) -> bool {
    level_of(rel).is_some_and(|level| child_level(level, name).is_some())
}

/// Keeps the object files of the folder's own repository at `git_dir` in the store of the
/// shadow repository at `shadow`. `Err` says why some could not be kept.
pub fn keep(git_dir: &Path, shadow: &Path, link: Link, copy_limit: u64) -> Result<(), String> {
    let record_path = shadow.join(RECORD);
    let old = Record::load(&record_path);
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    for rel in old.dirs.keys() {
        if let Some((parent, name)) = rel.rsplit_once('/') {
            children.entry(parent).or_default().push(name);
        }
    }
    let mut keeper = Keeper {
        git_dir,
        store: shadow.join(STORE),
        link,
        copy_limit,
        old: &old,
        children,
        new: Record {
            scanned: super::cache::now(),
            copied: old.copied,
            dirs: HashMap::new(),
        },
        failure: None,
    };
    for (root, level) in ROOTS {
        keeper.visit(root, level);
    }
    keeper.alternates();
    keeper.new.save(&record_path);
    keeper.failure.map_or(Ok(()), Err)
}

struct Keeper<'a> {
    git_dir: &'a Path,
    store: std::path::PathBuf,
    link: Link,
    copy_limit: u64,
    old: &'a Record,
    /// The recorded subfolders of each recorded folder.
    children: HashMap<&'a str, Vec<&'a str>>,
    new: Record,
    failure: Option<String>,
}

impl Keeper<'_> {
    /// Keeps the object files under the folder `rel`; whether all of them are kept.
    fn visit(&mut self, rel: &str, level: Level) -> bool {
        let abs = self.git_dir.join(rel);
        let meta = match std::fs::symlink_metadata(&abs) {
            Ok(meta) if meta.is_dir() => meta,
            // A missing store has nothing to keep; a symlinked one leads outside the folder.
            _ => return true,
        };
        let stat = StatData::of(&meta);
        let clean = self
            .old
            .dirs
            .get(rel)
            .is_some_and(|old| old.same_file_state(&stat) && old.mtime < self.old.scanned);
        let mut all_kept = true;
        if clean {
            let subdirs: Vec<String> = self
                .children
                .get(rel)
                .into_iter()
                .flatten()
                .map(|s| s.to_string())
                .collect();
            for name in subdirs {
                if let Some(child) = child_level(level, &name) {
                    all_kept &= self.visit(&format!("{rel}/{name}"), child);
                }
            }
        } else {
            let entries = match std::fs::read_dir(&abs) {
                Ok(entries) => entries,
                Err(e) => return self.fail(format!("{rel} cannot be read: {e}")),
            };
            // What the store already holds here: one listing, not a stat per file.
            let mut stored: Option<HashSet<String>> = None;
            for entry in entries.flatten() {
                let (Ok(kind), Some(name)) = (entry.file_type(), entry.file_name().to_str().map(str::to_string)) else {
                    continue;
                };
                let child_rel = format!("{rel}/{name}");
                if kind.is_dir()
                    && let Some(child) = child_level(level, &name)
                {
                    all_kept &= self.visit(&child_rel, child);
                } else if kind.is_file() && is_object_file(level, rel, &name) {
                    if stored.is_none()
                        && let Err(e) = std::fs::create_dir_all(self.store.join(rel))
                    {
                        return self.fail(format!("the checkpoint store cannot be written: {e}"));
                    }
                    let stored = stored.get_or_insert_with(|| names(&self.store.join(rel)));
                    all_kept &= stored.contains(&name) || self.keep_file(&child_rel);
                }
            }
        }
        if all_kept {
            self.new.dirs.insert(rel.to_string(), stat);
        }
        all_kept
    }

    /// Keeps one object file the store does not hold yet.
    fn keep_file(&mut self, rel: &str) -> bool {
        let (from, to) = (self.git_dir.join(rel), self.store.join(rel));
        let linked = match (self.link)(&from, &to) {
            Ok(()) => return true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return true,
            // Deleted since the folder was read: the project no longer holds it.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
            Err(e) => e,
        };
        let size = match std::fs::metadata(&from) {
            Ok(meta) => meta.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
            Err(e) => return self.fail(format!("{rel} cannot be read: {e}")),
        };
        if self.new.copied + size > self.copy_limit {
            return self.fail(format!(
                "they cannot be hard-linked into the checkpoint store ({linked}) and copying them would take more than {} MB",
                self.copy_limit >> 20
            ));
        }
        match copy_whole(&from, &to) {
            Ok(()) => {
                self.new.copied += size;
                true
            }
            Err(e) => self.fail(format!("{rel} cannot be copied into the checkpoint store: {e}")),
        }
    }

    /// Copies the alternates list when it differs from the kept one.
    fn alternates(&mut self) {
        let (from, to) = (self.git_dir.join(ALTERNATES), self.store.join(ALTERNATES));
        let Ok(meta) = std::fs::symlink_metadata(&from) else {
            return;
        };
        if !meta.is_file() || meta.len() > MAX_ALTERNATES_BYTES {
            self.fail(format!("{ALTERNATES} is not a small file"));
            return;
        }
        let current = std::fs::read(&from);
        if current.as_ref().ok() == std::fs::read(&to).ok().as_ref() {
            return;
        }
        let written = current.and_then(|bytes| {
            std::fs::create_dir_all(to.parent().unwrap_or(&self.store))?;
            write_whole(&to, &bytes)
        });
        if let Err(e) = written {
            self.fail(format!("{ALTERNATES} cannot be kept: {e}"));
        }
    }

    /// Records the first failure; returns `false` (not kept).
    fn fail(&mut self, why: String) -> bool {
        tracing::debug!(%why, "the repository's objects are not all kept");
        self.failure
            .get_or_insert_with(|| format!("the repository's objects cannot be kept: {why}"));
        false
    }
}

/// The names in a folder (none when it is missing or unreadable).
pub fn names(dir: &Path) -> HashSet<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect()
}

/// Copies `from` to `to` through a temporary file renamed into place: a kept file is never
/// half a file.
pub fn copy_whole(from: &Path, to: &Path) -> io::Result<()> {
    let tmp = temporary(to);
    let result = std::fs::copy(from, &tmp).and_then(|_| std::fs::rename(&tmp, to));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `to` through a temporary file renamed into place.
pub fn write_whole(to: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temporary(to);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, to));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A temporary name beside `to` that git never takes for an object (not hex).
fn temporary(to: &Path) -> std::path::PathBuf {
    let name = to
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    to.with_file_name(format!(".{name}.hermes-{}", std::process::id()))
}

#[cfg(test)]
mod tests;
