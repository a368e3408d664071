//! The git directories in the session folder, snapshotted so ref moves are undone too:
//! `HEAD`, `ORIG_HEAD` and the other `*_HEAD` files, `packed-refs`, `refs/`, `logs/` (reflogs,
//! the stash list), `index`, rebase/merge state, `info/`, and the same inside `modules/*`
//! (submodules) and `worktrees/*`. A nested repository (any `.git` but the folder's own) and a
//! submodule keep their object stores too (`objects/`, LFS, annex): deleting the folder of a
//! clone or `git gc --prune` inside it must be undone, and only this snapshot holds them. The
//! folder's own repository's objects are not in the tree: they are kept beside it by hard
//! links (`objects.rs`), which cost no copy however large they are. `hooks/`, `config` and `config.worktree` are kept so a repository deleted
//! whole comes back whole, but a restore only recreates them where they are missing: it never
//! writes over or removes them (commands cannot write them — read-only in the sandbox — and
//! they decide what git runs).
//!
//! A snapshot tree keeps it under its `.git` entry (beside `files/`): one subtree per `.git`
//! entry of the folder, named by its encoded path (`%2Egit`, `vendor%2Flib%2F%2Egit`), plus
//! the snapshot's own records (`excluded`, `left-out`, `cutoff`) that tell a restore what was
//! never in it. Like the folder's files, a metadata file is read again only when its stat data
//! changed since the last snapshot.

use std::path::{Path, PathBuf};

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode, percent_encode};

use super::excludes::Limits;
use super::index_file::StatData;
use super::walk::{self, DotGit, LeftOut, Why};

/// The root tree entry holding the metadata.
pub const ENTRY: &str = ".git";

/// The snapshot's own records (never a `.git` key: keys always end in `%2Egit`).
pub const RECORD_EXCLUDED: &str = "excluded";
pub const RECORD_LEFT_OUT: &str = "left-out";
pub const RECORD_CUTOFF: &str = "cutoff";
pub const RECORD_MODES: &str = "modes";
/// Every record, in the order `records` writes them.
pub const RECORDS: [&str; 4] = [RECORD_EXCLUDED, RECORD_LEFT_OUT, RECORD_CUTOFF, RECORD_MODES];

/// Everything but letters, digits, `-` and `_` is encoded, so a key is one path component
/// git accepts.
const KEY: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_');

/// Top-level entries of a git directory that are never snapshotted or restored (a socket
/// folder).
const SKIPPED_DIRS: &[&[u8]] = &[b"fsmonitor--daemon"];
/// What decides which code git runs: restored only where missing.
const CREATE_ONLY_DIRS: &[&[u8]] = &[b"hooks"];
const CREATE_ONLY_FILES: &[&[u8]] = &[b"config", b"config.worktree"];
/// Object stores: in the tree for nested repositories and submodules; the folder's own are
/// kept by `objects.rs`.
const OBJECT_DIRS: &[&[u8]] = &[b"objects", b"lfs", b"annex"];

/// One metadata file (or record) to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaFile {
    /// Its path under the `.git` entry of the snapshot tree.
    pub path: Vec<u8>,
    pub abs: PathBuf,
    pub stat: StatData,
    pub mode: u32,
}

/// The key of a `.git` entry at walk path `rel`.
pub fn encode_key(rel: &[u8]) -> String {
    percent_encode(rel, KEY).to_string()
}

/// The walk path of a `.git` entry from its key; `None` for records and anything that does
/// not name a `.git` inside the folder.
pub fn decode_key(key: &[u8]) -> Option<Vec<u8>> {
    let rel: Vec<u8> = percent_decode(key).collect();
    let mut parts = rel.split(|b| *b == b'/');
    let valid = parts.clone().next_back() == Some(b".git".as_slice())
        && parts.all(|p| !p.is_empty() && p != b"." && p != b"..");
    valid.then_some(rel)
}

