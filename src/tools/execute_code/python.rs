//! Which Python runs scripts. Found once per process: the active virtualenv's (or conda
//! env's) interpreter when the child environment names one, else `python3` on the child
//! environment's `PATH` — a cheap lookup, so `offered` can ask it. Resolved once more on the
//! first run to the real interpreter behind it (`sys.executable`, checked to be 3.8 or newer,
//! as Hermes checks): a version-manager shim such as pyenv's costs a shell and a process
//! lookup on every start, the interpreter itself does not. The probe runs the interpreter, which
//! may lie inside the project (an activated virtualenv) where a command could have replaced it:
//! so it runs only inside the sandbox, isolated (`-I`: no `PYTHON*` variables, no current
//! folder on `sys.path`); without a sandbox the path found is used as it is.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::safety::sandbox::PreparedSandbox;
use crate::safety::secrets::ChildEnv;

/// The interpreter found on the child environment, if any (looked up once per process).
pub(super) fn found(env: &ChildEnv) -> Option<&'static Path> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND.get_or_init(|| find(env)).as_deref()
}

/// The interpreter to start: the real one behind [`found`], once resolved; [`found`] itself
/// when resolving fails (it may still run); `None` when there is no Python at all.
pub(super) async fn interpreter(env: &ChildEnv, cwd: &Path, sandbox: Option<&PreparedSandbox>) -> Option<PathBuf> {
    static RESOLVED: tokio::sync::OnceCell<Option<PathBuf>> = tokio::sync::OnceCell::const_new();
    let found = found(env)?;
    let Some(sandbox) = sandbox else {
        return Some(found.to_path_buf());
    };
    let resolved = RESOLVED.get_or_init(|| resolve(found, env, cwd, sandbox)).await;
    Some(resolved.clone().unwrap_or_else(|| found.to_path_buf()))
}

fn var<'a>(env: &'a ChildEnv, name: &str) -> Option<&'a OsStr> {
    env.vars()
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_os_str())
        .filter(|v| !v.is_empty())
}

fn find(env: &ChildEnv) -> Option<PathBuf> {
    let executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let envs = ["VIRTUAL_ENV", "CONDA_PREFIX"]
        .into_iter()
        .filter_map(|name| var(env, name));
    let in_envs = envs.flat_map(|root| ["python3", "python"].map(|exe| Path::new(root).join("bin").join(exe)));
    let on_path = var(env, "PATH")
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("python3"));
    in_envs.chain(on_path).find(|p| executable(p))
}

/// Asks `python` where its real interpreter is; `None` when it fails or is older than 3.8.
async fn resolve(python: &Path, env: &ChildEnv, cwd: &Path, sandbox: &PreparedSandbox) -> Option<PathBuf> {
    const PROBE: &str = "import sys\nif sys.version_info < (3, 8): sys.exit(1)\nprint(sys.executable)";
    let mut command = tokio::process::Command::new(python);
    sandbox.apply(&mut command);
    command
        .args(["-I", "-c", PROBE])
        .current_dir(cwd)
        .env_clear()
        .envs(env.vars().iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let probe = tokio::time::timeout(std::time::Duration::from_secs(10), command.output());
    let output = match probe.await {
        Ok(Ok(output)) if output.status.success() => output,
        other => {
            tracing::warn!(python = %python.display(), result = ?other.map(|o| o.map(|o| o.status)), "execute_code: python probe failed");
            return None;
        }
    };
    let text = String::from_utf8(output.stdout).ok()?;
    let real = PathBuf::from(text.trim());
    (real.is_absolute() && real.is_file()).then_some(real)
}
