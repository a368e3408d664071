//! The stat cache of a shadow repository (`hermes-cache`): for every path of the last snapshot
//! tree, the stat data, mode and blob id it was stored with, the content of the snapshot's
//! records, and which commit that was. A file whose stat data and mode are unchanged is not
//! read again; a file modified no earlier than the walk that recorded it (git's "racily clean"
//! case) is. Binary, so a 10 000-entry cache loads in a few milliseconds. A cache that does not
//! match the current tip (missing, from an earlier version, torn by a crash, or another process
//! moved the ref) is discarded and the next snapshot rebuilds the tree whole.

use std::collections::HashMap;
use std::path::Path;

use super::index_file::StatData;

const MAGIC: &[u8; 8] = b"HRMSCC02";

/// What one path was stored with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    pub mode: u32,
    pub stat: StatData,
    /// Hex blob id.
    pub oid: String,
}

/// The cache of one shadow repository.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cache {
    /// The commit whose tree the entries describe.
    pub commit: Option<String>,
    /// When the walk that recorded the entries began (seconds, nanoseconds).
    pub walked: (u32, u32),
    /// By tree path.
    pub entries: HashMap<Vec<u8>, Cached>,
    /// The records' content, by tree path.
    pub records: HashMap<Vec<u8>, Vec<u8>>,
}

impl Cache {
    /// Reads the cache at `path`; an absent or unreadable one is empty.
    pub fn load(path: &Path) -> Cache {
        std::fs::read(path).ok().and_then(|b| parse(&b)).unwrap_or_default()
    }

    /// Whether a file at `path` with `mode` and `stat` is stored unchanged.
    pub fn unchanged(&self, path: &[u8], mode: u32, stat: &StatData) -> bool {
        self.entries
            .get(path)
            .is_some_and(|c| c.mode == mode && c.stat.same_file_state(stat) && c.stat.mtime < self.walked)
    }

    /// Writes the cache in place (no new file: creating files is the slow part of a snapshot
    /// on a busy file system). A torn write does not parse, and a failure removes the cache:
    /// either way the next snapshot rebuilds.
    pub fn save(&self, path: &Path) {
        let mut out = Vec::with_capacity(64 + self.entries.len() * 96);
        out.extend_from_slice(MAGIC);
        let commit = self.commit.as_deref().unwrap_or_default();
        out.extend_from_slice(&(commit.len() as u32).to_be_bytes());
        out.extend_from_slice(commit.as_bytes());
        for n in [self.walked.0, self.walked.1, self.entries.len() as u32] {
            out.extend_from_slice(&n.to_be_bytes());
        }
        for (path, c) in &self.entries {
            let s = c.stat;
            for n in [c.mode, s.ctime.0, s.ctime.1, s.mtime.0, s.mtime.1, s.ino, s.size] {
                out.extend_from_slice(&n.to_be_bytes());
            }
            for field in [c.oid.as_bytes(), path.as_slice()] {
                out.extend_from_slice(&(field.len() as u32).to_be_bytes());
                out.extend_from_slice(field);
            }
        }
        out.extend_from_slice(&(self.records.len() as u32).to_be_bytes());
        for (path, content) in &self.records {
            for field in [path.as_slice(), content.as_slice()] {
                out.extend_from_slice(&(field.len() as u32).to_be_bytes());
                out.extend_from_slice(field);
            }
        }
        out.extend_from_slice(MAGIC);
        if std::fs::write(path, out).is_err() {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn parse(bytes: &[u8]) -> Option<Cache> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let commit = String::from_utf8(reader.field()?.to_vec()).ok()?;
    let walked = (reader.u32()?, reader.u32()?);
    let count = reader.u32()? as usize;
    let mut entries = HashMap::with_capacity(count.min(1 << 20));
    for _ in 0..count {
        let n: Vec<u32> = (0..7).map(|_| reader.u32()).collect::<Option<_>>()?;
        let oid = String::from_utf8(reader.field()?.to_vec()).ok()?;
        let path = reader.field()?.to_vec();
        let stat = StatData {
            ctime: (n[1], n[2]),
            mtime: (n[3], n[4]),
            ino: n[5],
            size: n[6],
        };
        entries.insert(path, Cached { mode: n[0], stat, oid });
    }
    let count = reader.u32()? as usize;
    let mut records = HashMap::with_capacity(count.min(16));
    for _ in 0..count {
        let path = reader.field()?.to_vec();
        records.insert(path, reader.field()?.to_vec());
    }
    // The trailing magic: a write cut short is not a cache.
    if reader.take(MAGIC.len())? != MAGIC || reader.at != bytes.len() {
        return None;
    }
    Some(Cache {
        commit: (!commit.is_empty()).then_some(commit),
        walked,
        entries,
        records,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn field(&mut self) -> Option<&'a [u8]> {
        let len = self.u32()? as usize;
        self.take(len)
    }
}

/// Now, as the stat data records times (seconds, nanoseconds).
pub(super) fn now() -> (u32, u32) {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (since.as_secs() as u32, since.subsec_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_cache_loads_back_and_judges_files_by_stat_and_time() {
        let dir = tempfile::tempdir().unwrap();
        let stat = StatData {
            ctime: (10, 1),
            mtime: (10, 2),
            ino: 7,
            size: 3,
        };
        let mut cache = Cache {
            commit: Some("c0ffee".into()),
            walked: (20, 0),
            entries: HashMap::new(),
            records: HashMap::from([(b".git/left-out".to_vec(), b"big.bin\0".to_vec())]),
        };
        cache.entries.insert(
            b"files/a b\n".to_vec(),
            Cached {
                mode: 0o100755,
                stat,
                oid: "ab".repeat(20),
            },
        );
        cache.save(&dir.path().join("cache"));
        let loaded = Cache::load(&dir.path().join("cache"));
        assert_eq!(loaded, cache);
        assert!(loaded.unchanged(b"files/a b\n", 0o100755, &stat));
        assert!(!loaded.unchanged(b"files/a b\n", 0o100644, &stat), "mode");
        assert!(!loaded.unchanged(b"files/other", 0o100755, &stat), "unknown path");
        let touched = StatData { mtime: (10, 3), ..stat };
        assert!(!loaded.unchanged(b"files/a b\n", 0o100755, &touched), "stat");
        let racy = Cache {
            walked: (10, 2),
            ..loaded.clone()
        };
        assert!(
            !racy.unchanged(b"files/a b\n", 0o100755, &stat),
            "modified as the walk began"
        );
        assert_eq!(Cache::load(&dir.path().join("missing")), Cache::default());
        let whole = std::fs::read(dir.path().join("cache")).unwrap();
        std::fs::write(dir.path().join("torn"), &whole[..whole.len() - 3]).unwrap();
        assert_eq!(Cache::load(&dir.path().join("torn")), Cache::default());
    }
}
