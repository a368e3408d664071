//! Real commands under the real sandbox, through the `terminal` and `process` tools. This
//! machine (and CI, the same kind) has Landlock, so every test first asserts it is available:
//! a kernel without it fails the suite instead of silently skipping the checks.
//!
//! "Outside" directories are made under `/var/tmp`: still a temp dir, but not the process temp
//! dir (`/tmp`), which the sandbox lets commands write to.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tempfile::TempDir;

use crate::runtime::ToolServices;
use crate::runtime::approver::AllowAll;
use crate::runtime::shell::sandbox::*;
use crate::runtime::shell::testing::test_ctx;
use crate::runtime::{Tool, ToolContext};
use crate::safety::sandbox::SandboxSettings;
use crate::safety::sandbox::{self, SandboxMode};
use crate::tools::process::ProcessTool;
use crate::tools::terminal::TerminalTool;

fn require_landlock() {
    assert!(
        sandbox::status().is_contained(),
        "these tests need Landlock (Linux ≥ 5.13 with it enabled): {:?}",
        sandbox::status()
    );
}

/// A directory the sandbox does not let commands write to.
fn outside_dir() -> TempDir {
    let dir = tempfile::tempdir_in("/var/tmp").unwrap();
    let tmp = std::env::temp_dir().canonicalize().unwrap();
    assert!(!dir.path().canonicalize().unwrap().starts_with(tmp));
    dir
}

fn ctx_with(dir: &Path, mode: SandboxMode) -> ToolContext {
    let mut ctx = test_ctx(dir, Arc::new(AllowAll));
    ctx.services = Arc::new(ToolServices {
        sandbox: SandboxSettings {
            mode,
            ..SandboxSettings::default()
        },
        ..Default::default()
    });
    ctx
}

async fn terminal(ctx: &ToolContext, args: Value) -> Value {
    serde_json::from_str(&TerminalTool.run(ctx, args).await.content).unwrap()
}

#[tokio::test]
async fn a_write_outside_the_project_is_denied_and_reported() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let outside = outside_dir();
    let ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    assert!(sandbox_active(&ctx.services));
    let target = outside.path().join("x");
    let result = terminal(&ctx, json!({"command": format!("touch {}", target.display())})).await;
    assert_ne!(result["exit_code"], 0, "{result}");
    assert_eq!(result["sandbox"], "denied", "{result}");
    let note = result["sandbox_note"].as_str().unwrap();
    assert!(note.contains("\"unsandboxed\": true"), "{note}");
    assert!(
        note.contains(&project.path().canonicalize().unwrap().display().to_string()),
        "{note}"
    );
    assert!(!target.exists());
}

#[tokio::test]
async fn everyday_work_inside_the_project_and_temp_dirs_runs() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    let script = "set -e; touch x; mkdir build; echo hi > \"${TMPDIR:-/tmp}/hermes-sandbox-$$\"; \
                  rm \"${TMPDIR:-/tmp}/hermes-sandbox-$$\"; echo quiet > /dev/null; ls / > build/ls.txt; \
                  cat /etc/hostname > build/host.txt; cat <(echo substituted); \
                  git init -q repo && cd repo && git -c user.name=t -c user.email=t@e commit -q --allow-empty -m one \
                  && git log --oneline | wc -l";
    let result = terminal(&ctx, json!({ "command": script })).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    assert_eq!(result["output"], "substituted\n1", "{result}");
    assert!(result.get("sandbox").is_none());
    assert!(project.path().join("x").exists() && project.path().join("build/ls.txt").exists());
    // The `cd` was recorded: the wrapper could write its marker.
    assert_eq!(ctx.session.workspace.shell_cwd(), project.path().join("repo"));
}

#[tokio::test]
async fn read_only_blocks_writes_in_the_project_but_keeps_shell_state() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join("sub")).unwrap();
    let ctx = ctx_with(project.path(), SandboxMode::ReadOnly);
    let result = terminal(&ctx, json!({"command": "touch x"})).await;
    assert_eq!(result["sandbox"], "denied", "{result}");
    assert!(
        result["sandbox_note"].as_str().unwrap().contains("read-only"),
        "{result}"
    );
    assert!(!project.path().join("x").exists());
    let result = terminal(&ctx, json!({"command": "cd sub && export KEPT=yes"})).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    assert_eq!(ctx.session.workspace.shell_cwd(), project.path().join("sub"));
    let result = terminal(&ctx, json!({"command": "echo $KEPT"})).await;
    assert_eq!(result["output"], "yes");
}

#[test]
fn the_read_only_session_mode_leaves_only_the_private_dir_writable() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    ctx.session.state.set_mode(crate::safety::policy::Mode::ReadOnly);
    let prepared = for_command(&ctx, false, Grants::default()).unwrap().unwrap();
    let private = ctx.session.state.processes.shell_state().dir().canonicalize().unwrap();
    assert_eq!(prepared.writable(), [private.clone(), private.join("shm")]);
    // `unsandboxed` (approved upstream) means no sandbox at all.
    assert!(for_command(&ctx, true, Grants::default()).unwrap().is_none());
}

#[tokio::test]
async fn unsandboxed_calls_and_mode_off_write_outside() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let outside = outside_dir();
    let ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    let first = outside.path().join("first");
    let command = format!("touch {}", first.display());
    let result = terminal(&ctx, json!({"command": command, "unsandboxed": true})).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(first.exists());

    let off = ctx_with(project.path(), SandboxMode::Off);
    assert!(!sandbox_active(&off.services));
    let second = outside.path().join("second");
    let result = terminal(&off, json!({"command": format!("touch {}", second.display())})).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(second.exists());
}

#[tokio::test]
async fn configured_extra_roots_are_writable() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let extra = outside_dir();
    let mut ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    ctx.services = Arc::new(ToolServices {
        sandbox: SandboxSettings {
            mode: SandboxMode::WorkspaceWrite,
            extra_roots: vec![extra.path().to_path_buf()],
            ..SandboxSettings::default()
        },
        ..Default::default()
    });
    let command = format!("mkdir -p {0}/cache && touch {0}/cache/f", extra.path().display());
    let result = terminal(&ctx, json!({ "command": command })).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(extra.path().join("cache/f").exists());
}

#[tokio::test]
async fn background_processes_are_sandboxed_too() {
    require_landlock();
    let project = tempfile::tempdir().unwrap();
    let outside = outside_dir();
    let ctx = ctx_with(project.path(), SandboxMode::WorkspaceWrite);
    let target = outside.path().join("bg");
    let command = format!("touch inside; touch {}; echo rc=$?", target.display());
    let started = terminal(&ctx, json!({"command": command, "background": true})).await;
    let id = started["session_id"].as_str().unwrap().to_string();
    let out = ProcessTool
        .run(&ctx, json!({"action": "wait", "session_id": id, "timeout": 30}))
        .await;
    let waited: Value = serde_json::from_str(&out.content).unwrap();
    let output = waited["output"].as_str().unwrap();
    assert!(
        output.contains("Permission denied") && output.contains("rc=1"),
        "{waited}"
    );
    assert!(project.path().join("inside").exists());
    assert!(!target.exists());
}
