//! The session's folders and path resolution against them. Every relative path a tool sees is
//! joined to the session cwd, never to the process cwd; `~` expands to the home directory.
//! The editor may give more folders (ACP `additionalDirectories`): a path inside any of them is
//! inside the project, while relative paths still resolve against the cwd. The terminal's
//! current directory (which a `cd` changes) lives here too.

use crate::sync::Part;
use std::path::{Component, Path, PathBuf};

/// A session's folders (its cwd first) plus the shell's current directory: the cwd's one home,
/// a part of the session's state (behind its one short std lock, never held across an
/// `.await`).
#[derive(Debug)]
pub struct Workspace {
    folders: Part<Folders>,
}

/// The folders themselves, as the session's state holds them.
#[derive(Debug, Clone)]
pub struct Folders {
    root: PathBuf,
    /// The folders beside the cwd, in the editor's order.
    additional: Vec<PathBuf>,
    shell_cwd: PathBuf,
}

impl Folders {
    /// Just the cwd, where the shell starts.
    pub fn new(root: PathBuf) -> Folders {
        Folders {
            shell_cwd: root.clone(),
            root,
            additional: Vec::new(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Moves to a new cwd (session/load with another cwd); resets the shell cwd.
    pub fn set_root(&mut self, root: PathBuf) {
        self.shell_cwd = root.clone();
        self.root = root;
    }

    pub fn set_additional(&mut self, roots: Vec<PathBuf>) {
        self.additional = roots;
    }
}

impl Workspace {
    /// A workspace with folders of its own.
    pub fn new(root: PathBuf) -> Workspace {
        Workspace::on(Part::new(Folders::new(root)))
    }

    /// The workspace over `folders`, a part of a session's state.
    pub fn on(folders: Part<Folders>) -> Workspace {
        Workspace { folders }
    }

    /// A workspace with the same folders whose shell starts at the cwd (a subagent's: its
    /// `cd`s stay its own).
    pub fn same_folders(&self) -> Workspace {
        let workspace = Workspace::new(self.root());
        workspace.set_additional(self.additional());
        workspace
    }

    /// The session cwd the editor gave us.
    pub fn root(&self) -> PathBuf {
        self.folders.with(|f| f.root.clone())
    }

    /// The folders beside the cwd.
    pub fn additional(&self) -> Vec<PathBuf> {
        self.folders.with(|f| f.additional.clone())
    }

    pub fn set_additional(&self, roots: Vec<PathBuf>) {
        self.folders.with(|f| f.set_additional(roots));
    }

    /// Every folder of the project: the cwd, then the additional ones.
    pub fn roots(&self) -> Vec<PathBuf> {
        self.folders.with(|folders| {
            let mut roots = vec![folders.root.clone()];
            roots.extend(folders.additional.iter().cloned());
            roots
        })
    }

    /// Moves the session to a new cwd (session/load with another cwd); resets the shell cwd.
    pub fn set_root(&self, root: PathBuf) {
        self.folders.with(|f| f.set_root(root));
    }

    /// Where the next shell command starts (the last `cd` carried over).
    pub fn shell_cwd(&self) -> PathBuf {
        self.folders.with(|f| f.shell_cwd.clone())
    }

    pub fn set_shell_cwd(&self, dir: PathBuf) {
        self.folders.with(|f| f.shell_cwd = dir);
    }

    /// Resolves a user- or model-supplied path: `~` expanded, relative paths joined to the
    /// session cwd, `.` and `..` folded lexically (symlinks are left alone).
    pub fn resolve(&self, raw: &str) -> PathBuf {
        resolve_against(&self.root(), raw)
    }

    /// True when `path` (already resolved) lies inside one of the session's folders.
    pub fn contains(&self, path: &Path) -> bool {
        let path = normalize(path);
        self.roots().iter().any(|root| path.starts_with(normalize(root)))
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
    fn a_path_in_any_folder_is_inside_and_relative_paths_stay_on_the_cwd() {
        let ws = Workspace::new(PathBuf::from("/work/app"));
        ws.set_additional(vec![PathBuf::from("/work/lib")]);
        assert_eq!(ws.resolve("src/a.rs"), PathBuf::from("/work/app/src/a.rs"));
        assert!(ws.contains(Path::new("/work/lib/src/b.rs")));
        assert!(ws.contains(&ws.resolve("../lib/c.rs")));
        assert!(!ws.contains(Path::new("/work/libs/d.rs")));
        let child = ws.same_folders();
        assert_eq!(child.roots(), [PathBuf::from("/work/app"), PathBuf::from("/work/lib")]);
    }

    #[test]
    fn tilde_expands_to_home() {
        let ws = Workspace::new(PathBuf::from("/w"));
        assert_eq!(ws.resolve("~/notes.md"), home_dir().join("notes.md"));
    }
}
