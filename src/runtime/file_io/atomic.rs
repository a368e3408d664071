//! The whole-file write for callers that name a path of their own (memory, skills): the path
//! is resolved once (links followed, so a link survives and its target changes) and the
//! resolved path is written below `/` through directory descriptors (`beneath`), so a
//! directory swapped for a link between the two fails instead of redirecting the write.

use std::io;
use std::path::Path;

use super::beneath::{Durability, FileMode, RootedPath, write_beneath};
use super::real_path;

/// Writes `bytes` to `path` atomically: a temp file in the same directory renamed over the
/// target, its permission bits kept, missing parent directories created, a directory refused.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = RootedPath::absolute(&real_path(path));
    write_beneath(&target, bytes, FileMode::Keep, Durability::Synced).map_err(io::Error::from)
}
