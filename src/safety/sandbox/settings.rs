//! The sandbox settings from `config.yaml` (`sandbox:` and `terminal.writable_roots`) and how
//! they become the writable roots of one command.

use std::path::{Path, PathBuf};

use super::SandboxPolicy;

/// `sandbox: workspace-write | read-only | off` in `config.yaml`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SandboxMode {
    /// Writes only in the session cwd, the temp dirs and the configured extra roots.
    #[default]
    WorkspaceWrite,
    /// No writes at all (device nodes aside).
    ReadOnly,
    /// Commands run unsandboxed.
    Off,
}

impl SandboxMode {
    /// Parses the config value; `_` and `-` are interchangeable, case is ignored.
    pub fn parse(value: &str) -> Option<SandboxMode> {
        match value.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "workspace-write" | "workspace" | "on" | "true" => Some(SandboxMode::WorkspaceWrite),
            "read-only" | "readonly" => Some(SandboxMode::ReadOnly),
            "off" | "none" | "false" | "danger-full-access" => Some(SandboxMode::Off),
            _ => None,
        }
    }
}

/// `terminal.network: deny | allow` in `config.yaml`: whether commands get the network without
/// asking (today's peers' behaviour) or run offline until a command is granted it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NetworkMode {
    #[default]
    Deny,
    Allow,
}

impl NetworkMode {
    /// Parses the config value (`allow`/`on`/`true` or `deny`/`off`/`false`, any case).
    pub fn parse(value: &str) -> Option<NetworkMode> {
        match value.trim().to_ascii_lowercase().as_str() {
            "allow" | "allowed" | "on" | "true" | "yes" => Some(NetworkMode::Allow),
            "deny" | "denied" | "off" | "false" | "no" => Some(NetworkMode::Deny),
            _ => None,
        }
    }
}

/// Process-wide sandbox settings, read once from the config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    pub mode: SandboxMode,
    /// `terminal.writable_roots`, already `~`-expanded (relative ones are ignored: there is no
    /// directory they could be relative to that the user would expect).
    pub extra_roots: Vec<PathBuf>,
    /// `terminal.network`.
    pub network: NetworkMode,
    /// What no command may read (see `hidden.rs`), computed once from the home and Hermes'
    /// folder by the composition root.
    pub secrets: super::Hidden,
}

/// One command's circumstances.
#[derive(Debug, Clone, Copy)]
pub struct CommandScope<'a> {
    /// The session's folders (canonical or not; they are canonicalised here).
    pub roots: &'a [PathBuf],
    /// The session's own scratch directory (env snapshot, cwd markers): writable in every mode,
    /// so the shell wrapper can record its state.
    pub private_dir: &'a Path,
    /// Paths inside hidden folders this command may read (the session's saved shell state).
    pub shown: &'a [PathBuf],
    /// The session is in read-only mode: nothing but the scratch directory is writable.
    pub read_only: bool,
    /// The command was granted the network.
    pub network: bool,
    /// Keep the protected paths (git hooks, configs that run code) read-only; false only when
    /// the user approved a write to them.
    pub protect: bool,
    /// Git directories found beyond `<root>/.git` (repositories nested in the project).
    pub git_dirs: &'a [PathBuf],
}

impl SandboxSettings {
    /// The policy of one command, or `None` when the sandbox is off.
    pub fn policy(&self, scope: &CommandScope) -> Option<SandboxPolicy> {
        let mut writable = vec![scope.private_dir.to_path_buf()];
        let roots = canonical_roots(scope.roots.to_vec());
        match self.mode {
            SandboxMode::Off => return None,
            SandboxMode::ReadOnly => {}
            SandboxMode::WorkspaceWrite if scope.read_only => {}
            SandboxMode::WorkspaceWrite => {
                writable.extend(roots.iter().cloned());
                writable.push(std::env::temp_dir());
                writable.extend(std::env::var_os("TMPDIR").map(PathBuf::from));
                writable.extend(self.extra_roots.iter().cloned());
            }
        }
        // The session's shared memory lives in its scratch folder (writable in every mode). It
        // is listed as a root of its own: shown as /dev/shm it is a mount root, and Landlock
        // judges a path by the mounts it crosses, not by the folder the mount came from.
        let shm = scope.private_dir.join("shm");
        let shm = (std::fs::create_dir_all(&shm).is_ok()).then_some(shm);
        writable.extend(shm.clone());
        let writable = canonical_roots(writable);
        let protected = match scope.protect {
            true => super::protected::existing(&roots, scope.git_dirs),
            false => Vec::new(),
        };
        Some(SandboxPolicy {
            shm,
            network: scope.network || self.network == NetworkMode::Allow,
            hidden: self.secrets.hidden.clone(),
            kept: (self.secrets.kept.iter())
                .chain(canonical_roots(scope.shown.to_vec()).iter())
                .cloned()
                .collect(),
            // Only what a command could otherwise write needs protecting.
            protected: protected
                .into_iter()
                .filter(|p| writable.iter().any(|w| p.starts_with(w)))
                .collect(),
            writable,
        })
    }
}

