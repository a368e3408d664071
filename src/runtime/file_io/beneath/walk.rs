//! Opening a directory below a root descriptor without following any link: on Linux one
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)`; when that is
//! missing (`ENOSYS`, a seccomp `EPERM`), on other Unix systems, and whenever it fails (a
//! directory to create, or a precise message to give), a walk that opens one name at a time
//! with `O_NOFOLLOW | O_DIRECTORY` and creates missing directories with `mkdirat`. A link or a
//! non-directory on the way is [`BeneathError::Changed`].

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{self, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{BeneathError, Op};

/// A directory we only resolve names through. Linux's `O_PATH` needs no read permission on it
/// (searching, as a path lookup does, needs only execute permission).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) const DIR_FLAGS: OFlags = OFlags::PATH.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) const DIR_FLAGS: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);

/// Opens the root itself, as given: it is the directory the decision was made against.
pub(super) fn open_root(path: &Path) -> Result<OwnedFd, BeneathError> {
    fs::openat(fs::CWD, path, DIR_FLAGS, Mode::empty()).map_err(|e| BeneathError::io(path, e))
}

/// How directories below an open root are looked up: the root's descriptor and the path
/// messages show it as, whether missing directories are made (mode 0o777 less the umask), and
/// the operation a failure is reported for. The fast path and the walk take the same four
/// things, so they travel together.
pub(super) struct Lookup<'a> {
    pub root: BorrowedFd<'a>,
    pub root_path: &'a Path,
    pub create: bool,
    pub op: Op,
}

impl Lookup<'_> {
    /// Opens the directory `rel` (plain names, possibly empty: the root itself).
    pub fn open_dir(&self, rel: &Path) -> Result<OwnedFd, BeneathError> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if !rel.as_os_str().is_empty()
            && let Some(dir) = open_in_one_call(self.root, rel)
        {
            return Ok(dir);
        }
        self.walk(rel)
    }

    /// One name at a time from the root, never following a link.
    pub fn walk(&self, rel: &Path) -> Result<OwnedFd, BeneathError> {
        let mut dir =
            fs::openat(self.root, ".", DIR_FLAGS, Mode::empty()).map_err(|e| BeneathError::io(self.root_path, e))?;
        let mut shown = self.root_path.to_path_buf();
        for component in rel.components() {
            let Component::Normal(name) = component else {
                return Err(BeneathError::BadPath(rel.to_path_buf()));
            };
            shown.push(name);
            dir = self.open_child(dir.as_fd(), name, &shown)?;
        }
        Ok(dir)
    }

    fn open_child(&self, dir: BorrowedFd<'_>, name: &OsStr, shown: &Path) -> Result<OwnedFd, BeneathError> {
        let mut made = false;
        loop {
            match fs::openat(dir, name, DIR_FLAGS | OFlags::NOFOLLOW, Mode::empty()) {
                Ok(child) => return Ok(child),
                Err(Errno::NOENT) if self.create && !made => {
                    match fs::mkdirat(dir, name, Mode::from_raw_mode(0o777)) {
                        // Someone else made it in between: open whatever is there now, link-free.
                        Ok(()) | Err(Errno::EXIST) => made = true,
                        Err(e) => return Err(BeneathError::io(shown, e)),
                    }
                }
                // O_NOFOLLOW on a link: ELOOP (EMLINK on FreeBSD); O_DIRECTORY on anything else: ENOTDIR.
                Err(Errno::LOOP | Errno::MLINK | Errno::NOTDIR) => {
                    return Err(not_a_directory(dir, name, shown, self.op));
                }
                Err(e) => return Err(BeneathError::io(shown, e)),
            }
        }
    }
}

/// The fast path: the whole directory path in one `openat2`. `None` on any failure; the walk
/// then decides what the failure means (or creates what is missing).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn open_in_one_call(root: BorrowedFd<'_>, rel: &Path) -> Option<OwnedFd> {
    use rustix::fs::ResolveFlags;
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    // EAGAIN: the kernel saw a concurrent rename and could not vouch for the lookup; retrying
    // is what the manual suggests, and the walk is the answer if it keeps happening.
    for _ in 0..3 {
        match fs::openat2(root, rel, DIR_FLAGS | OFlags::NOFOLLOW, Mode::empty(), resolve) {
            Ok(dir) => return Some(dir),
            Err(Errno::AGAIN) => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Names what stands where a directory was expected.
fn not_a_directory(dir: BorrowedFd<'_>, name: &OsStr, shown: &Path, op: Op) -> BeneathError {
    let what = match fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => "is a symbolic link",
        Ok(stat) if FileType::from_raw_mode(stat.st_mode) != FileType::Directory => "is not a directory",
        _ => "was replaced while it was being opened",
    };
    BeneathError::Changed {
        op,
        path: PathBuf::from(shown),
        what,
    }
}

/// The link text at `name` in `dir`, for messages.
pub(super) fn link_text(dir: BorrowedFd<'_>, name: &OsStr) -> String {
    fs::readlinkat(dir, name, Vec::new())
        .map(|target| String::from_utf8_lossy(target.as_bytes()).into_owned())
        .unwrap_or_else(|_| "?".to_string())
}
