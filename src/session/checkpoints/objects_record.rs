//! The record of `objects.rs` (`hermes-objects` in the shadow repository): the object folders
//! of the folder's own repository whose files are all kept, with the stat data they had, when
//! they were read, and how many bytes the store holds in copies. Text, a line per folder: at
//! most 258 for git's own objects whatever their number (more with LFS fan-out folders, and
//! one per git-annex key).

use std::collections::HashMap;
use std::path::Path;

use super::index_file::StatData;

const MAGIC: &str = "hermes-objects 1";

/// The record: folders (relative to the git directory) whose files are all kept, with their
/// stat data, when that was read, and how many bytes the store holds in copies.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Record {
    pub scanned: (u32, u32),
    pub copied: u64,
    pub dirs: HashMap<String, StatData>,
}

impl Record {
    pub fn load(path: &Path) -> Record {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| parse(&t))
            .unwrap_or_default()
    }

    pub fn save(&self, path: &Path) {
        let mut out = format!("{MAGIC}\n{} {} {}\n", self.scanned.0, self.scanned.1, self.copied);
        for (rel, s) in &self.dirs {
            let numbers = [s.ctime.0, s.ctime.1, s.mtime.0, s.mtime.1, s.ino, s.size];
            let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
            out.push_str(&format!("{} {rel}\n", numbers.join(" ")));
        }
        // A torn record does not parse: the next snapshot looks at every folder again.
        if std::fs::write(path, out).is_err() {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn parse(text: &str) -> Option<Record> {
    let mut lines = text.lines();
    (lines.next()? == MAGIC).then_some(())?;
    let head: Vec<u64> = lines
        .next()?
        .split(' ')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let [secs, nanos, copied] = head.as_slice() else {
        return None;
    };
    let mut record = Record {
        scanned: (u32::try_from(*secs).ok()?, u32::try_from(*nanos).ok()?),
        copied: *copied,
        dirs: HashMap::new(),
    };
    for line in lines {
        let mut parts = line.splitn(7, ' ');
        let mut n = || parts.next()?.parse::<u32>().ok();
        let (c0, c1, m0, m1, ino, size) = (n()?, n()?, n()?, n()?, n()?, n()?);
        let rel = parts.next()?.to_string();
        let stat = StatData {
            ctime: (c0, c1),
            mtime: (m0, m1),
            ino,
            size,
        };
        record.dirs.insert(rel, stat);
    }
    Some(record)
}