/// Absolute, canonical (symlinks resolved, so `/tmp` → `/private/tmp`-style aliases match what
/// tools print), de-duplicated roots; roots that do not exist are dropped.
fn canonical_roots(roots: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for root in roots.into_iter().filter(|r| r.is_absolute()) {
        let Ok(root) = root.canonicalize() else { continue };
        if !out.contains(&root) {
            out.push(root);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_config_spellings() {
        assert_eq!(SandboxMode::parse("workspace-write"), Some(SandboxMode::WorkspaceWrite));
        assert_eq!(SandboxMode::parse("Workspace_Write"), Some(SandboxMode::WorkspaceWrite));
        assert_eq!(SandboxMode::parse("read-only"), Some(SandboxMode::ReadOnly));
        assert_eq!(SandboxMode::parse("read_only"), Some(SandboxMode::ReadOnly));
        assert_eq!(SandboxMode::parse("off"), Some(SandboxMode::Off));
        assert_eq!(SandboxMode::parse("sometimes"), None);
    }

    fn scope<'a>(roots: &'a [PathBuf], private: &'a Path, read_only: bool) -> CommandScope<'a> {
        CommandScope {
            roots,
            private_dir: private,
            shown: &[],
            read_only,
            network: false,
            protect: true,
            git_dirs: &[],
        }
    }

    #[test]
    fn workspace_write_allows_the_project_temp_and_extra_roots() {
        let project = tempfile::tempdir().unwrap();
        let extra = tempfile::tempdir().unwrap();
        let private = tempfile::tempdir().unwrap();
        let settings = SandboxSettings {
            mode: SandboxMode::WorkspaceWrite,
            extra_roots: vec![extra.path().into(), "relative/ignored".into(), "/no/such/dir".into()],
            ..SandboxSettings::default()
        };
        let roots = [project.path().to_path_buf()];
        let policy = settings.policy(&scope(&roots, private.path(), false)).unwrap();
        let canon = |p: &Path| p.canonicalize().unwrap();
        assert!(policy.writable.contains(&canon(project.path())));
        assert!(policy.writable.contains(&canon(extra.path())));
        assert!(policy.writable.contains(&canon(private.path())));
        assert!(policy.writable.contains(&canon(&std::env::temp_dir())));
        assert!(policy.writable.iter().all(|p| p.is_absolute() && p.exists()));
        assert!(!policy.network);
    }

    #[test]
    fn read_only_keeps_only_the_private_dir_and_off_is_no_policy() {
        let project = tempfile::tempdir().unwrap();
        let private = tempfile::tempdir().unwrap();
        let private_path = private.path().canonicalize().unwrap();
        let only_private = vec![private_path.clone(), private_path.join("shm")];
        let roots = [project.path().to_path_buf()];
        let read_only = SandboxSettings {
            mode: SandboxMode::ReadOnly,
            extra_roots: vec![project.path().into()],
            ..SandboxSettings::default()
        };
        assert_eq!(
            read_only
                .policy(&scope(&roots, private.path(), false))
                .unwrap()
                .writable,
            only_private
        );
        let session_read_only = SandboxSettings::default();
        assert_eq!(
            session_read_only
                .policy(&scope(&roots, private.path(), true))
                .unwrap()
                .writable,
            only_private
        );
        let off = SandboxSettings {
            mode: SandboxMode::Off,
            ..SandboxSettings::default()
        };
        assert_eq!(off.policy(&scope(&roots, private.path(), false)), None);
    }

    #[test]
    fn network_comes_from_the_grant_or_the_config_and_protection_from_the_roots() {
        let project = tempfile::tempdir().unwrap();
        let private = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join(".git/hooks")).unwrap();
        let roots = [project.path().to_path_buf()];
        let settings = SandboxSettings::default();
        let mut granted = scope(&roots, private.path(), false);
        granted.network = true;
        assert!(settings.policy(&granted).unwrap().network);
        let open = SandboxSettings {
            network: NetworkMode::Allow,
            ..SandboxSettings::default()
        };
        let plain = open.policy(&scope(&roots, private.path(), false)).unwrap();
        assert!(plain.network);
        let hooks = project.path().canonicalize().unwrap().join(".git/hooks");
        assert_eq!(plain.protected, vec![hooks]);
        let mut unprotected = scope(&roots, private.path(), false);
        unprotected.protect = false;
        assert!(settings.policy(&unprotected).unwrap().protected.is_empty());
        // Read-only sessions write nothing in the project: nothing there needs protecting.
        assert!(
            settings
                .policy(&scope(&roots, private.path(), true))
                .unwrap()
                .protected
                .is_empty()
        );
        assert_eq!(NetworkMode::parse("Allow"), Some(NetworkMode::Allow));
        assert_eq!(NetworkMode::parse("off"), Some(NetworkMode::Deny));
        assert_eq!(NetworkMode::parse("maybe"), None);
    }
}
