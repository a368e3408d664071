//! The walk of a session folder for a snapshot: every regular file and symlink, descending
//! into nested git repositories as ordinary folders (their files are snapshotted, not a
//! reference), with each `.git` entry set aside for `meta.rs`. Regenerable folders are skipped
//! by the rule in `excludes.rs`; what is left out for any other reason (size, count, a name
//! git cannot store, an unreadable folder, another VCS) is listed. Each folder's entries are
//! visited in byte order, depth first, so the walk order is the same every time and the count
//! cap always keeps the same files. Symlinks are recorded, never followed.

use std::cmp::Ordering;
use std::fs::{DirEntry, FileType};
use std::path::{Path, PathBuf};

use super::excludes::{self, Limits};
use super::index_file::{self, IndexEntry, StatData};
use super::repos;

/// A file to snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Relative to the session folder, `/`-separated.
    pub path: Vec<u8>,
    pub stat: StatData,
    /// The git mode: `0o100644`, `0o100755` or `0o120000`.
    pub mode: u32,
    /// All permission bits (`0o7777`); 0 where the platform has none.
    pub perms: u32,
}

/// Why a path is not in a snapshot although it is not regenerable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    TooBig,
    PastCount,
    Unreadable,
    /// A name git refuses to store (a `.GIT` that is not a repository, …).
    Unstorable,
    ForeignVcs,
}

impl Why {
    pub fn describe(self) -> &'static str {
        match self {
            Why::TooBig => "over the size cap",
            Why::PastCount => "past the file-count cap",
            Why::Unreadable => "not readable",
            Why::Unstorable => "a name git cannot store",
            Why::ForeignVcs => "another version-control system's metadata",
        }
    }
}

/// A path (a file, or a whole folder) left out of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub path: Vec<u8>,
    pub why: Why,
}

/// A `.git` entry: a git directory, or a `gitdir:` file pointing at one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotGit {
    /// Relative to the session folder (`.git`, `vendor/lib/.git`).
    pub path: Vec<u8>,
    pub is_dir: bool,
}

/// What one walk found.
#[derive(Debug, Default)]
pub struct Scan {
    /// In walk order.
    pub files: Vec<Found>,
    pub dot_gits: Vec<DotGit>,
    /// Regenerable folders skipped.
    pub excluded: Vec<Vec<u8>>,
    pub left_out: Vec<LeftOut>,
    /// The last file snapshotted when the count cap stopped the walk: files after it in walk
    /// order were not looked at.
    pub cutoff: Option<Vec<u8>>,
}

/// The repository a folder of the walk belongs to, for the tracked-folder exception.
struct Repo {
    /// Bytes of a walk path to drop (the repository's folder inside the session folder and
    /// its slash) and what to put before the rest (the session folder's place in the
    /// repository, for a repository above it).
    strip: usize,
    prepend: Vec<u8>,
    index: PathBuf,
    entries: Option<Vec<IndexEntry>>,
}

impl Repo {
    fn tracks(&mut self, dir: &[u8]) -> bool {
        let entries = self.entries.get_or_insert_with(|| {
            index_file::read(&self.index).unwrap_or_else(|e| {
                tracing::debug!(index = %self.index.display(), error = %e, "project index unreadable; nothing counts as tracked");
                Vec::new()
            })
        });
        let mut inside = self.prepend.clone();
        inside.extend_from_slice(&dir[self.strip.min(dir.len())..]);
        index_file::tracks_under(entries, &inside)
    }
}

struct Frame {
    dir: Vec<u8>,
    entries: Vec<(Vec<u8>, FileType, Option<DirEntry>)>,
    next: usize,
    repo: Option<usize>,
}

/// Below this many files one thread reads their stat data; above, every core helps (it is
/// most of a snapshot's work, and a busy machine gives each thread its share).
const PARALLEL_FROM: usize = 2048;

/// Walks `root` (canonical). `skip` is a folder never entered (the checkpoint store itself,
/// when it lies inside the folder).
pub fn scan(root: &Path, skip: Option<&Path>, limits: Limits) -> Scan {
    let mut scan = Scan::default();
    let mut repos: Vec<Repo> = Vec::new();
    let above = repos::enclosing(root).map(|(work_tree, git_dir)| {
        let mut prepend = path_bytes(root.strip_prefix(&work_tree).unwrap_or(Path::new("")));
        if !prepend.is_empty() {
            prepend.push(b'/');
        }
        repos.push(Repo {
            strip: 0,
            prepend,
            index: git_dir.join("index"),
            entries: None,
        });
        0
    });
    let Some(first) = open_frame(root, Vec::new(), above, &mut repos, &mut scan) else {
        return scan;
    };
    let mut stack = vec![first];
    // Files in walk order, their stat data read afterwards (in parallel).
    let mut listed: Vec<(Vec<u8>, DirEntry)> = Vec::new();
    while let Some(frame) = stack.last_mut() {
        let Some((name, kind, entry)) = frame.entries.get_mut(frame.next) else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        let (kind, repo) = (*kind, frame.repo);
        let rel = join(&frame.dir, name);
        if name == b".git" {
            match kind.is_dir() || kind.is_file() {
                true => scan.dot_gits.push(DotGit {
                    path: rel,
                    is_dir: kind.is_dir(),
                }),
                false => scan.left_out.push(LeftOut {
                    path: rel,
                    why: Why::Unstorable,
                }),
            }
        } else if name.eq_ignore_ascii_case(b".git") {
            scan.left_out.push(LeftOut {
                path: rel,
                why: Why::Unstorable,
            });
        } else if kind.is_dir() {
            let abs = absolute(root, &rel);
            if skip.is_some_and(|s| s == abs) {
                continue;
            }
            if excludes::foreign_vcs(name) {
                scan.left_out.push(LeftOut {
                    path: rel,
                    why: Why::ForeignVcs,
                });
                continue;
            }
            let parent = absolute(root, &frame.dir);
            if excludes::regenerable_name(name, &parent) && !repo.is_some_and(|r| repos[r].tracks(&rel)) {
                scan.excluded.push(rel);
                continue;
            }
            if let Some(frame) = open_frame(&abs, rel, repo, &mut repos, &mut scan) {
                stack.push(frame);
            }
        } else if let (true, Some(entry)) = (kind.is_file() || kind.is_symlink(), entry.take()) {
            if listed.len() >= limits.max_files {
                scan.cutoff = listed.last().map(|(p, _)| p.clone());
                scan.left_out.push(LeftOut {
                    path: rel,
                    why: Why::PastCount,
                });
                break;
            }
            listed.push((rel, entry));
        }
    }
    let past_count = scan.left_out.pop_if(|l| l.why == Why::PastCount);
    for (rel, meta) in stat_all(listed) {
        add_file(&mut scan, rel, meta, limits);
    }
    scan.left_out.extend(past_count);
    scan
}

