//! Builds, in the parent, the namespace plan a command's child executes (`child.rs`): which
//! namespaces to unshare and the exact mount calls, every path already a C string. Paths are
//! resolved again by the child inside its new mount namespace (descriptors opened here would
//! name mounts of ours, which the kernel refuses to bind there); a path that vanished in
//! between is skipped, and one swapped for a symlink can only move a read-only mount elsewhere.
//!
//! The order matters:
//! 1. `/` becomes a slave tree, so nothing we mount leaks back to the user's namespace.
//! 2. Protected paths inside the writable roots (git hooks, `.git/config`, editor and agent
//!    configs) are bound onto themselves and remounted read-only, after their ancestors up to
//!    the root (`.git` for `.git/hooks`) were bound onto themselves too: a mount point cannot
//!    be renamed or removed, so `mv .git x` cannot swap the repository for a copy with other
//!    hooks. This comes first, so a writable root bound back under a hidden folder carries them.
//! 3. Hidden folders (HERMES_HOME, credential folders): what must stay visible beneath one (a
//!    writable root, the session's scratch folder, read-only skills) is stashed as a detached
//!    mount copy, an empty tmpfs covers the folder, the copies are moved back, and the tmpfs
//!    turns read-only.
//! 4. Hidden files (credential files) get `/dev/null` bound over them.
//! 5. `/dev/shm` becomes the session's own folder (shared memory with processes outside is IPC
//!    too); a folder of ours rather than a tmpfs, so the Landlock grant made in the parent
//!    covers it.

use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::super::{SandboxError, SandboxPolicy};
use super::child::{MountStep, NamespacePlan, STASH_SLOTS};

/// The plan for `policy`: user, mount, PID and IPC namespaces always; a network namespace
/// unless the command was granted the network.
pub(super) fn prepare(policy: &SandboxPolicy) -> Result<NamespacePlan, SandboxError> {
    let mut builder = Builder::default();
    builder.mount(None, Path::new("/"), None, libc::MS_REC | libc::MS_SLAVE, None, false)?;
    builder.protect(policy)?;
    for hidden in &policy.hidden {
        match std::fs::metadata(hidden) {
            Ok(meta) if meta.is_dir() => builder.hide_dir(hidden, policy)?,
            Ok(_) => builder.hide_file(hidden)?,
            Err(_) => {}
        }
    }
    if let Some(shm) = &policy.shm {
        let flags = libc::MS_BIND | libc::MS_REC;
        builder.mount(Some(shm), Path::new("/dev/shm"), None, flags, None, true)?;
    }
    let mut flags = libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if !policy.network {
        flags |= libc::CLONE_NEWNET;
    }
    // SAFETY: plain getters.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    Ok(NamespacePlan {
        flags,
        uid_map: c_string(format!("{uid} {uid} 1\n"))?,
        gid_map: c_string(format!("{gid} {gid} 1\n"))?,
        mounts: builder.steps,
        loopback: !policy.network,
    })
}

#[derive(Default)]
struct Builder {
    steps: Vec<MountStep>,
    slots: usize,
}

impl Builder {
    fn mount(
        &mut self,
        source: Option<&Path>,
        target: &Path,
        fstype: Option<&str>,
        flags: libc::c_ulong,
        data: Option<&str>,
        missing_ok: bool,
    ) -> Result<(), SandboxError> {
        self.steps.push(MountStep::Mount {
            source: source.map(c_path).transpose()?,
            target: c_path(target)?,
            fstype: fstype.map(c_string).transpose()?,
            flags,
            data: data.map(c_string).transpose()?,
            missing_ok,
        });
        Ok(())
    }

