//! How a foreground command is handed to the editor's terminal. Editors label the terminal with
//! the command line they were given, so with bash the user's command goes in as it is
//! (`bash -c '<command>'`) and the session-shell bookkeeping (restore the exported environment
//! and directory before, record them after) runs from a prologue bash reads through `BASH_ENV`.
//! Another shell gets the positional wrapper the local path uses.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Read by bash before the command line: the same steps as the local wrapper, with the saving
/// done by an EXIT trap (it runs after the command, also after a syntax error in it). The
/// variables that pass the paths are removed first so nested shells and the saved environment
/// never see them.
const PROLOGUE: &str = r#"unset BASH_ENV
__hermes_env=$HERMES_ACP_ENV __hermes_cwd=$HERMES_ACP_CWD __hermes_cwd_file=$HERMES_ACP_CWD_FILE
__hermes_env_out=$HERMES_ACP_ENV_OUT
unset HERMES_ACP_ENV HERMES_ACP_CWD HERMES_ACP_CWD_FILE HERMES_ACP_ENV_OUT
if [ -s "$__hermes_env" ]; then . "$__hermes_env" >/dev/null 2>&1; fi
__hermes_oldpwd=${OLDPWD-}
cd -- "$__hermes_cwd" || exit 126
if [ -n "$__hermes_oldpwd" ]; then OLDPWD=$__hermes_oldpwd; fi
trap '__hermes_rc=$?; pwd > "$__hermes_cwd_file" 2>/dev/null; (umask 077; export -p > "$__hermes_env_out" 2>/dev/null); exit $__hermes_rc' EXIT
"#;

/// The arguments and extra environment for the editor's terminal.
pub(super) struct HostInvocation {
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// The prologue file to remove once the command ended.
    pub prologue: Option<PathBuf>,
}

/// `wrapper` and `wrapper_args` are the local path's script and its positional arguments
/// (command, saved environment, cwd, marker, environment out), used when the shell is not bash
/// or the prologue cannot be written.
pub(super) fn invocation(shell: &Path, prologue: PathBuf, wrapper: &str, wrapper_args: [&OsStr; 5]) -> HostInvocation {
    let text = |a: &OsStr| a.to_string_lossy().into_owned();
    let [command, env_snapshot, cwd, marker, env_out] = wrapper_args;
    if shell.file_name() == Some(OsStr::new("bash")) && write_private(&prologue, PROLOGUE).is_ok() {
        return HostInvocation {
            args: vec!["-c".into(), text(command)],
            env: vec![
                ("BASH_ENV".into(), prologue.display().to_string()),
                ("HERMES_ACP_ENV".into(), text(env_snapshot)),
                ("HERMES_ACP_CWD".into(), text(cwd)),
                ("HERMES_ACP_CWD_FILE".into(), text(marker)),
                ("HERMES_ACP_ENV_OUT".into(), text(env_out)),
            ],
            prologue: Some(prologue),
        };
    }
    HostInvocation {
        args: ["-c", wrapper, "hermes-acp"]
            .into_iter()
            .map(str::to_string)
            .chain(wrapper_args.iter().map(|a| text(a)))
            .collect(),
        env: Vec::new(),
        prologue: None,
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    // Windows has no mode bits; the temp dir under the user's profile is private by its ACL.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_gets_the_users_command_line() {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            OsStr::new("ls -la"),
            OsStr::new("/e"),
            OsStr::new("/c"),
            OsStr::new("/m"),
            OsStr::new("/o"),
        ];
        let bash = invocation(Path::new("/bin/bash"), dir.path().join("p"), "WRAPPER", args);
        assert_eq!(bash.args, ["-c", "ls -la"]);
        assert!(bash.env.iter().any(|(k, v)| k == "HERMES_ACP_CWD" && v == "/c"));
        assert!(std::fs::read_to_string(dir.path().join("p")).unwrap().contains("trap"));
        let sh = invocation(Path::new("/bin/sh"), dir.path().join("q"), "WRAPPER", args);
        assert_eq!(
            sh.args,
            ["-c", "WRAPPER", "hermes-acp", "ls -la", "/e", "/c", "/m", "/o"]
        );
        assert!(sh.env.is_empty() && sh.prologue.is_none());
    }

    /// The prologue restores and records the shell state like the wrapper does.
    #[test]
    fn the_prologue_carries_cd_and_export_over() {
        let Some(bash) = ["/bin/bash", "/usr/bin/bash"]
            .into_iter()
            .find(|p| Path::new(p).exists())
        else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let (env, marker) = (dir.path().join("env"), dir.path().join("cwd"));
        let run = |command: &str, prologue: &str| {
            // The same file in and out: the agent's promotion step is not part of this test.
            let args = [
                OsStr::new(command),
                env.as_os_str(),
                dir.path().as_os_str(),
                marker.as_os_str(),
                env.as_os_str(),
            ];
            let call = invocation(Path::new(bash), dir.path().join(prologue), "", args);
            let out = std::process::Command::new(bash)
                .args(&call.args)
                .envs(call.env)
                .output()
                .unwrap();
            (
                String::from_utf8_lossy(&out.stdout).trim().to_string(),
                out.status.code(),
            )
        };
        assert_eq!(
            run("export HERMES_T=kept; cd /; exit 3", "p1"),
            (String::new(), Some(3))
        );
        assert_eq!(std::fs::read_to_string(&marker).unwrap().trim(), "/");
        let (out, code) = run("echo $HERMES_T ${HERMES_ACP_ENV-unset} ${BASH_ENV-unset}", "p2");
        assert_eq!((out.as_str(), code), ("kept unset unset", Some(0)));
    }
}
