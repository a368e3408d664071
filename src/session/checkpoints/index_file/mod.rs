//! Reading a git index file (`DIRC`, versions 2, 3 and 4) without running git: the paths it
//! holds with the stat data git recorded for them. A project's index tells the walk which
//! folders it tracks (a tracked `dist/` is source, not output); `StatData` is also what the
//! checkpoint cache compares. Extensions (cache tree, split index…) are not read: the entries
//! come first and are all this needs.

use std::path::Path;

/// One index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// `/`-separated, relative to the work tree, as git stores it.
    pub path: Vec<u8>,
    pub stat: StatData,
    /// `0o100644`, `0o100755`, `0o120000` (symlink), `0o160000` (gitlink).
    pub mode: u32,
}

/// The stat fields git compares to decide a file is unchanged, truncated to 32 bits as the
/// index stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatData {
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub ino: u32,
    pub size: u32,
}

impl StatData {
    /// The stat data of a file's `lstat` result, truncated as git truncates it.
    #[cfg(unix)]
    pub fn of(meta: &std::fs::Metadata) -> StatData {
        use std::os::unix::fs::MetadataExt;
        StatData {
            ctime: (meta.ctime() as u32, meta.ctime_nsec() as u32),
            mtime: (meta.mtime() as u32, meta.mtime_nsec() as u32),
            ino: meta.ino() as u32,
            size: meta.len() as u32,
        }
    }

    /// Without inode and change time (see `same_file_state`).
    #[cfg(not(unix))]
    pub fn of(meta: &std::fs::Metadata) -> StatData {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        StatData {
            ctime: (0, 0),
            mtime: (mtime.as_secs() as u32, mtime.subsec_nanos()),
            ino: 0,
            size: meta.len() as u32,
        }
    }
}

impl StatData {
    /// Whether a file recorded with `self` is unchanged when it now has `now`: every field on
    /// Unix; elsewhere, where this reader has no inode or change time, size and modification
    /// time.
    pub fn same_file_state(&self, now: &StatData) -> bool {
        match cfg!(unix) {
            true => self == now,
            false => self.mtime == now.mtime && self.size == now.size,
        }
    }
}

/// Why an index could not be read.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("reading the index: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a git index this reader understands: {0}")]
    Format(&'static str),
}

/// The entries of the index at `path`; an absent file is an empty index. Object ids are
/// 20 bytes (SHA-1) or 32 (SHA-256): the reader tries both.
pub fn read(path: &Path) -> Result<Vec<IndexEntry>, IndexError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    parse(&bytes, 20).or_else(|_| parse(&bytes, 32))
}

/// Parses index `bytes` whose object ids are `oid_len` bytes long.
pub fn parse(bytes: &[u8], oid_len: usize) -> Result<Vec<IndexEntry>, IndexError> {
    if bytes.len() < 12 || &bytes[..4] != b"DIRC" {
        return Err(IndexError::Format("no DIRC header"));
    }
    let version = be32(bytes, 4).ok_or(IndexError::Format("short header"))?;
    if !(2..=4).contains(&version) {
        return Err(IndexError::Format("unknown version"));
    }
    let count = be32(bytes, 8).ok_or(IndexError::Format("short header"))? as usize;
    let mut entries = Vec::with_capacity(count.min(1 << 20));
    let mut at = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let fixed = 40 + oid_len + 2;
        let head = bytes.get(at..at + fixed).ok_or(IndexError::Format("truncated entry"))?;
        let field = |i: usize| u32::from_be_bytes([head[i * 4], head[i * 4 + 1], head[i * 4 + 2], head[i * 4 + 3]]);
        let flags = u16::from_be_bytes([head[fixed - 2], head[fixed - 1]]);
        let mut name_at = at + fixed;
        if flags & 0x4000 != 0 {
            if version < 3 {
                return Err(IndexError::Format("extended flags in a version 2 index"));
            }
            name_at += 2;
        }
        let entry_stat = StatData {
            ctime: (field(0), field(1)),
            mtime: (field(2), field(3)),
            ino: field(5),
            size: field(9),
        };
        let mode = field(6);
        let path = if version == 4 {
            let (strip, after) = varint(bytes, name_at).ok_or(IndexError::Format("bad path prefix"))?;
            let end = memchr::memchr(0, bytes.get(after..).unwrap_or_default())
                .ok_or(IndexError::Format("unterminated path"))?;
            let keep = previous
                .len()
                .checked_sub(strip)
                .ok_or(IndexError::Format("bad path prefix"))?;
            let mut path = previous[..keep].to_vec();
            path.extend_from_slice(&bytes[after..after + end]);
            at = after + end + 1;
            path
        } else {
            let name_len = (flags & 0x0fff) as usize;
            let rest = bytes.get(name_at..).unwrap_or_default();
            let end = memchr::memchr(0, rest).ok_or(IndexError::Format("unterminated path"))?;
            if name_len < 0x0fff && end != name_len {
                return Err(IndexError::Format("path length mismatch"));
            }
            // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
            let length = name_at - at + end;
            at += (length + 8) & !7;
            rest[..end].to_vec()
        };
        if at > bytes.len() {
            return Err(IndexError::Format("truncated entry"));
        }
        previous.clone_from(&path);
        entries.push(IndexEntry {
            path,
            stat: entry_stat,
            mode,
        });
    }
    Ok(entries)
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Git's offset varint (index version 4): returns the value and the position after it.
fn varint(bytes: &[u8], mut at: usize) -> Option<(usize, usize)> {
    let mut c = *bytes.get(at)?;
    at += 1;
    let mut value = (c & 0x7f) as usize;
    while c & 0x80 != 0 {
        value = value.checked_add(1)?;
        c = *bytes.get(at)?;
        at += 1;
        value = value.checked_mul(128)?.checked_add((c & 0x7f) as usize)?;
    }
    Some((value, at))
}

/// Whether the sorted index `entries` track anything under the folder `dir` (`/`-separated,
/// no trailing slash).
pub fn tracks_under(entries: &[IndexEntry], dir: &[u8]) -> bool {
    let mut prefix = dir.to_vec();
    prefix.push(b'/');
    let first = entries.partition_point(|e| e.path.as_slice() < prefix.as_slice());
    entries.get(first).is_some_and(|e| e.path.starts_with(&prefix))
}

#[cfg(test)]
mod tests;
