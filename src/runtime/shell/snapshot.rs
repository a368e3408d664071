//! The exported environment and directory of a session's shell, carried from one command to
//! the next so `export X=…`, `source .venv/bin/activate` or `cd sub` persist like in a
//! terminal. A wrapper sources the saved environment before the command and writes the new
//! one (and the final directory) after it.
//!
//! The saved environment is code the next command's shell runs, so where it lives decides who
//! can plant code in it. Two folders:
//! - the *scratch* folder (temp dir, 0700): writable by the session's sandboxed commands (the
//!   wrapper runs inside the sandbox and writes its output there);
//! - the *trusted* folder (under Hermes' folder, which every sandbox hides; this session's is
//!   shown read-only): only the agent and commands outside the sandbox write there.
//!
//! After each command the agent promotes its output into the trusted folder: as `env`, which
//! contained commands source, and — only for a command that itself ran outside the sandbox
//! (approved, or in the editor's terminal) — as `env.outside`, which is all such commands ever
//! source. So a contained command can never get code run outside the sandbox through the shell
//! state; the price is that an `export` made inside the sandbox does not reach a later command
//! that runs outside it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::temp_path;

/// A session's shell state (see the module header). Both folders are created on first use and
/// removed with everything in them when the owner is dropped.
#[derive(Debug, Default)]
pub struct EnvSnapshot {
    scratch: OnceLock<PathBuf>,
    trusted: OnceLock<PathBuf>,
}

/// Where one command reads and writes the shell state.
#[derive(Debug, Clone)]
pub struct RunFiles {
    /// The environment the wrapper sources.
    pub source: PathBuf,
    /// Where the wrapper writes the environment after the command.
    pub output: PathBuf,
    /// Where the wrapper writes the final directory.
    pub marker: PathBuf,
    /// The command runs fully contained.
    contained: bool,
}

impl EnvSnapshot {
    /// The session's private scratch folder (writable by its sandboxed commands).
    pub fn dir(&self) -> &Path {
        self.scratch.get_or_init(|| private_dir(temp_path("shell")))
    }

    /// A fresh file name in the scratch folder (nothing is created).
    pub fn scratch_file(&self, kind: &str) -> PathBuf {
        self.dir().join(format!("{kind}-{}", suffix()))
    }

    /// The trusted folder, under `hermes_home` (the temp dir when there is none, as in tests).
    pub fn trusted_dir(&self, hermes_home: Option<&Path>) -> &Path {
        self.trusted.get_or_init(|| {
            let parent = match hermes_home {
                Some(home) => home.join("hermes-acp").join("shell"),
                None => std::env::temp_dir(),
            };
            let _ = create_private(&parent, true);
            private_dir(parent.join(format!("state-{}-{}", std::process::id(), suffix())))
        })
    }

    /// The saved environment a command sources: the latest for a contained command, the latest
    /// written outside the sandbox for one that runs outside it.
    pub fn source(&self, hermes_home: Option<&Path>, contained: bool) -> PathBuf {
        self.trusted_dir(hermes_home)
            .join(if contained { "env" } else { "env.outside" })
    }

    /// The files of one foreground command: a contained one writes into the scratch folder
    /// (the agent promotes the output afterwards), one outside the sandbox straight into the
    /// trusted folder.
    pub fn run_files(&self, hermes_home: Option<&Path>, contained: bool) -> RunFiles {
        let out_dir = match contained {
            true => self.dir().to_path_buf(),
            false => self.trusted_dir(hermes_home).to_path_buf(),
        };
        RunFiles {
            source: self.source(hermes_home, contained),
            output: out_dir.join(format!("env.next-{}", suffix())),
            marker: out_dir.join(format!("cwd-{}", suffix())),
            contained,
        }
    }

    /// After the command: its saved environment becomes the session's (see the module header);
    /// the output file is removed. Nothing happens when the wrapper wrote none.
    pub fn commit(&self, hermes_home: Option<&Path>, files: &RunFiles) {
        let Ok(text) = std::fs::read(&files.output) else { return };
        let _ = std::fs::remove_file(&files.output);
        let trusted = self.trusted_dir(hermes_home);
        let mut targets = vec![trusted.join("env")];
        if !files.contained {
            targets.push(trusted.join("env.outside"));
        }
        for target in targets {
            let staged = trusted.join(format!("staged-{}", suffix()));
            if write_private(&staged, &text).is_ok() && std::fs::rename(&staged, &target).is_err() {
                let _ = std::fs::remove_file(&staged);
            }
        }
    }
}

impl Drop for EnvSnapshot {
    fn drop(&mut self) {
        for dir in [self.scratch.get(), self.trusted.get()].into_iter().flatten() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn suffix() -> String {
    (0..12).map(|_| fastrand::alphanumeric()).collect()
}

/// Creates `dir` (0700) and returns it; on failure commands still run, the wrapper just cannot
/// carry `cd`/`export` over.
fn private_dir(dir: PathBuf) -> PathBuf {
    if let Err(e) = create_private(&dir, false) {
        tracing::warn!(dir = %dir.display(), error = %e, "cannot create a shell state folder");
    }
    dir
}

fn create_private(dir: &Path, recursive: bool) -> std::io::Result<()> {
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(recursive);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_command_never_feeds_one_outside_the_sandbox() {
        let home = tempfile::tempdir().unwrap();
        let state = EnvSnapshot::default();
        let inside = state.run_files(Some(home.path()), true);
        assert!(inside.output.starts_with(state.dir()));
        std::fs::write(&inside.output, "export EVIL='$(touch /tmp/x)'\n").unwrap();
        state.commit(Some(home.path()), &inside);
        assert!(!inside.output.exists());
        let contained_source = state.source(Some(home.path()), true);
        assert!(std::fs::read_to_string(&contained_source).unwrap().contains("EVIL"));
        assert!(!state.source(Some(home.path()), false).exists());

        let outside = state.run_files(Some(home.path()), false);
        assert!(outside.output.starts_with(home.path()));
        assert_eq!(outside.source, state.source(Some(home.path()), false));
        std::fs::write(&outside.output, "export KEPT=1\n").unwrap();
        state.commit(Some(home.path()), &outside);
        for contained in [true, false] {
            let text = std::fs::read_to_string(state.source(Some(home.path()), contained)).unwrap();
            assert_eq!(text, "export KEPT=1\n");
        }
        let (scratch, trusted) = (state.dir().to_path_buf(), state.trusted_dir(None).to_path_buf());
        drop(state);
        assert!(!scratch.exists() && !trusted.exists());
    }
}
