//! Paths inside the project that run code later — when the user next runs `git checkout`,
//! opens the folder in an editor, `cd`s into it with direnv, or starts an agent there — and
//! so must not change without a click even though the rest of the project is writable:
//! git hooks (wherever `core.hooksPath` points), `.git/config` (fsmonitor, pager, aliases,
//! filters), a `.git` file that points elsewhere, submodules' hooks and configs, and editor,
//! agent, devcontainer, hook-manager and task-runner configurations.
//!
//! The sandbox makes the existing ones read-only (a bind mount); `missing` lists the names
//! that do not exist yet, which the runtime checks after a command (a new one is removed and
//! reported: a mount cannot protect a path that does not exist).

use std::path::{Path, PathBuf};

/// Project-relative names that make a tool run code the next time it opens the folder.
pub const PROJECT_NAMES: &[&str] = &[
    ".vscode",
    ".idea",
    ".zed",
    ".devcontainer",
    ".envrc",
    ".husky",
    ".githooks",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lefthook.yml",
    ".claude",
    ".cursor",
    ".codex",
    ".gemini",
    ".hermes",
    ".cargo/config.toml",
    ".cargo/config",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnpmfile.cjs",
    ".mise.toml",
    "mise.toml",
];

/// Inside a git directory: what runs code (hooks) or configures code to run (config).
const GIT_NAMES: &[&str] = &["hooks", "config", "config.worktree"];

/// How deep submodule git directories (`.git/modules/a/modules/b/…`) are followed.
const MAX_MODULE_DEPTH: usize = 4;

/// The existing protected paths of every root, canonical and inside a root. `git_dirs` adds
/// git directories found elsewhere (repositories nested in the project).
pub fn existing(roots: &[PathBuf], git_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut add = |path: PathBuf| {
        if let Ok(real) = path.canonicalize()
            && roots.iter().any(|r| real.starts_with(r))
            && !found.contains(&real)
        {
            found.push(real);
        }
    };
    let mut repositories: Vec<PathBuf> = git_dirs.to_vec();
    for root in roots {
        for name in PROJECT_NAMES {
            add(root.join(name));
        }
        let dot_git = root.join(".git");
        match std::fs::symlink_metadata(&dot_git) {
            Ok(meta) if meta.is_file() => {
                // A worktree or submodule: the file says where the repository is.
                add(dot_git.clone());
                if let Some(dir) = gitdir_of_file(&dot_git, root) {
                    repositories.push(dir);
                }
            }
            Ok(_) => repositories.push(dot_git),
            Err(_) => {}
        }
    }
    for repository in repositories {
        for git_dir in with_modules(&repository) {
            for name in GIT_NAMES {
                add(git_dir.join(name));
            }
            if let Some(hooks) = hooks_path(&git_dir) {
                add(hooks);
            }
        }
    }
    found
}

/// Protected names of every root that do not exist yet (checked after a command runs).
pub fn missing(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut names: Vec<&str> = PROJECT_NAMES.to_vec();
    names.push(".git");
    roots
        .iter()
        .flat_map(|root| names.iter().map(move |name| root.join(name)))
        .filter(|path| std::fs::symlink_metadata(path).is_err())
        .collect()
}

/// `repository` and the git directories of its submodules (`modules/**`), bounded.
fn with_modules(repository: &Path) -> Vec<PathBuf> {
    let mut out = vec![repository.to_path_buf()];
    let mut frontier = vec![repository.to_path_buf()];
    for _ in 0..MAX_MODULE_DEPTH {
        let mut next = Vec::new();
        for dir in &frontier {
            let Ok(entries) = std::fs::read_dir(dir.join("modules")) else {
                continue;
            };
            for entry in entries.flatten().take(256) {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    next.push(entry.path());
                }
            }
        }
        if next.is_empty() {
            break;
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

/// The directory a `.git` file (`gitdir: …`) points to, resolved against its work tree.
fn gitdir_of_file(dot_git: &Path, work_tree: &Path) -> Option<PathBuf> {
    let text = read_small(dot_git)?;
    let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    Some(work_tree.join(target))
}

/// `core.hooksPath` of a repository's config, resolved as git resolves it for a work tree
/// (relative to the top of the work tree, `~/` against the home directory is left out: it
/// lies outside the project and the sandbox does not let commands write there anyway).
fn hooks_path(git_dir: &Path) -> Option<PathBuf> {
    let text = read_small(&git_dir.join("config"))?;
    let mut in_core = false;
    let mut value = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_core = line
                .trim_start_matches('[')
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("core");
            continue;
        }
        if !in_core {
            continue;
        }
        if let Some((key, v)) = line.split_once('=')
            && key.trim().eq_ignore_ascii_case("hookspath")
        {
            value = Some(v.trim().trim_matches('"').to_string());
        }
    }
    let value = value?;
    let path = Path::new(&value);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    // The work tree of `<tree>/.git` is `<tree>`; a submodule's lives elsewhere and its
    // relative hooksPath is rare enough to leave to the sweep.
    git_dir.parent().map(|tree| tree.join(path))
}

fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(256 * 1024)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        (dir, root)
    }

    #[test]
    fn finds_hooks_config_hooks_path_modules_and_editor_configs() {
        let (_dir, root) = project();
        for d in [".git/hooks", ".git/modules/sub/hooks", ".husky/_", ".vscode"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join(".git/config"), "[core]\n\thooksPath = .husky/_\n").unwrap();
        std::fs::write(root.join(".git/modules/sub/config"), "").unwrap();
        std::fs::write(root.join(".envrc"), "").unwrap();
        let found = existing(std::slice::from_ref(&root), &[]);
        for expected in [
            ".git/hooks",
            ".git/config",
            ".git/modules/sub/hooks",
            ".git/modules/sub/config",
            ".husky/_",
            ".husky",
            ".vscode",
            ".envrc",
        ] {
            assert!(found.contains(&root.join(expected)), "{expected} not in {found:?}");
        }
        assert!(found.iter().all(|p| p.starts_with(&root)));
    }

    #[test]
    fn a_git_file_and_paths_outside_the_roots() {
        let (_dir, root) = project();
        let (_elsewhere, outside) = project();
        std::fs::create_dir_all(root.join("repo/hooks")).unwrap();
        std::fs::write(root.join(".git"), "gitdir: repo\n").unwrap();
        // A hooksPath outside the project is not ours to protect (nothing writes there).
        std::fs::write(
            root.join("repo/config"),
            format!("[core]\nhooksPath = {}\n", outside.display()),
        )
        .unwrap();
        let found = existing(std::slice::from_ref(&root), &[]);
        assert!(found.contains(&root.join(".git")));
        assert!(found.contains(&root.join("repo/hooks")));
        assert!(found.contains(&root.join("repo/config")));
        assert!(!found.iter().any(|p| p.starts_with(&outside)));
    }

    #[test]
    fn missing_names_are_listed_for_the_sweep() {
        let (_dir, root) = project();
        std::fs::create_dir(root.join(".vscode")).unwrap();
        let missing = missing(std::slice::from_ref(&root));
        assert!(missing.contains(&root.join(".envrc")));
        assert!(missing.contains(&root.join(".git")));
        assert!(!missing.contains(&root.join(".vscode")));
    }
}
