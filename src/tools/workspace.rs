//! The session's working directory and path resolution against it. Every relative path a tool
//! sees is joined to the session cwd, never to the process cwd; `~` expands to the home
//! directory. The terminal's current directory (which a `cd` changes) lives here too.

use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use crate::sync::lock;

/// A session's workspace root plus the shell's current directory.
#[derive(Debug)]
pub struct Workspace {
    root: Mutex<PathBuf>,
    shell_cwd: Mutex<PathBuf>,
}

impl Workspace {
    pub fn new(root: PathBuf) -> Workspace {
        Workspace {
            shell_cwd: Mutex::new(root.clone()),
            root: Mutex::new(root),
        }
    }

    /// The session cwd the editor gave us.
    pub fn root(&self) -> PathBuf {
        lock(&self.root).clone()
    }

    /// Moves the session to a new cwd (session/load with another cwd); resets the shell cwd.
    pub fn set_root(&self, root: PathBuf) {
        *lock(&self.shell_cwd) = root.clone();
        *lock(&self.root) = root;
    }

    /// Where the next shell command starts (the last `cd` carried over).
    pub fn shell_cwd(&self) -> PathBuf {
        lock(&self.shell_cwd).clone()
    }

    pub fn set_shell_cwd(&self, dir: PathBuf) {
        *lock(&self.shell_cwd) = dir;
    }

    /// Resolves a user- or model-supplied path: `~` expanded, relative paths joined to the
    /// session cwd, `.` and `..` folded lexically (symlinks are left alone).
    pub fn resolve(&self, raw: &str) -> PathBuf {
        resolve_against(&self.root(), raw)
    }

    /// True when `path` (already resolved) lies inside the session cwd.
    pub fn contains(&self, path: &Path) -> bool {
        normalize(path).starts_with(normalize(&self.root()))
    }
}

/// Resolves `raw` against `base` (see [`Workspace::resolve`]).
pub fn resolve_against(base: &Path, raw: &str) -> PathBuf {
    let expanded = expand_home(raw.trim());
    let joined = if expanded.is_absolute() {
        expanded
    } else {
        base.join(expanded)
    };
    normalize(&joined)
}

pub use crate::home::{expand_home, home_dir};

/// Folds `.` and `..` components without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_join_the_session_cwd_not_the_process_cwd() {
        let ws = Workspace::new(PathBuf::from("/work/project"));
        assert_eq!(ws.resolve("src/main.rs"), PathBuf::from("/work/project/src/main.rs"));
        assert_eq!(ws.resolve("./a/../b.txt"), PathBuf::from("/work/project/b.txt"));
        assert_eq!(ws.resolve("/etc/hosts"), PathBuf::from("/etc/hosts"));
        assert!(ws.contains(&ws.resolve("x/y")));
        assert!(!ws.contains(&ws.resolve("../other/file")));
    }

    #[test]
    fn tilde_expands_to_home() {
        let ws = Workspace::new(PathBuf::from("/w"));
        assert_eq!(ws.resolve("~/notes.md"), home_dir().join("notes.md"));
    }
}