/// The walk path a snapshot tree path stands for: `files/<p>` is `<p>`, `.git/<key>/<rest>`
/// is `<the .git entry>/<rest>`; `None` for records.
pub fn walk_path(tree_path: &[u8]) -> Option<Vec<u8>> {
    if let Some(file) = tree_path.strip_prefix(b"files/") {
        return Some(file.to_vec());
    }
    let inside = tree_path.strip_prefix(b".git/")?;
    let (key, rest) = match memchr::memchr(b'/', inside) {
        Some(i) => (&inside[..i], &inside[i..]),
        None => (inside, &[][..]),
    };
    let mut path = decode_key(key)?;
    path.extend_from_slice(rest);
    Some(path)
}

/// Whether the `.git` entry at walk path `rel` is the folder's own repository, whose object
/// store is not snapshotted.
pub fn is_own(rel: &[u8]) -> bool {
    rel == ENTRY.as_bytes()
}

/// What a restore may do to a path inside a git directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Write, recreate or remove it like any file.
    Free,
    /// Recreate it where it is missing; never write over it or remove it (hooks,
    /// configuration).
    CreateOnly,
    /// Never touch it (the folder's own objects, sockets).
    Never,
}

/// What a restore may do to `rest`, a path inside the git directory at walk path `rel`.
pub fn access(rel: &[u8], rest: &[u8]) -> Access {
    let parts: Vec<&[u8]> = rest.split(|b| *b == b'/').collect();
    let first = parts.first().copied().unwrap_or_default();
    if SKIPPED_DIRS.contains(&first) || (is_own(rel) && OBJECT_DIRS.contains(&first)) {
        return Access::Never;
    }
    let create_only = |p: &&[u8]| CREATE_ONLY_DIRS.contains(p) || CREATE_ONLY_FILES.contains(p);
    // Inside submodules and worktrees the same names sit deeper.
    let nested = matches!(first, b"modules" | b"worktrees");
    if create_only(&first) || (nested && parts.iter().skip(1).any(create_only)) {
        return Access::CreateOnly;
    }
    if nested && parts.iter().skip(1).any(|p| SKIPPED_DIRS.contains(p)) {
        return Access::Never;
    }
    Access::Free
}

/// Lists the metadata files of one `.git` entry of the folder at `root`.
pub fn list(root: &Path, dot_git: &DotGit, limits: Limits, out: &mut Vec<MetaFile>, left_out: &mut Vec<LeftOut>) {
    let abs = walk::absolute(root, &dot_git.path);
    let key = encode_key(&dot_git.path).into_bytes();
    let mut lister = Lister {
        limits,
        out,
        left_out,
        walk_prefix: dot_git.path.clone(),
    };
    if dot_git.is_dir {
        lister.git_dir(&abs, &key, &[], !is_own(&dot_git.path));
    } else {
        lister.file(&abs, key, &[]);
    }
}

struct Lister<'a> {
    limits: Limits,
    out: &'a mut Vec<MetaFile>,
    left_out: &'a mut Vec<LeftOut>,
    /// The `.git` entry's walk path, for naming left-out files.
    walk_prefix: Vec<u8>,
}

