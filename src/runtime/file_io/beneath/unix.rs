//! [`Root`] on Unix: a directory descriptor opened once, and the operations on one name inside
//! a directory resolved below it without following links (`walk.rs`). Writes stage a temp file
//! in that directory and `renameat` it over the name, so a crash or a failure leaves the old
//! file or the new one, never half of each.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{self, AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use super::walk::{self, Lookup, link_text};
use super::{BeneathError, Durability, FileMode, Op, split, staging_name};

/// How a file to read or re-mode is opened: never through a link, never blocking on a FIFO.
const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// The directory an edit was judged inside, held open: every path below it is resolved through
/// descriptors from here.
#[derive(Debug)]
pub struct Root {
    path: PathBuf,
    fd: OwnedFd,
}

/// The directory that holds one name, resolved below a root.
struct Parent<'a> {
    dir: OwnedFd,
    name: &'a OsStr,
    shown: PathBuf,
}

impl Root {
    /// Opens `path` (links in it are followed: it is the directory the decision was made
    /// against, normally already canonical).
    pub fn open(path: &Path) -> Result<Root, BeneathError> {
        Ok(Root {
            fd: walk::open_root(path)?,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lookup(&self, create: bool, op: Op) -> Lookup<'_> {
        Lookup {
            root: self.fd.as_fd(),
            root_path: &self.path,
            create,
            op,
        }
    }

    fn parent<'a>(&self, rel: &'a Path, create: bool, op: Op) -> Result<Parent<'a>, BeneathError> {
        let (parent, name) = split(rel)?;
        Ok(Parent {
            dir: self.lookup(create, op).open_dir(parent)?,
            name,
            shown: self.path.join(rel),
        })
    }

    /// Replaces (or creates) the file at `rel` with `bytes`, creating missing directories. A
    /// directory at `rel` is refused; so is a symlink (the judged path never ends in one).
    pub fn write(&self, rel: &Path, bytes: &[u8], mode: FileMode, durability: Durability) -> Result<(), BeneathError> {
        let parent = self.parent(rel, true, Op::Write)?;
        let old = file_stat(&parent, Op::Write)?.map(|stat| permission_bits(&stat));
        write_in(&parent, bytes, |fresh| mode.bits(old, fresh), durability)
    }

