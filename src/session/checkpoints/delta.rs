//! What changed since the cached snapshot, worked out without allocating per unchanged file:
//! the walked files (under `files/`) and metadata files (under `.git/`) whose stat data or
//! mode differ from the cache, the cached paths that are gone, and the records whose content
//! differs. A file about to be read must be readable; one that is not is left out (and
//! recorded as such) rather than failing the snapshot.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::cache::Cache;
use super::import::{Changes, FILES, Wanted};
use super::index_file::StatData;
use super::meta::{self, MetaFile};
use super::walk::{self, Found, LeftOut, Why};

/// The changed paths among `files` and `metadata`; the unreadable files come back apart.
pub fn changes(
    cache: &Cache,
    full: bool,
    root: &Path,
    files: &[Found],
    metadata: &[MetaFile],
) -> (Changes, Vec<LeftOut>) {
    let mut comparison = Comparison {
        cache,
        changes: Changes {
            full,
            ..Changes::default()
        },
        unreadable: Vec::new(),
        matched: 0,
        key: Vec::with_capacity(256),
    };
    for file in files {
        comparison.compare(FILES, &file.path, file.mode, file.stat, || {
            walk::absolute(root, &file.path)
        });
    }
    for file in metadata {
        comparison.compare(meta::ENTRY, &file.path, file.mode, file.stat, || file.abs.clone());
    }
    let Comparison {
        mut changes,
        unreadable,
        matched,
        mut key,
        ..
    } = comparison;
    if !full && matched < cache.entries.len() {
        let mut present: HashSet<Vec<u8>> = HashSet::with_capacity(files.len() + metadata.len());
        let walked = files
            .iter()
            .map(|f| (FILES, &f.path))
            .chain(metadata.iter().map(|f| (meta::ENTRY, &f.path)));
        for (top, path) in walked {
            set_key(&mut key, top, path);
            present.insert(key.clone());
        }
        changes
            .removed
            .extend(cache.entries.keys().filter(|p| !present.contains(*p)).cloned());
    }
    (changes, unreadable)
}

/// A comparison with the cache under way: the changes so far, the entries left out as
/// unreadable, how many cached paths were seen again (when all are, nothing was removed), and
/// the key buffer every entry reuses. Walked files and `.git` metadata files go through the
/// same [`Comparison::compare`]; they differ only in where they sit and where they are read.
struct Comparison<'c> {
    cache: &'c Cache,
    changes: Changes,
    unreadable: Vec<LeftOut>,
    matched: usize,
    key: Vec<u8>,
}

impl Comparison<'_> {
    /// Compares the entry at `top/path` with the cache. One unchanged since the cached
    /// snapshot ends here without allocating; any other is wanted, read from `abs()`, unless it
    /// cannot be opened (a symlink is not opened: its target is what it stores): then it is
    /// left out, and a cached one leaves the snapshot rather than failing it.
    fn compare(&mut self, top: &str, path: &[u8], mode: u32, stat: StatData, abs: impl FnOnce() -> PathBuf) {
        set_key(&mut self.key, top, path);
        let cached = self.cache.entries.contains_key(&self.key);
        self.matched += usize::from(cached);
        if !self.changes.full && cached && self.cache.unchanged(&self.key, mode, &stat) {
            return;
        }
        let abs = abs();
        if mode != SYMLINK && std::fs::File::open(&abs).is_err() {
            self.unreadable.extend(meta::walk_path(&self.key).map(|path| LeftOut {
                path,
                why: Why::Unreadable,
            }));
            if cached {
                self.changes.removed.push(self.key.clone());
            }
            return;
        }
        self.changes.changed.push(Wanted {
            path: self.key.clone(),
            abs,
            stat,
            mode,
        });
    }
}

/// The git mode of a symlink.
const SYMLINK: u32 = 0o120000;

/// Adds the records (name, content) whose content differs from the cached snapshot's.
pub fn add_records(changes: &mut Changes, cache: &Cache, records: Vec<(&str, Vec<u8>)>) {
    let mut key = Vec::new();
    for (name, content) in records {
        set_key(&mut key, meta::ENTRY, name.as_bytes());
        if changes.full || cache.records.get(&key) != Some(&content) {
            changes.inline.push((key.clone(), content));
        }
    }
}

fn set_key(key: &mut Vec<u8>, top: &str, rest: &[u8]) {
    key.clear();
    key.extend_from_slice(top.as_bytes());
    key.push(b'/');
    key.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::super::cache::Cached;
    use super::*;

    fn found(path: &[u8], mode: u32) -> Found {
        Found {
            path: path.to_vec(),
            stat: StatData::default(),
            mode,
            perms: 0o644,
        }
    }

    fn cached() -> Cached {
        Cached {
            mode: 0o100644,
            stat: StatData::default(),
            oid: "0".repeat(40),
        }
    }

    /// Files and `.git` metadata files are compared alike: unchanged ones are not opened,
    /// unopenable ones are left out (and leave the snapshot when cached), symlinks are not
    /// opened, and cached paths not walked again are removed.
    #[test]
    fn walked_and_metadata_files_are_compared_alike() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("new.txt"), "new").unwrap();
        let mut cache = Cache {
            walked: (1, 0),
            ..Cache::default()
        };
        for path in ["files/same.txt", "files/gone.txt", "files/deleted.txt"] {
            cache.entries.insert(path.as_bytes().to_vec(), cached());
        }
        // Changed since the cached snapshot, and no longer openable.
        cache.entries.get_mut(b"files/gone.txt".as_slice()).unwrap().stat.size = 1;
        let files = [
            found(b"same.txt", 0o100644),
            found(b"gone.txt", 0o100644),
            found(b"new.txt", 0o100644),
            found(b"link", SYMLINK),
        ];
        let metadata = [MetaFile {
            path: format!("{}/HEAD", meta::encode_key(b"sub/.git")).into_bytes(),
            abs: root.path().join("sub/.git/HEAD"),
            stat: StatData::default(),
            mode: 0o100644,
        }];
        let (changes, unreadable) = changes(&cache, false, root.path(), &files, &metadata);
        let changed: Vec<_> = changes.changed.iter().map(|w| w.path.as_slice()).collect();
        assert_eq!(changed, [b"files/new.txt".as_slice(), b"files/link"]);
        let left_out: Vec<_> = unreadable.iter().map(|l| (l.path.as_slice(), l.why)).collect();
        assert_eq!(
            left_out,
            [
                (b"gone.txt".as_slice(), Why::Unreadable),
                (b"sub/.git/HEAD", Why::Unreadable)
            ]
        );
        assert_eq!(
            changes.removed,
            [b"files/gone.txt".to_vec(), b"files/deleted.txt".to_vec()]
        );
    }
}
