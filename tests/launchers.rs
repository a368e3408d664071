//! The npm package and the Python wheel, made by `scripts/package.py` from the binary cargo just
//! built, installed from the local files (`npm install ./….tgz` offline, the wheel into a fresh
//! virtual environment) and started the way the ACP registry probes an agent: an empty HOME,
//! one `initialize`, and the first line on stdout must be its answer with an auth method.
//! Needs node/npm and python3 with venv (`.ci/run` installs them when missing).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The registry's platform key for the machine running the tests.
fn host_platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x86_64",
        ("linux", "aarch64") => "linux-aarch64",
        ("macos", "x86_64") => "darwin-x86_64",
        ("macos", "aarch64") => "darwin-aarch64",
        ("windows", "x86_64") => "windows-x86_64",
        other => panic!("no registry platform for {other:?}"),
    }
}

/// Runs `command` to completion; panics with its output when it fails.
fn run(command: &mut Command) -> String {
    let output = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?} ({e}); .ci/run installs node, npm and python3"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Packs the binary under test for this platform into `work/packages`: the npm tarballs
/// (`kind` "npm") or the wheel ("wheel").
fn package(work: &Path, kind: &str) -> PathBuf {
    let out = work.join("packages");
    // A copy without debug info packs and installs in a third of the time; where no `strip` is
    // installed the full binary is packed.
    let binary = work.join("hermes-acp");
    std::fs::copy(env!("CARGO_BIN_EXE_hermes-acp"), &binary).unwrap();
    let _ = Command::new("strip").arg("--strip-debug").arg(&binary).status();
    run(Command::new("python3")
        .arg(root().join("scripts/package.py"))
        .arg("--binary")
        .arg(&binary)
        .args(["--platform", host_platform(), "--local", "--out"])
        .arg(&out)
        .arg(if kind == "npm" { "--no-wheel" } else { "--no-npm" }));
    out
}

fn only_file(dir: &Path, matches: impl Fn(&str) -> bool) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches(p.file_name().unwrap().to_str().unwrap()))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap()
}

/// The registry's probe: a fresh empty HOME, `initialize` with the capabilities its CI sends,
/// and the first stdout line read as the reply. Returns that reply.
async fn probe(command: &mut tokio::process::Command) -> Value {
    let home = tempfile::tempdir().unwrap();
    let mut child = command
        .env("HOME", home.path())
        .env_remove("HERMES_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": 1,
            "clientCapabilities": {
                "fs": {"readTextFile": true, "writeTextFile": true},
                "terminal": true,
                "_meta": {"terminal_output": true, "terminal-auth": true}
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{initialize}\n").as_bytes()).await.unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = tokio::time::timeout(crate::support::TIMEOUT, lines.next_line())
        .await
        .expect("an answer within the timeout")
        .unwrap()
        .expect("a first line on stdout");
    drop(stdin);
    let status = tokio::time::timeout(crate::support::TIMEOUT, child.wait())
        .await
        .expect("exits once stdin closes")
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        !home.path().join(".hermes").exists(),
        "a probe with nothing configured leaves nothing in HOME"
    );
    serde_json::from_str(&first).unwrap_or_else(|e| panic!("first stdout line is JSON ({e}): {first}"))
}

fn assert_registry_accepts(reply: &Value) {
    assert_eq!(reply["id"], 0, "{reply}");
    assert_eq!(reply["result"]["protocolVersion"], 1, "{reply}");
    assert_eq!(reply["result"]["agentInfo"]["name"], "hermes-acp", "{reply}");
    assert_eq!(reply["result"]["agentInfo"]["version"], env!("CARGO_PKG_VERSION"));
    // The registry's auth gate: at least one method of type agent or terminal (the type field,
    // else `_meta` terminal-auth / agent-auth, else agent).
    let methods = reply["result"]["authMethods"].as_array().expect("authMethods");
    let kind = |m: &Value| match m.get("type").and_then(Value::as_str) {
        Some(kind) => kind.to_string(),
        None if m["_meta"].get("terminal-auth").is_some() => "terminal".to_string(),
        None => "agent".to_string(),
    };
    assert!(
        methods
            .iter()
            .any(|m| ["agent", "terminal"].contains(&kind(m).as_str())),
        "{reply}"
    );
}

#[tokio::test]
async fn npm_package_installs_offline_and_answers_the_registry_probe() {
    let work = tempfile::tempdir().unwrap();
    let packages = package(work.path(), "npm");
    let version = env!("CARGO_PKG_VERSION");
    let launcher = packages.join(format!("hermes-acp-{version}.tgz"));
    let (os, cpu) = host_platform().split_once('-').unwrap();
    let os = if os == "windows" { "win32" } else { os };
    let cpu = if cpu == "x86_64" { "x64" } else { "arm64" };
    let platform = packages.join(format!("hermes-acp-{os}-{cpu}-{version}.tgz"));
    assert!(
        launcher.is_file() && platform.is_file(),
        "{:?}",
        std::fs::read_dir(&packages).unwrap().collect::<Vec<_>>()
    );
    let project = work.path().join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(project.join("package.json"), r#"{"name": "probe", "private": true}"#).unwrap();
    // The other platforms' packages are not published yet: offline, npm skips those optional
    // dependencies, and the local tarball provides this platform's.
    run(Command::new("npm")
        .current_dir(&project)
        .env("HOME", work.path())
        .env("npm_config_cache", work.path().join("npm-cache"))
        .env("npm_config_update_notifier", "false")
        .args(["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"])
        .arg(&launcher)
        .arg(&platform));
    // `npx hermes-acp`, resolved from the project's node_modules as an editor's npx would.
    let mut npx = tokio::process::Command::new("npx");
    npx.current_dir(&project)
        .env("npm_config_cache", work.path().join("npm-cache"))
        .env("npm_config_update_notifier", "false")
        .args(["--offline", "--no-install", "hermes-acp"]);
    assert_registry_accepts(&probe(&mut npx).await);
}

#[tokio::test]
async fn python_wheel_installs_into_a_venv_and_answers_the_registry_probe() {
    let work = tempfile::tempdir().unwrap();
    let packages = package(work.path(), "wheel");
    let wheel = only_file(&packages, |n| n.ends_with(".whl"));
    let name = wheel.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with(&format!("hermes_acp_rs-{}-py3-none-", env!("CARGO_PKG_VERSION"))),
        "{name}"
    );
    let venv = work.path().join("venv");
    run(Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(&venv));
    let bin = venv.join(if cfg!(windows) { "Scripts" } else { "bin" });
    run(Command::new("python3")
        .args(["-m", "pip", "--disable-pip-version-check", "--python"])
        .arg(bin.join("python"))
        .args(["install", "--no-index", "--no-deps", "--quiet"])
        .arg(&wheel));
    let installed = bin.join(if cfg!(windows) { "hermes-acp.exe" } else { "hermes-acp" });
    assert_registry_accepts(&probe(&mut tokio::process::Command::new(installed)).await);
}