    /// The file at `rel`, `None` when it (or a directory on the way) does not exist.
    pub fn read(&self, rel: &Path) -> Result<Option<Vec<u8>>, BeneathError> {
        let parent = match self.parent(rel, false, Op::Read) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            other => other?,
        };
        let Some(file) = open_file(&parent, Op::Read)? else {
            return Ok(None);
        };
        let mut bytes = Vec::new();
        File::from(file)
            .read_to_end(&mut bytes)
            .map_err(|e| BeneathError::io(&parent.shown, e))?;
        Ok(Some(bytes))
    }

    /// Deletes the file (or link) at `rel`; a directory is refused, a missing file is `NotFound`.
    pub fn remove(&self, rel: &Path, durability: Durability) -> Result<(), BeneathError> {
        let parent = self.parent(rel, false, Op::Remove)?;
        match fs::statat(&parent.dir, parent.name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) if kind(&stat) == FileType::Directory => return Err(BeneathError::IsDirectory(parent.shown)),
            Ok(_) => {}
            Err(e) => return Err(BeneathError::io(&parent.shown, e)),
        }
        // Without AT_REMOVEDIR, a directory swapped in since the check is refused (EISDIR).
        fs::unlinkat(&parent.dir, parent.name, AtFlags::empty()).map_err(|e| BeneathError::io(&parent.shown, e))?;
        sync_dir(&parent.dir, durability);
        Ok(())
    }

    /// Moves the regular file at `rel` to `to_rel` below `to` (the same root or another),
    /// replacing a file there and creating missing directories. Across file systems the bytes
    /// are copied (permission bits kept) and the source deleted.
    pub fn rename(&self, rel: &Path, to: &Root, to_rel: &Path, durability: Durability) -> Result<(), BeneathError> {
        let from = self.parent(rel, false, Op::Move)?;
        match file_stat(&from, Op::Move)? {
            Some(stat) if kind(&stat) == FileType::RegularFile => {}
            Some(_) => return Err(BeneathError::NotRegular(from.shown)),
            None => {
                return Err(BeneathError::io(&from.shown, Errno::NOENT));
            }
        }
        let dest = to.parent(to_rel, true, Op::Move)?;
        file_stat(&dest, Op::Move)?;
        match fs::renameat(&from.dir, from.name, &dest.dir, dest.name) {
            Ok(()) => {}
            Err(Errno::XDEV) => return copy_then_remove(&from, &dest, durability),
            Err(e) => return Err(BeneathError::io(&from.shown, e)),
        }
        sync_dir(&dest.dir, durability);
        sync_dir(&from.dir, durability);
        Ok(())
    }

    /// Sets the permission bits of the regular file at `rel` (judged against its current bits).
    pub fn set_mode(&self, rel: &Path, mode: FileMode) -> Result<(), BeneathError> {
        let parent = self.parent(rel, false, Op::Write)?;
        let Some(file) = open_file(&parent, Op::Write)? else {
            return Err(BeneathError::io(&parent.shown, Errno::NOENT));
        };
        let current = fs::fstat(&file).map(|stat| permission_bits(&stat));
        let current = current.map_err(|e| BeneathError::io(&parent.shown, e))?;
        let wanted = mode.bits(Some(current), current);
        if wanted != current {
            fs::fchmod(&file, Mode::from_raw_mode(wanted as _)).map_err(|e| BeneathError::io(&parent.shown, e))?;
        }
        Ok(())
    }

    /// The permission bits of the file at `rel`, `None` when nothing is there.
    pub fn mode_of(&self, rel: &Path) -> Result<Option<u32>, BeneathError> {
        let parent = self.parent(rel, false, Op::Read)?;
        Ok(file_stat(&parent, Op::Read)?.map(|stat| permission_bits(&stat)))
    }

    /// Makes `rel` a symlink whose text is `link` (staged and renamed over whatever file or
    /// link is there; a directory is refused). The link itself is never followed here.
    pub fn symlink(&self, rel: &Path, link: &OsStr) -> Result<(), BeneathError> {
        let parent = self.parent(rel, true, Op::Write)?;
        if let Ok(stat) = fs::statat(&parent.dir, parent.name, AtFlags::SYMLINK_NOFOLLOW)
            && kind(&stat) == FileType::Directory
        {
            return Err(BeneathError::IsDirectory(parent.shown));
        }
        let staged = loop {
            let candidate = staging_name(parent.name);
            match fs::symlinkat(link, &parent.dir, candidate.as_str()) {
                Ok(()) => break candidate,
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(BeneathError::io(&parent.shown, e)),
            }
        };
        if let Err(e) = fs::renameat(&parent.dir, staged.as_str(), &parent.dir, parent.name) {
            let _ = fs::unlinkat(&parent.dir, staged.as_str(), AtFlags::empty());
            return Err(BeneathError::io(&parent.shown, e));
        }
        Ok(())
    }

    /// Creates the directory `rel` and its missing parents.
    pub fn create_dirs(&self, rel: &Path) -> Result<(), BeneathError> {
        self.lookup(true, Op::Write).open_dir(rel).map(drop)
    }
}

/// What is at the parent's name, without following it: `None` when nothing is; a link or a
/// directory is refused.
fn file_stat(parent: &Parent<'_>, op: Op) -> Result<Option<Stat>, BeneathError> {
    match fs::statat(&parent.dir, parent.name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => match kind(&stat) {
            FileType::Symlink => Err(final_symlink(parent, op)),
            FileType::Directory => Err(BeneathError::IsDirectory(parent.shown.clone())),
            _ => Ok(Some(stat)),
        },
        Err(Errno::NOENT) => Ok(None),
        Err(e) => Err(BeneathError::io(&parent.shown, e)),
    }
}

