//! Finding git repositories: where a `.git` entry leads (a folder, or the `gitdir:` file of a
//! linked worktree or submodule), the repository a session folder sits in, and where a
//! repository's hooks run from (`core.hooksPath`), which the sandbox keeps read-only.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::git::{self, GIT_TIMEOUT};

/// The git directory a `.git` entry stands for: the folder itself, or the target of a
/// `gitdir: <path>` file (relative to the file's folder). `None` for anything else.
pub fn git_dir(dot_git: &Path) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git.to_path_buf());
    }
    if !meta.is_file() || meta.len() > 4096 {
        return None;
    }
    let text = std::fs::read_to_string(dot_git).ok()?;
    let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
    let target = Path::new(target);
    Some(match target.is_absolute() {
        true => target.to_path_buf(),
        false => dot_git.parent()?.join(target),
    })
}

/// The repository `cwd` sits inside when its own `.git` is in a folder above it: (work tree,
/// git directory).
pub fn enclosing(cwd: &Path) -> Option<(PathBuf, PathBuf)> {
    cwd.ancestors()
        .skip(1)
        .find_map(|dir| git_dir(&dir.join(".git")).map(|g| (dir.to_path_buf(), g)))
}

/// Where the hooks of the repository at `git_dir` run from when `core.hooksPath` is set
/// (the user's global and system configuration included, as `git` itself reads it); relative
/// values are taken from the work tree, as git does. `None` when unset or git cannot say. Git
/// is asked only when a configuration file that applies mentions `hooksPath` or an include.
pub fn hooks_path(git_dir: &Path, work_tree: &Path) -> Option<PathBuf> {
    if !config_files(git_dir).iter().any(|f| may_set_hooks(f)) {
        return None;
    }
    let mut cmd = Command::new("git");
    for name in git::CLEARED {
        cmd.env_remove(name);
    }
    cmd.arg("--git-dir")
        .arg(git_dir)
        .args(["config", "--type=path", "--get", "core.hooksPath"])
        .current_dir(work_tree);
    let out = git::run_command(cmd, None, GIT_TIMEOUT, "config --get core.hooksPath").ok()?;
    let value = String::from_utf8_lossy(&out).trim().to_string();
    (!value.is_empty()).then(|| work_tree.join(value))
}

/// The configuration files git reads for a repository: its own (and, for a linked worktree,
/// the common directory's), the user's and the system's.
fn config_files(git_dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![git_dir.join("config"), git_dir.join("config.worktree")];
    if let Ok(common) = std::fs::read_to_string(git_dir.join("commondir")) {
        files.push(git_dir.join(common.trim()).join("config"));
    }
    let home = crate::runtime::workspace::home_dir();
    match std::env::var_os("GIT_CONFIG_GLOBAL") {
        Some(global) => files.push(PathBuf::from(global)),
        None => {
            files.push(home.join(".gitconfig"));
            let xdg = std::env::var_os("XDG_CONFIG_HOME").map_or_else(|| home.join(".config"), PathBuf::from);
            files.push(xdg.join("git/config"));
        }
    }
    if std::env::var_os("GIT_CONFIG_NOSYSTEM").is_none() {
        files
            .push(std::env::var_os("GIT_CONFIG_SYSTEM").map_or_else(|| PathBuf::from("/etc/gitconfig"), PathBuf::from));
    }
    files
}

/// Whether a configuration file could set `core.hooksPath` (directly or by an include).
fn may_set_hooks(file: &Path) -> bool {
    std::fs::read(file).is_ok_and(|text| {
        let text = text.to_ascii_lowercase();
        memchr::memmem::find(&text, b"hookspath").is_some() || memchr::memmem::find(&text, b"include").is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitdir_files_are_followed_relative_to_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/sub")).unwrap();
        std::fs::write(root.join("repo/sub/.git"), "gitdir: ../.git/modules/sub\n").unwrap();
        assert_eq!(git_dir(&root.join("repo/.git")).unwrap(), root.join("repo/.git"));
        assert_eq!(
            git_dir(&root.join("repo/sub/.git")).unwrap(),
            root.join("repo/sub/../.git/modules/sub")
        );
        assert_eq!(git_dir(&root.join("repo/none/.git")), None);
        let (work_tree, found) = enclosing(&root.join("repo/sub/deeper")).unwrap();
        assert_eq!(work_tree, root.join("repo/sub"));
        assert_eq!(found, root.join("repo/sub/../.git/modules/sub"));
    }
}
