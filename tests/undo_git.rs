//! `/undo` of what commands do to git repositories, ignored files and modes, end to end through
//! the real binary (commands run in `yolo` mode, so the command analysis decides nothing
//! here): a nested repository after `git reset --hard` and after `git clean -fdx` (files, refs,
//! reflog, index) and after `rm -rf` of the whole clone (objects and configuration too);
//! ignored `.env` and `data/local.db` deleted by a script; `chmod -x`; the
//! project's own refs moved by `reset --hard`, `branch -D` and `stash drop`; and a restore
//! through an editor that takes file writes still puts the executable bit back.

use std::path::{Path, PathBuf};

use serde_json::json;

pub(crate) use crate::support::git::git;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// Every file under `dir` with its bytes and permission bits, sorted; git objects left out
/// (a nested repository's come back with the umask's permissions, not git's read-only ones;
/// tests check objects with `git log` and `git fsck`).
pub(crate) fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.ends_with(".git/objects") {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else {
                let mode = meta.permissions().mode() & 0o777;
                out.push((path.clone(), std::fs::read(&path).unwrap(), mode));
            }
        }
    }
    out.sort();
    out
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

pub(crate) fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// A repository at `dir` with two commits on `main`, an uncommitted change, an untracked
/// file, an ignored file and an untracked folder.
pub(crate) fn repository(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, ".gitignore", "*.log\n");
    write(dir, "lib.rs", "one\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "one"]);
    write(dir, "lib.rs", "two\n");
    git(dir, &["commit", "-qam", "two"]);
    write(dir, "lib.rs", "three, not committed\n");
    write(dir, "notes.txt", "untracked\n");
    write(dir, "build.log", "ignored\n");
    write(dir, "scratch/idea.md", "untracked folder\n");
}

/// An agent in `yolo` mode (enabled for the test) on `cwd`; `fs` offers the editor's file
/// writes.
pub(crate) async fn agent(home: &TestHome, fs: bool) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[("HERMES_YOLO_MODE", "1")]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": fs, "writeTextFile": fs}, "terminal": false}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    let response = agent
        .request("session/set_mode", json!({"sessionId": session, "modeId": "yolo"}))
        .await;
    assert!(response.get("result").is_some(), "{response}");
    (agent, session)
}

/// Runs one turn in which the model runs `commands` in the terminal, one call each.
pub(crate) async fn run(agent: &mut AgentProcess, mock: &MockLlm, session: &str, prompt: &str, commands: &[&str]) {
    for (i, command) in commands.iter().enumerate() {
        let id = format!("call_{i}");
        mock.push(mock_llm::tool_calls(&[(&id, "terminal", json!({"command": command}))]));
    }
    mock.push(mock_llm::text(&["Done."]));
    let (response, _) = agent.prompt(session, prompt).await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
}

pub(crate) async fn undo(agent: &mut AgentProcess, session: &str) -> String {
    let (_, updates) = agent.prompt(session, "/undo").await;
    agent_text(&updates)
}

