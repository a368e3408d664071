//! Reading git's answers about the shadow repository: the changed paths of `diff-tree --raw
//! -z` and the objects of `cat-file --batch` (a missing one as `None`).

use super::CheckpointError;

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

/// One path that differs between a checkpoint and another tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The tree path, `/`-separated (metadata under `.git/<key>/…`).
    pub path: Vec<u8>,
    pub kind: ChangeKind,
    /// The checkpoint's git mode (`100644`, `100755`, `120000` symlink, `160000` submodule).
    pub old_mode: u32,
    /// The checkpoint's blob id (all zeros for `Created`).
    pub old_blob: String,
}

/// Parses `diff-tree --raw -z`: `:old new oldsha newsha S\0path\0` per file.
pub fn parse_raw(out: &[u8]) -> Vec<Change> {
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
            path: path.to_vec(),
            kind,
            old_mode: u32::from_str_radix(parts[0], 8).unwrap_or(0),
            old_blob: parts[2].to_string(),
        });
    }
    changes
}

/// Parses `cat-file --batch`: `<id> <type> <size>\n<content>\n` per object, `<name> missing\n`
/// for one that does not exist.
pub fn parse_batch(out: &[u8], expected: usize) -> Result<Vec<Option<Vec<u8>>>, CheckpointError> {
    let mut rest = out;
    let mut objects = Vec::with_capacity(expected);
    while objects.len() < expected {
        let nl = memchr::memchr(b'\n', rest).ok_or_else(|| CheckpointError::Corrupt("short cat-file output".into()))?;
        let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
        if header.ends_with(" missing") {
            objects.push(None);
            rest = &rest[nl + 1..];
            continue;
        }
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| CheckpointError::Corrupt(format!("unexpected cat-file header: {header}")))?;
        let body = &rest[nl + 1..];
        if body.len() < size {
            return Err(CheckpointError::Corrupt("truncated cat-file output".into()));
        }
        objects.push(Some(body[..size].to_vec()));
        rest = &body[(size + 1).min(body.len())..];
    }
    Ok(objects)
}
