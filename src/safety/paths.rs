//! Sensitive edit targets: files whose change runs code later or exposes credentials, so an
//! edit of them asks in every mode but yolo — even inside the project, even after "allow edits
//! for this session". Pure: the caller passes the canonical target and the roots.

use std::path::{Component, Path, PathBuf};

/// The roots sensitivity depends on (explicit, so tests need no environment).
#[derive(Debug, Clone)]
pub struct SensitiveRoots {
    pub home: PathBuf,
    /// The active `HERMES_HOME`.
    pub hermes_home: PathBuf,
}

/// Shell start-up files: whatever they contain runs in every new shell.
const SHELL_STARTUP: [&str; 16] = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".xprofile",
    ".xinitrc",
    ".xsessionrc",
];

/// Directories under home whose every file is credentials or code run on login.
const HOME_DIRS: [(&str, &str); 10] = [
    (".ssh", "SSH keys and configuration"),
    (".aws", "cloud credentials"),
    (".gnupg", "GnuPG keys"),
    (".kube", "cluster credentials"),
    (".docker", "registry credentials"),
    (".config/git", "git configuration (can run commands)"),
    (".config/gh", "GitHub credentials"),
    (".config/fish", "shell start-up files"),
    (".config/systemd", "services that run code"),
    (".config/autostart", "programs run at login"),
];

/// Files under home holding credentials or configuration that runs commands.
const HOME_FILES: [(&str, &str); 7] = [
    (".gitconfig", "git configuration (a pager or hook runs commands)"),
    (".netrc", "credentials"),
    (".pgpass", "credentials"),
    (".npmrc", "credentials"),
    (".pypirc", "credentials"),
    (".git-credentials", "credentials"),
    (".config/zed/settings.json", "editor configuration that runs code"),
];

/// Project files that make an editor, a tool or a shell run code the next time they open.
const PROJECT_FILES: [(&str, &str); 16] = [
    (".vscode/tasks.json", "editor tasks run code"),
    (".vscode/settings.json", "editor configuration that runs code"),
    (".vscode/launch.json", "editor launch configuration runs code"),
    (".zed/settings.json", "editor configuration that runs code"),
    (".zed/tasks.json", "editor tasks run code"),
    (".claude/settings.json", "agent configuration that runs code"),
    (".cargo/config.toml", "cargo configuration can run programs"),
    (".cargo/config", "cargo configuration can run programs"),
    (".claude/settings.local.json", "agent configuration that runs code"),
    (".mcp.json", "agent configuration that starts MCP servers"),
    (
        ".devcontainer/devcontainer.json",
        "devcontainer configuration runs commands",
    ),
    (".devcontainer.json", "devcontainer configuration runs commands"),
    (
        ".npmrc",
        "package manager configuration can name a shell or node options",
    ),
    (".yarnrc", "package manager configuration can run programs"),
    (".yarnrc.yml", "package manager configuration can run programs"),
    (".pre-commit-config.yaml", "hooks run on commit"),
];

/// Project directories whose files git runs as hooks once `core.hooksPath` points at them
/// (husky and the common hand-made names).
const HOOK_DIRS: [&str; 3] = [".husky", ".githooks", ".git-hooks"];

/// Names that are secrets wherever they are.
const SECRET_NAMES: [&str; 7] = [
    ".env",
    ".env.local",
    ".env.production",
    ".envrc",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
];

/// Why editing `real` (a canonical path) needs the user's click in every mode, if it does.
pub fn sensitive_reason(real: &Path, roots: &SensitiveRoots) -> Option<String> {
    let hermes = &roots.hermes_home;
    if real == hermes.join(".env") || real == hermes.join("config.yaml") {
        return Some("Hermes configuration and keys".into());
    }
    if real.starts_with("/etc") {
        return Some("system configuration".into());
    }
    if let Some(reason) = git_internal(real) {
        return Some(reason.into());
    }
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if SHELL_STARTUP.contains(&name.as_str()) {
        return Some("shell start-up file (runs in every shell)".into());
    }
    if SECRET_NAMES.contains(&name.as_str()) {
        return Some("secrets file".into());
    }
    if let Ok(rel) = real.strip_prefix(&roots.home) {
        if let Some((_, why)) = HOME_DIRS.iter().find(|(dir, _)| rel.starts_with(dir)) {
            return Some((*why).into());
        }
        if let Some((_, why)) = HOME_FILES.iter().find(|(file, _)| rel == Path::new(file)) {
            return Some((*why).into());
        }
    }
    if let Some(dir) = real
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .find(|c| HOOK_DIRS.contains(&c.as_ref()))
    {
        return Some(format!("git hook directory ({dir}: hooks run on commit, checkout…)"));
    }
    PROJECT_FILES
        .iter()
        .find(|(file, _)| real.ends_with(file))
        .map(|(_, why)| (*why).to_string())
}

/// `.git/config` and `.git/hooks/*` run commands; the rest of `.git` is the repository itself.
fn git_internal(real: &Path) -> Option<&'static str> {
    let parts: Vec<Component> = real.components().collect();
    let git = parts
        .iter()
        .position(|c| c.as_os_str().to_string_lossy().eq_ignore_ascii_case(".git"))?;
    let next = parts
        .get(git + 1)
        .map(|c| c.as_os_str().to_string_lossy().to_lowercase());
    Some(match next.as_deref() {
        Some("config") => "git configuration (can run commands)",
        Some("hooks") => "git hook (runs on commit, checkout…)",
        _ => "git internals",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_targets_and_ordinary_files() {
        let roots = SensitiveRoots {
            home: PathBuf::from("/home/u"),
            hermes_home: PathBuf::from("/home/u/.hermes"),
        };
        let sensitive = [
            "/home/u/.bashrc",
            "/home/u/.zshenv",
            "/home/u/.gitconfig",
            "/home/u/.config/git/config",
            "/home/u/.ssh/authorized_keys",
            "/home/u/.aws/credentials",
            "/home/u/.gnupg/gpg.conf",
            "/home/u/.netrc",
            "/home/u/.hermes/.env",
            "/home/u/.hermes/config.yaml",
            "/etc/hosts",
            "/p/.git/config",
            "/p/.git/hooks/pre-commit",
            "/p/.GIT/HEAD",
            "/p/.env",
            "/p/.envrc",
            "/p/.vscode/tasks.json",
            "/p/.cargo/config.toml",
            "/p/.husky/pre-commit",
            "/p/.githooks/post-checkout",
            "/p/.npmrc",
            "/p/.mcp.json",
            "/p/.devcontainer/devcontainer.json",
        ];
        let unflagged: Vec<_> = sensitive
            .iter()
            .filter(|p| sensitive_reason(Path::new(p), &roots).is_none())
            .collect();
        assert!(unflagged.is_empty(), "not flagged: {unflagged:?}");
        let ordinary = [
            "/p/src/main.rs",
            "/p/README.md",
            "/p/config.yaml",
            "/p/.github/workflows/ci.yml",
            "/home/u/notes.md",
            "/home/u/.hermes/memories/MEMORY.md",
            "/tmp/x",
        ];
        let flagged: Vec<_> = ordinary
            .iter()
            .filter(|p| sensitive_reason(Path::new(p), &roots).is_some())
            .collect();
        assert!(flagged.is_empty(), "flagged: {flagged:?}");
        assert_eq!(
            sensitive_reason(Path::new("/p/.git/hooks/pre-commit"), &roots).as_deref(),
            Some("git hook (runs on commit, checkout…)")
        );
    }
}