    /// Every protected path read-only, its ancestors below a writable root pinned in place.
    fn protect(&mut self, policy: &SandboxPolicy) -> Result<(), SandboxError> {
        let mut pinned: Vec<(&Path, bool)> = Vec::new();
        for path in &policy.protected {
            let Some(root) = policy
                .writable
                .iter()
                .filter(|w| path.starts_with(w))
                .max_by_key(|w| w.as_os_str().len())
            else {
                continue;
            };
            for ancestor in path.ancestors().skip(1).take_while(|a| *a != root.as_path()) {
                if !pinned.iter().any(|(p, _)| *p == ancestor) {
                    pinned.push((ancestor, false));
                }
            }
            match pinned.iter_mut().find(|(p, _)| *p == path.as_path()) {
                Some(entry) => entry.1 = true,
                None => pinned.push((path, true)),
            }
        }
        // Outer mounts first, so an inner one lands on top of them.
        pinned.sort_by_key(|(p, _)| p.components().count());
        for (path, read_only) in pinned {
            self.mount(Some(path), path, None, libc::MS_BIND | libc::MS_REC, None, true)?;
            if read_only {
                let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | locked_flags(path);
                self.mount(None, path, None, flags, None, true)?;
            }
        }
        Ok(())
    }

    /// An empty read-only tmpfs over `dir`, with the paths that must stay visible moved back.
    fn hide_dir(&mut self, dir: &Path, policy: &SandboxPolicy) -> Result<(), SandboxError> {
        // (path, writable) beneath `dir`.
        let mut keep: Vec<(PathBuf, bool)> = Vec::new();
        for root in policy.writable.iter().filter(|r| r.starts_with(dir) && *r != dir) {
            keep.push((root.clone(), true));
        }
        for kept in policy.kept.iter().filter(|k| k.starts_with(dir) && *k != dir) {
            if !keep.iter().any(|(k, _)| kept.starts_with(k)) {
                keep.push((kept.clone(), false));
            }
        }
        let mut stashed = Vec::new();
        for (path, writable) in keep.into_iter().filter(|(p, _)| p.exists()) {
            if self.slots == STASH_SLOTS {
                return Err(SandboxError::Setup(format!(
                    "too many paths to keep visible in {}",
                    dir.display()
                )));
            }
            self.steps.push(MountStep::Stash {
                path: c_path(&path)?,
                slot: self.slots,
            });
            stashed.push((path, writable, self.slots));
            self.slots += 1;
        }
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        self.mount(
            Some(Path::new("tmpfs")),
            dir,
            Some("tmpfs"),
            flags,
            Some("mode=0755,size=1m"),
            false,
        )?;
        for (path, writable, slot) in stashed {
            let mut ancestors: Vec<&Path> = path.ancestors().take_while(|a| *a != dir).collect();
            ancestors.reverse();
            for ancestor in ancestors {
                self.steps.push(MountStep::Mkdir {
                    path: c_path(ancestor)?,
                });
            }
            self.steps.push(MountStep::Place {
                slot,
                target: c_path(&path)?,
            });
            if !writable {
                let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | locked_flags(&path);
                self.mount(None, &path, None, flags, None, false)?;
            }
        }
        self.mount(None, dir, None, libc::MS_REMOUNT | libc::MS_RDONLY | flags, None, false)
    }

    /// `/dev/null` over a file: reads find it empty, writes vanish, it cannot be removed.
    fn hide_file(&mut self, file: &Path) -> Result<(), SandboxError> {
        self.mount(Some(Path::new("/dev/null")), file, None, libc::MS_BIND, None, true)
    }
}

/// `statvfs`'s relatime flag: the kernel's value (`ST_RELATIME`, include/linux/statfs.h), which
/// glibc and musl both pass through; the libc crate defines it for glibc only.
const ST_RELATIME: libc::c_ulong = 0x1000;

/// The per-mount flags of the file system holding `path` that a remount must repeat (the
/// kernel refuses to drop them inside a user namespace).
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = c_path(path) else { return 0 };
    // SAFETY: `statvfs` fills the zeroed struct we own.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut stat) } != 0 {
        return 0;
    }
    let pairs = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (ST_RELATIME, libc::MS_RELATIME),
    ];
    pairs
        .into_iter()
        .filter(|(st, _)| stat.f_flag & *st != 0)
        .fold(0, |acc, (_, ms)| acc | ms)
}

fn c_string(text: impl Into<Vec<u8>>) -> Result<CString, SandboxError> {
    CString::new(text).map_err(|_| SandboxError::Setup("a path contains a NUL byte".into()))
}

fn c_path(path: &Path) -> Result<CString, SandboxError> {
    c_string(OsStr::as_bytes(path.as_os_str()))
}