/// The `lstat` of every listed file, in order.
fn stat_all(listed: Vec<(Vec<u8>, DirEntry)>) -> Vec<(Vec<u8>, std::io::Result<std::fs::Metadata>)> {
    let threads = match listed.len() >= PARALLEL_FROM {
        true => std::thread::available_parallelism().map_or(1, |n| n.get().min(8)),
        false => 1,
    };
    if threads == 1 {
        return listed.into_iter().map(|(rel, e)| (rel, e.metadata())).collect();
    }
    let chunk = listed.len().div_ceil(threads);
    let mut parts: Vec<Vec<(Vec<u8>, DirEntry)>> = Vec::with_capacity(threads);
    let mut rest = listed;
    while rest.len() > chunk {
        let tail = rest.split_off(chunk);
        parts.push(rest);
        rest = tail;
    }
    parts.push(rest);
    std::thread::scope(|scope| {
        let workers: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || part.into_iter().map(|(rel, e)| (rel, e.metadata())).collect::<Vec<_>>()))
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    })
}

/// Lists a folder (sorted) and finds its repository. `None` when it cannot be read.
fn open_frame(
    abs: &Path,
    dir: Vec<u8>,
    parent_repo: Option<usize>,
    repos: &mut Vec<Repo>,
    scan: &mut Scan,
) -> Option<Frame> {
    let listing = match std::fs::read_dir(abs) {
        Ok(listing) => listing,
        Err(e) => {
            if e.kind() != std::io::ErrorKind::NotFound {
                scan.left_out.push(LeftOut {
                    path: dir,
                    why: Why::Unreadable,
                });
            }
            return None;
        }
    };
    let mut entries: Vec<(Vec<u8>, FileType, Option<DirEntry>)> = listing
        .flatten()
        .filter_map(|e| Some((path_bytes(Path::new(&e.file_name())), e.file_type().ok()?, Some(e))))
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut repo = parent_repo;
    if entries.iter().any(|(n, ..)| n == b".git")
        && let Some(git_dir) = repos::git_dir(&abs.join(".git"))
    {
        repos.push(Repo {
            strip: if dir.is_empty() { 0 } else { dir.len() + 1 },
            prepend: Vec::new(),
            index: git_dir.join("index"),
            entries: None,
        });
        repo = Some(repos.len() - 1);
    }
    Some(Frame {
        dir,
        entries,
        next: 0,
        repo,
    })
}

/// Records one file from its `lstat` result.
fn add_file(scan: &mut Scan, rel: Vec<u8>, meta: std::io::Result<std::fs::Metadata>, limits: Limits) {
    let meta = match meta {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(_) => {
            scan.left_out.push(LeftOut {
                path: rel,
                why: Why::Unreadable,
            });
            return;
        }
    };
    if meta.is_file() && meta.len() > limits.max_file_bytes {
        scan.left_out.push(LeftOut {
            path: rel,
            why: Why::TooBig,
        });
        return;
    }
    scan.files.push(Found {
        path: rel,
        stat: StatData::of(&meta),
        mode: git_mode(&meta),
        perms: permission_bits(&meta),
    });
}

/// A file's permission bits (`0o7777`); 0 where the platform has none.
pub fn permission_bits(meta: &std::fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

/// The git mode of a file's `lstat`: symlink, executable (owner bit, as git reads it) or not.
pub fn git_mode(meta: &std::fs::Metadata) -> u32 {
    if meta.file_type().is_symlink() {
        return 0o120000;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o100 != 0 {
            return 0o100755;
        }
    }
    0o100644
}

/// The walk order of two paths: folder by folder, each name by its bytes.
pub fn walk_order(a: &[u8], b: &[u8]) -> Ordering {
    a.split(|c| *c == b'/').cmp(b.split(|c| *c == b'/'))
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut rel = Vec::with_capacity(dir.len() + name.len() + 1);
    rel.extend_from_slice(dir);
    if !dir.is_empty() {
        rel.push(b'/');
    }
    rel.extend_from_slice(name);
    rel
}

/// `root` joined with a walk path.
pub fn absolute(root: &Path, rel: &[u8]) -> PathBuf {
    if rel.is_empty() {
        return root.to_path_buf();
    }
    root.join(path_from_bytes(rel))
}

/// A path from its bytes (Unix: any bytes; elsewhere: UTF-8, lossily).
pub fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).replace('/', "\\"))
    }
}

/// A path's bytes, `/`-separated.
pub fn path_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().replace('\\', "/").into_bytes()
    }
}

#[cfg(test)]
mod tests;