#[tokio::test]
async fn undo_restores_a_nested_repository_after_reset_hard_and_after_clean() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    git(&cwd, &["init", "-q"]);
    write(&cwd, ".gitignore", "vendor/\n");
    let lib = cwd.join("vendor/lib");
    repository(&lib);
    let head = git(&lib, &["rev-parse", "HEAD"]);
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    run(
        &mut agent,
        &mock,
        &session,
        "reset it",
        &["cd vendor/lib && git reset --hard HEAD~1"],
    )
    .await;
    assert_eq!(std::fs::read_to_string(lib.join("lib.rs")).unwrap(), "one\n");
    let reply = undo(&mut agent, &session).await;
    assert!(!reply.contains("changed no files"), "{reply}");
    assert!(reply.contains("restored vendor/lib/lib.rs"), "{reply}");
    assert!(reply.contains("restored vendor/lib/.git/refs/heads/main"), "{reply}");
    assert_eq!(files(&cwd), before, "files, refs, reflog and index as before the reset");
    assert_eq!(git(&lib, &["rev-parse", "HEAD"]), head);

    // The terminal's shell stayed in vendor/lib; an absolute path says where anyway.
    let clean = format!("git -C '{}' clean -fdx", lib.display());
    run(&mut agent, &mock, &session, "clean it", &[&clean]).await;
    assert!(!lib.join("build.log").exists() && !lib.join("scratch").exists());
    let reply = undo(&mut agent, &session).await;
    for line in ["recreated vendor/lib/build.log", "recreated vendor/lib/scratch/idea.md"] {
        assert!(reply.contains(line), "{line} in {reply}");
    }
    assert_eq!(files(&cwd), before, "everything clean removed is back");
    assert_eq!(
        git(&lib, &["status", "--porcelain"]),
        " M lib.rs\n?? notes.txt\n?? scratch/".trim()
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn undo_brings_back_a_nested_clone_a_command_deleted_whole() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let lib = cwd.join("vendor/lib");
    repository(&lib);
    git(
        &lib,
        &["config", "remote.origin.url", "https://example.invalid/lib.git"],
    );
    let log = git(&lib, &["log", "--format=%H %s"]);
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    run(
        &mut agent,
        &mock,
        &session,
        "drop the vendored copy",
        &["rm -rf vendor"],
    )
    .await;
    assert!(!cwd.join("vendor").exists());
    let reply = undo(&mut agent, &session).await;
    assert!(reply.contains("recreated vendor/lib/lib.rs"), "{reply}");
    assert_eq!(files(&cwd), before, "work tree, refs, index, configuration and hooks");
    assert_eq!(git(&lib, &["log", "--format=%H %s"]), log, "the objects are back");
    git(&lib, &["fsck", "--full", "--no-progress"]);
    assert_eq!(
        git(&lib, &["config", "remote.origin.url"]),
        "https://example.invalid/lib.git"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn undo_restores_ignored_files_a_script_deleted() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    git(&cwd, &["init", "-q"]);
    write(&cwd, ".gitignore", ".env\ndata/\n");
    write(&cwd, ".env", "API_TOKEN=local-only\n");
    write(&cwd, "data/local.db", "SQLite format 3\0precious rows");
    write(&cwd, "src/main.rs", "fn main() {}\n");
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    mock.push(mock_llm::tool_calls(&[(
        "call_w",
        "write_file",
        json!({"path": "tidy.sh", "content": "rm -f .env\nrm -rf data\n"}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "call_run",
        "terminal",
        json!({"command": "bash tidy.sh"}),
    )]));
    mock.push(mock_llm::text(&["Tidied."]));
    agent.prompt(&session, "tidy up").await;
    assert!(!cwd.join(".env").exists() && !cwd.join("data").exists());

    let reply = undo(&mut agent, &session).await;
    for line in ["recreated .env", "recreated data/local.db", "removed tidy.sh"] {
        assert!(reply.contains(line), "{line} in {reply}");
    }
    assert_eq!(files(&cwd), before);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn undo_restores_an_executable_bit_removed_by_chmod() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    write(&cwd, "script.sh", "#!/bin/sh\necho hi\n");
    chmod(&cwd.join("script.sh"), 0o755);
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    run(&mut agent, &mock, &session, "make it plain", &["chmod -x script.sh"]).await;
    assert_eq!(files(&cwd)[0].2, 0o644);
    let reply = undo(&mut agent, &session).await;
    assert!(reply.contains("restored script.sh"), "{reply}");
    assert_eq!(files(&cwd), before);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn undo_moves_the_project_refs_back_after_reset_branch_delete_and_stash_drop() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    repository(&cwd);
    git(&cwd, &["branch", "feature"]);
    git(&cwd, &["tag", "v1", "HEAD~1"]);
    git(&cwd, &["pack-refs", "--all"]);
    git(&cwd, &["stash", "-q"]);
    write(&cwd, "lib.rs", "edited again\n");
    let (head, stash) = (
        git(&cwd, &["rev-parse", "HEAD"]),
        git(&cwd, &["rev-parse", "stash@{0}"]),
    );
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    run(
        &mut agent,
        &mock,
        &session,
        "start over",
        &[
            "git reset --hard HEAD~1",
            "git branch -D feature",
            "git stash drop",
            "git tag -d v1",
        ],
    )
    .await;
    assert_ne!(git(&cwd, &["rev-parse", "HEAD"]), head);
    let reply = undo(&mut agent, &session).await;
    // main was packed: reset wrote a loose ref, which goes; packed-refs comes back.
    for line in [
        "removed .git/refs/heads/main",
        "restored .git/packed-refs",
        "restored .git/logs/HEAD",
    ] {
        assert!(reply.contains(line), "{line} in {reply}");
    }
    assert_eq!(
        files(&cwd),
        before,
        "refs, packed refs, reflogs, stash, index and files"
    );
    assert_eq!(git(&cwd, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&cwd, &["rev-parse", "stash@{0}"]), stash);
    assert_eq!(git(&cwd, &["branch", "--list", "feature"]), "feature");
    assert_eq!(git(&cwd, &["tag", "--list"]), "v1");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn undo_through_the_editor_puts_the_executable_bit_back() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    write(&cwd, "tool.sh", "#!/bin/sh\necho tool\n");
    write(&cwd, "run.sh", "#!/bin/sh\necho run\n");
    chmod(&cwd.join("tool.sh"), 0o755);
    chmod(&cwd.join("run.sh"), 0o755);
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, true).await;

    run(
        &mut agent,
        &mock,
        &session,
        "rework the scripts",
        &["chmod -x tool.sh && printf 'echo changed\\n' > tool.sh && rm run.sh"],
    )
    .await;
    let reply = undo(&mut agent, &session).await;
    assert!(
        reply.contains("restored tool.sh") && reply.contains("recreated run.sh"),
        "{reply}"
    );
    let mut written: Vec<String> = agent.editor_writes.iter().map(|(p, _)| p.clone()).collect();
    written.sort();
    let expected = [cwd.join("run.sh"), cwd.join("tool.sh")].map(|p| p.display().to_string());
    assert_eq!(written, expected, "the text went through the editor");
    assert_eq!(files(&cwd), before, "content and executable bits as before");
    assert_eq!(agent.shutdown().await, Some(0));
}
