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

/// Process-wide sandbox settings, read once from the config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    pub mode: SandboxMode,
    /// `terminal.writable_roots`, already `~`-expanded (relative ones are ignored: there is no
    /// directory they could be relative to that the user would expect).
    pub extra_roots: Vec<PathBuf>,
}

impl SandboxSettings {
    /// The policy of one command, or `None` when the sandbox is off. `session_root` is the
    /// session's cwd; `read_only` is the session's read-only mode; `private_dir` is the
    /// session's own scratch directory (env snapshot, cwd markers), which stays writable in
    /// every mode so the shell wrapper can record its state.
    pub fn policy(&self, session_root: &Path, read_only: bool, private_dir: &Path) -> Option<SandboxPolicy> {
        let mut writable = vec![private_dir.to_path_buf()];
        match self.mode {
            SandboxMode::Off => return None,
            SandboxMode::ReadOnly => {}
            SandboxMode::WorkspaceWrite if read_only => {}
            SandboxMode::WorkspaceWrite => {
                writable.push(session_root.to_path_buf());
                writable.push(std::env::temp_dir());
                writable.extend(std::env::var_os("TMPDIR").map(PathBuf::from));
                writable.extend(self.extra_roots.iter().cloned());
            }
        }
        Some(SandboxPolicy {
            writable: canonical_roots(writable),
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

    #[test]
    fn workspace_write_allows_the_project_temp_and_extra_roots() {
        let project = tempfile::tempdir().unwrap();
        let extra = tempfile::tempdir().unwrap();
        let private = tempfile::tempdir().unwrap();
        let settings = SandboxSettings {
            mode: SandboxMode::WorkspaceWrite,
            extra_roots: vec![extra.path().into(), "relative/ignored".into(), "/no/such/dir".into()],
        };
        let policy = settings.policy(project.path(), false, private.path()).unwrap();
        let canon = |p: &Path| p.canonicalize().unwrap();
        assert!(policy.writable.contains(&canon(project.path())));
        assert!(policy.writable.contains(&canon(extra.path())));
        assert!(policy.writable.contains(&canon(private.path())));
        assert!(policy.writable.contains(&canon(&std::env::temp_dir())));
        assert!(policy.writable.iter().all(|p| p.is_absolute() && p.exists()));
    }

    #[test]
    fn read_only_keeps_only_the_private_dir_and_off_is_no_policy() {
        let project = tempfile::tempdir().unwrap();
        let private = tempfile::tempdir().unwrap();
        let only_private = vec![private.path().canonicalize().unwrap()];
        let read_only = SandboxSettings {
            mode: SandboxMode::ReadOnly,
            extra_roots: vec![project.path().into()],
        };
        assert_eq!(
            read_only
                .policy(project.path(), false, private.path())
                .unwrap()
                .writable,
            only_private
        );
        let session_read_only = SandboxSettings::default();
        assert_eq!(
            session_read_only
                .policy(project.path(), true, private.path())
                .unwrap()
                .writable,
            only_private
        );
        let off = SandboxSettings {
            mode: SandboxMode::Off,
            extra_roots: vec![],
        };
        assert_eq!(off.policy(project.path(), false, private.path()), None);
    }
}