/// Opens the regular file at the parent's name without following a link; `None` when missing.
fn open_file(parent: &Parent<'_>, op: Op) -> Result<Option<OwnedFd>, BeneathError> {
    let file = match fs::openat(&parent.dir, parent.name, FILE_FLAGS, Mode::empty()) {
        Ok(file) => file,
        Err(Errno::NOENT) => return Ok(None),
        Err(Errno::LOOP | Errno::MLINK) => return Err(final_symlink(parent, op)),
        Err(e) => return Err(BeneathError::io(&parent.shown, e)),
    };
    match fs::fstat(&file).map(|stat| kind(&stat)) {
        Ok(FileType::RegularFile) => Ok(Some(file)),
        Ok(FileType::Directory) => Err(BeneathError::IsDirectory(parent.shown.clone())),
        Ok(_) => Err(BeneathError::NotRegular(parent.shown.clone())),
        Err(e) => Err(BeneathError::io(&parent.shown, e)),
    }
}

/// Stages `bytes` in a fresh temp file beside the name, sets its bits (`bits` gets the fresh
/// file's default) and renames it over the name.
fn write_in(
    parent: &Parent<'_>,
    bytes: &[u8],
    bits: impl FnOnce(u32) -> u32,
    durability: Durability,
) -> Result<(), BeneathError> {
    let (staged, fd) = create_staged(parent)?;
    let mut file = File::from(fd);
    let result = (|| {
        file.write_all(bytes)?;
        let fresh = permission_bits(&fs::fstat(&file)?);
        let wanted = bits(fresh);
        if wanted != fresh {
            fs::fchmod(&file, Mode::from_raw_mode(wanted as _))?;
        }
        if durability == Durability::Synced {
            file.sync_all()?;
        }
        drop(file);
        fs::renameat(&parent.dir, staged.as_str(), &parent.dir, parent.name)?;
        Ok::<(), std::io::Error>(())
    })();
    if let Err(e) = result {
        let _ = fs::unlinkat(&parent.dir, staged.as_str(), AtFlags::empty());
        return Err(BeneathError::io(&parent.shown, e));
    }
    sync_dir(&parent.dir, durability);
    Ok(())
}

/// A new hidden temp file beside the parent's name (`O_EXCL`, never through a link).
fn create_staged(parent: &Parent<'_>) -> Result<(String, OwnedFd), BeneathError> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut last = Errno::EXIST;
    for _ in 0..16 {
        let candidate = staging_name(parent.name);
        match fs::openat(&parent.dir, candidate.as_str(), flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => return Ok((candidate, fd)),
            Err(Errno::EXIST) => last = Errno::EXIST,
            Err(e) => return Err(BeneathError::io(&parent.shown, e)),
        }
    }
    Err(BeneathError::io(&parent.shown, last))
}

/// A rename that crossed file systems: copy (bits kept), then delete the source.
fn copy_then_remove(from: &Parent<'_>, dest: &Parent<'_>, durability: Durability) -> Result<(), BeneathError> {
    let Some(source) = open_file(from, Op::Move)? else {
        return Err(BeneathError::io(&from.shown, Errno::NOENT));
    };
    let bits = fs::fstat(&source).map(|stat| permission_bits(&stat));
    let bits = bits.map_err(|e| BeneathError::io(&from.shown, e))?;
    let mut bytes = Vec::new();
    File::from(source)
        .read_to_end(&mut bytes)
        .map_err(|e| BeneathError::io(&from.shown, e))?;
    write_in(dest, &bytes, |_| bits, durability)?;
    fs::unlinkat(&from.dir, from.name, AtFlags::empty()).map_err(|e| BeneathError::io(&from.shown, e))?;
    sync_dir(&from.dir, durability);
    Ok(())
}

fn final_symlink(parent: &Parent<'_>, op: Op) -> BeneathError {
    BeneathError::FinalSymlink {
        op,
        path: parent.shown.clone(),
        target: link_text(parent.dir.as_fd(), parent.name),
    }
}

/// Flushes a directory entry change (rename, unlink); best effort, as it only adds durability.
fn sync_dir(dir: &OwnedFd, durability: Durability) {
    if durability == Durability::Synced
        && let Ok(readable) = fs::openat(
            dir,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
    {
        let _ = fs::fsync(&readable);
    }
}

fn kind(stat: &Stat) -> FileType {
    FileType::from_raw_mode(stat.st_mode)
}

/// The permission bits (with setuid, setgid and sticky) of a stat.
#[allow(clippy::unnecessary_cast)] // st_mode is u32 on Linux, u16 on macOS
fn permission_bits(stat: &Stat) -> u32 {
    (stat.st_mode as u32) & 0o7777
}
