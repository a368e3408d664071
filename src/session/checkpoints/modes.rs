//! Permission bits beyond the executable bit git records. A snapshot keeps them as one record:
//! the most common permissions of plain and of executable files, and every file that differs
//! (a private `.env` at 0600, a world-writable file…), so the record stays small whatever the
//! user's umask. A restore gives every file it writes its recorded permissions (a private file
//! comes back private, not with the umask's defaults) and puts back permissions a command
//! changed on files it left otherwise alone (`chmod 600`, `chmod -R g+w`).

use std::collections::HashMap;

use super::walk::Found;

/// Plain files without a record of their own get this when no plain file was seen.
const PLAIN: u32 = 0o644;
const EXECUTABLE: u32 = 0o755;

/// The permission bits of a folder's regular files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modes {
    /// The most common permissions of files without / with the owner's executable bit.
    pub plain: u32,
    pub executable: u32,
    /// Files whose permissions differ from their class's common ones.
    pub exceptions: HashMap<Vec<u8>, u32>,
}

impl Modes {
    /// The permissions of the regular files in `files`.
    pub fn of(files: &[Found]) -> Modes {
        let regular = || files.iter().filter(|f| f.mode != 0o120000);
        let common = |executable: bool, fallback: u32| {
            let mut counts: HashMap<u32, usize> = HashMap::new();
            for file in regular().filter(|f| (f.perms & 0o100 != 0) == executable) {
                *counts.entry(file.perms).or_default() += 1;
            }
            // The most common; the lowest on a tie, so the choice never flips by chance.
            counts
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                .map_or(fallback, |(perms, _)| perms)
        };
        let (plain, executable) = (common(false, PLAIN), common(true, EXECUTABLE));
        let exceptions = regular()
            .filter(|f| f.perms != if f.perms & 0o100 != 0 { executable } else { plain })
            .map(|f| (f.path.clone(), f.perms))
            .collect();
        Modes {
            plain,
            executable,
            exceptions,
        }
    }

    /// The permissions recorded for `path`, a file with or without the executable bit.
    pub fn of_file(&self, path: &[u8], executable: bool) -> u32 {
        self.exceptions.get(path).copied().unwrap_or(match executable {
            true => self.executable,
            false => self.plain,
        })
    }

    /// Whether `other` records the same common permissions (exceptions aside).
    pub fn same_common(&self, other: &Modes) -> bool {
        self.plain == other.plain && self.executable == other.executable
    }

    /// `<plain> <executable>\0` then `<perms> <path>\0` per exception, in path order, octal.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = format!("{:o} {:o}", self.plain, self.executable).into_bytes();
        out.push(0);
        let mut exceptions: Vec<(&Vec<u8>, &u32)> = self.exceptions.iter().collect();
        exceptions.sort();
        for (path, perms) in exceptions {
            out.extend_from_slice(format!("{perms:o} ").as_bytes());
            out.extend_from_slice(path);
            out.push(0);
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Option<Modes> {
        let mut records = bytes.split(|b| *b == 0).filter(|r| !r.is_empty());
        let head = std::str::from_utf8(records.next()?).ok()?;
        let (plain, executable) = head.split_once(' ')?;
        let mut exceptions = HashMap::new();
        for record in records {
            let space = memchr::memchr(b' ', record)?;
            let perms = u32::from_str_radix(std::str::from_utf8(&record[..space]).ok()?, 8).ok()?;
            exceptions.insert(record[space + 1..].to_vec(), perms);
        }
        Some(Modes {
            plain: u32::from_str_radix(plain, 8).ok()?,
            executable: u32::from_str_radix(executable, 8).ok()?,
            exceptions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::checkpoints::index_file::StatData;

    fn found(path: &str, perms: u32) -> Found {
        Found {
            path: path.as_bytes().to_vec(),
            stat: StatData::default(),
            mode: if perms & 0o100 != 0 { 0o100755 } else { 0o100644 },
            perms,
        }
    }

    #[test]
    fn common_permissions_and_exceptions_round_trip() {
        let files = [
            found("a", 0o664),
            found("b", 0o664),
            found(".env", 0o600),
            found("run.sh", 0o755),
            found("build.sh", 0o755),
            found("odd.sh", 0o775),
            found("setuid", 0o4755),
        ];
        let modes = Modes::of(&files);
        assert_eq!((modes.plain, modes.executable), (0o664, 0o755));
        assert_eq!(modes.of_file(b"a", false), 0o664);
        assert_eq!(modes.of_file(b".env", false), 0o600);
        assert_eq!(modes.of_file(b"new", true), 0o755);
        assert_eq!(modes.exceptions.len(), 3, "{modes:?}");
        assert_eq!(Modes::decode(&modes.encode()), Some(modes.clone()));
        let empty = Modes::of(&[]);
        assert_eq!((empty.plain, empty.executable), (0o644, 0o755));
        assert!(!empty.same_common(&modes));
        assert_eq!(Modes::decode(b"junk"), None);
    }
}