impl Lister<'_> {
    /// Lists one git directory; `objects` says whether its object stores are kept.
    fn git_dir(&mut self, abs: &Path, key: &[u8], rest: &[u8], objects: bool) {
        for (name, kind) in sorted(abs) {
            let (child, child_rest) = (abs.join(walk::path_from_bytes(&name)), join(rest, &name));
            let child_key = join(key, &name);
            if kind.is_dir() {
                match name.as_slice() {
                    n if SKIPPED_DIRS.contains(&n) => {}
                    n if !objects && OBJECT_DIRS.contains(&n) => {}
                    b"modules" => self.modules(&child, &child_key, &child_rest),
                    b"worktrees" => {
                        // Linked worktrees share the main repository's objects.
                        for (sub, _) in sorted(&child).into_iter().filter(|(_, k)| k.is_dir()) {
                            let path = child.join(walk::path_from_bytes(&sub));
                            self.git_dir(&path, &join(&child_key, &sub), &join(&child_rest, &sub), objects);
                        }
                    }
                    _ => self.all(&child, &child_key, &child_rest),
                }
            } else if kind.is_file() {
                self.file(&child, child_key, &child_rest);
            }
        }
    }

    /// `modules/` holds submodule git directories, possibly under nested names; a submodule is
    /// a nested repository, so its objects are kept.
    fn modules(&mut self, abs: &Path, key: &[u8], rest: &[u8]) {
        for (name, _) in sorted(abs).into_iter().filter(|(_, k)| k.is_dir()) {
            let child = abs.join(walk::path_from_bytes(&name));
            let (child_key, child_rest) = (join(key, &name), join(rest, &name));
            match child.join("HEAD").is_file() {
                true => self.git_dir(&child, &child_key, &child_rest, true),
                false => self.modules(&child, &child_key, &child_rest),
            }
        }
    }

    fn all(&mut self, abs: &Path, key: &[u8], rest: &[u8]) {
        for (name, kind) in sorted(abs) {
            let child = abs.join(walk::path_from_bytes(&name));
            let (child_key, child_rest) = (join(key, &name), join(rest, &name));
            if kind.is_dir() {
                self.all(&child, &child_key, &child_rest);
            } else if kind.is_file() {
                self.file(&child, child_key, &child_rest);
            }
        }
    }

    fn file(&mut self, abs: &Path, path: Vec<u8>, rest: &[u8]) {
        let named = || {
            let mut p = self.walk_prefix.clone();
            if !rest.is_empty() {
                p.push(b'/');
                p.extend_from_slice(rest);
            }
            p
        };
        let meta = match std::fs::symlink_metadata(abs) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(_) => {
                let path = named();
                self.left_out.push(LeftOut {
                    path,
                    why: Why::Unreadable,
                });
                return;
            }
        };
        let why = if meta.len() > self.limits.max_file_bytes {
            Some(Why::TooBig)
        } else if self.out.len() >= self.limits.max_files {
            Some(Why::PastCount)
        } else {
            // Readability is checked only when the file is read again (`delta.rs`): opening
            // every object of a nested repository at each snapshot would cost more than it.
            None
        };
        if let Some(why) = why {
            let path = named();
            self.left_out.push(LeftOut { path, why });
            return;
        }
        self.out.push(MetaFile {
            path,
            abs: abs.to_path_buf(),
            stat: StatData::of(&meta),
            mode: walk::git_mode(&meta),
        });
    }
}

/// The snapshot's records (name, content): regenerable folders skipped, paths left out, the
/// count cap's cutoff (each NUL-terminated walk paths), and the files' permissions
/// (`modes.rs`).
pub fn records(
    excluded: &[Vec<u8>],
    left_out: &[LeftOut],
    cutoff: Option<&[u8]>,
    modes: Vec<u8>,
) -> Vec<(&'static str, Vec<u8>)> {
    let nul_joined = |paths: &mut dyn Iterator<Item = &[u8]>| {
        let mut out = Vec::new();
        for p in paths {
            out.extend_from_slice(p);
            out.push(0);
        }
        out
    };
    vec![
        (RECORD_EXCLUDED, nul_joined(&mut excluded.iter().map(Vec::as_slice))),
        (
            RECORD_LEFT_OUT,
            nul_joined(&mut left_out.iter().map(|l| l.path.as_slice())),
        ),
        (RECORD_CUTOFF, nul_joined(&mut cutoff.into_iter())),
        (RECORD_MODES, modes),
    ]
}

/// Splits a NUL-terminated record into its paths.
pub fn record_paths(content: &[u8]) -> Vec<Vec<u8>> {
    content
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

fn sorted(dir: &Path) -> Vec<(Vec<u8>, std::fs::FileType)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((walk::path_bytes(Path::new(&e.file_name())), e.file_type().ok()?)))
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    entries
}

fn join(base: &[u8], name: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    if !out.is_empty() {
        out.push(b'/');
    }
    out.extend_from_slice(name);
    out
}

#[cfg(test)]
mod tests;
