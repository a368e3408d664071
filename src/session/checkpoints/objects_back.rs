//! Putting the folder's own repository's object files back on `/undo` (`objects.rs` keeps
//! them): every kept file missing from the project's `.git` is linked back (copied where a
//! link is impossible), so the refs the restore puts back point at objects that exist. A file
//! the project still has is never touched, nothing is ever removed, and nothing is written
//! through a symlinked folder. An empty `refs/` is recreated with them: git does not take a
//! folder without one for a repository, and a snapshot holds no empty folder.

use std::collections::HashSet;
use std::io;
use std::path::Path;

use super::objects::{self, ALTERNATES, Link, STORE, STORE_PARENTS};

/// What putting the objects back did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PutBack {
    /// Files put back.
    pub count: usize,
    /// What could not be put back, each with why.
    pub failures: Vec<String>,
}

/// Puts back into `<root>/.git` every object file kept in the store of the shadow repository
/// at `shadow` that is missing there.
pub fn put_back(root: &Path, shadow: &Path, link: Link) -> PutBack {
    let mut done = PutBack::default();
    let store = shadow.join(STORE);
    if !store.is_dir() {
        return done;
    }
    let mut pending = vec![String::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(store.join(&rel)) else {
            continue;
        };
        let mut missing = Vec::new();
        let mut present: Option<HashSet<String>> = None;
        for entry in entries.flatten() {
            let (Ok(kind), Some(name)) = (entry.file_type(), entry.file_name().to_str().map(str::to_string)) else {
                continue;
            };
            let child = match rel.is_empty() {
                true => name.clone(),
                false => format!("{rel}/{name}"),
            };
            if kind.is_dir() && (STORE_PARENTS.contains(&child.as_str()) || objects::kept_dir(&rel, &name)) {
                pending.push(child);
            } else if kind.is_file() && (objects::kept_file(&rel, &name) || child == ALTERNATES) {
                // One listing of the project's folder, not a stat per kept file.
                let present = present.get_or_insert_with(|| objects::names(&root.join(".git").join(&rel)));
                if !present.contains(&name) {
                    missing.push(child);
                }
            }
        }
        if missing.is_empty() {
            continue;
        }
        if let Err(e) = real_folder(root, &format!(".git/{rel}")) {
            done.failures.push(format!(".git/{rel}: {e}"));
            continue;
        }
        for child in missing {
            let (from, to) = (store.join(&child), root.join(".git").join(&child));
            // The alternates list is configuration a command may edit in place: a copy.
            let linked = match child == ALTERNATES {
                true => Err(io::Error::other("copied")),
                false => link(&from, &to),
            };
            let put = match linked {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => objects::copy_whole(&from, &to),
                other => other,
            };
            match put {
                Ok(()) => done.count += 1,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => done.failures.push(format!(".git/{child}: {e}")),
            }
        }
    }
    if done.count > 0
        && let Err(e) = real_folder(root, ".git/refs")
    {
        done.failures.push(format!(".git/refs: {e}"));
    }
    done
}

/// Makes `root/rel` a folder, creating what is missing, and refuses when any folder on the way
/// is a symlink or a file (writing through it could land outside the folder).
fn real_folder(root: &Path, rel: &str) -> io::Result<()> {
    let mut at = root.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(io::Error::other(format!(
                    "{} is a symbolic link; nothing is written through it",
                    at.display()
                )));
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(io::Error::other(format!(
                    "{} is in the way (not a folder)",
                    at.display()
                )));
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir(&at)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
