//! What changed since the cached snapshot, worked out without allocating per unchanged file:
//! the walked files (under `files/`) and metadata files (under `.git/`) whose stat data or
//! mode differ from the cache, the cached paths that are gone, and the records whose content
//! differs. A file about to be read must be readable; one that is not is left out (and
//! recorded as such) rather than failing the snapshot.

use std::collections::HashSet;
use std::path::Path;

use super::cache::Cache;
use super::import::{Changes, FILES, Wanted};
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
    let mut changes = Changes {
        full,
        ..Changes::default()
    };
    let mut unreadable = Vec::new();
    let mut key = Vec::with_capacity(256);
    // Cached paths seen again: when all are, nothing was removed.
    let mut matched = 0;
    for file in files {
        set_key(&mut key, FILES, &file.path);
        let cached = cache.entries.contains_key(&key);
        matched += usize::from(cached);
        if !full && cached && cache.unchanged(&key, file.mode, &file.stat) {
            continue;
        }
        let abs = walk::absolute(root, &file.path);
        if file.mode != 0o120000 && std::fs::File::open(&abs).is_err() {
            unreadable.push(LeftOut {
                path: file.path.clone(),
                why: Why::Unreadable,
            });
            if cached {
                changes.removed.push(key.clone());
            }
            continue;
        }
        changes.changed.push(Wanted {
            path: key.clone(),
            abs,
            stat: file.stat,
            mode: file.mode,
        });
    }
    for file in metadata {
        set_key(&mut key, meta::ENTRY, &file.path);
        let cached = cache.entries.contains_key(&key);
        matched += usize::from(cached);
        if !full && cached && cache.unchanged(&key, file.mode, &file.stat) {
            continue;
        }
        if std::fs::File::open(&file.abs).is_err() {
            unreadable.extend(meta::walk_path(&key).map(|path| LeftOut {
                path,
                why: Why::Unreadable,
            }));
            if cached {
                changes.removed.push(key.clone());
            }
            continue;
        }
        changes.changed.push(Wanted {
            path: key.clone(),
            abs: file.abs.clone(),
            stat: file.stat,
            mode: file.mode,
        });
    }
    if !full && matched < cache.entries.len() {
        let mut present: HashSet<Vec<u8>> = HashSet::with_capacity(files.len() + metadata.len());
        for file in files {
            set_key(&mut key, FILES, &file.path);
            present.insert(key.clone());
        }
        for file in metadata {
            set_key(&mut key, meta::ENTRY, &file.path);
            present.insert(key.clone());
        }
        changes
            .removed
            .extend(cache.entries.keys().filter(|p| !present.contains(*p)).cloned());
    }
    (changes, unreadable)
}

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
