//! Tool-level tests of `patch` in replace mode (V4A mode is tested in `v4a/tests.rs`): the
//! schema, result shapes, every argument, guards, approvals, conventions and hints.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

use super::PatchTool;
use crate::runtime::approver::AllowAll;
use crate::runtime::file_io::EDIT_DENIED;
use crate::runtime::file_io::test_support::{Recorder, json_of, test_ctx, test_guard};
use crate::runtime::{ApprovalDecision, Approver, FileChange, Tool, ToolDisplay, ToolOutput};

async fn patch(dir: &Path, approver: Arc<dyn Approver>, args: Value) -> ToolOutput {
    PatchTool::with_guard(test_guard(dir))
        .run(&test_ctx(dir, approver), args)
        .await
}

fn error_of(out: &ToolOutput) -> String {
    assert!(out.is_error, "expected an error: {}", out.content);
    json_of(out)["error"].as_str().unwrap().to_string()
}

#[test]
fn schema_matches_hermes() {
    let schema = PatchTool::with_guard(test_guard(Path::new("/nonexistent"))).parameters();
    let props = &schema["properties"];
    assert_eq!(schema["required"], json!(["mode"]));
    assert_eq!(props["mode"]["enum"], json!(["replace", "patch"]));
    assert_eq!(props["mode"]["default"], "replace");
    for key in ["path", "old_string", "new_string", "patch"] {
        assert_eq!(props[key]["type"], "string", "{key}");
    }
    assert_eq!(props["replace_all"]["type"], "boolean");
    assert_eq!(props["replace_all"]["default"], false);
    assert_eq!(props["cross_profile"]["default"], false);
    assert_eq!(props.as_object().unwrap().len(), 7);
}

#[tokio::test]
async fn replace_returns_hermes_shape_with_a_diff_of_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hello.txt");
    std::fs::write(&file, "hi\nthere\n").unwrap();
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    // No mode: replace is the default; the path is relative to the session cwd.
    let out = patch(
        dir.path(),
        recorder.clone(),
        json!({"path": "hello.txt", "old_string": "hi", "new_string": "ho"}),
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    let shown = file.display().to_string();
    assert_eq!(
        json_of(&out),
        json!({
            "success": true,
            "diff": format!("--- a/{shown}\n+++ b/{shown}\n@@ -1,2 +1,2 @@\n-hi\n+ho\n there\n"),
            "files_modified": [shown],
            "lint": {"status": "skipped", "message": "No linter for .txt files"},
            "resolved_path": shown,
        })
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "ho\nthere\n");
    let change = FileChange {
        path: file.clone(),
        old_text: Some("hi\nthere\n".into()),
        new_text: Some("ho\nthere\n".into()),
    };
    assert_eq!(out.display, ToolDisplay::Changes(vec![change]));
    // The approval showed the whole file before and after.
    assert_eq!(
        recorder.edits(),
        [(file, Some("hi\nthere\n".into()), "ho\nthere\n".into())]
    );
}

#[tokio::test]
async fn uniqueness_and_replace_all() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.py");
    std::fs::write(&file, "x = 1\ny = 2\nx = 1\n").unwrap();
    let args = json!({"mode": "replace", "path": "a.py", "old_string": "x = 1", "new_string": "x = 3"});
    let out = patch(dir.path(), Arc::new(AllowAll), args.clone()).await;
    assert!(error_of(&out).starts_with("Found 2 matches for old_string."));
    assert_eq!(json_of(&out)["success"], false);
    let mut all = args;
    all["replace_all"] = json!(true);
    let out = patch(dir.path(), Arc::new(AllowAll), all).await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 3\ny = 2\nx = 3\n");
}

#[tokio::test]
async fn a_miss_shows_closest_sections_then_escalates() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.py"), "def compute(a):\n    return a\n").unwrap();
    let near = json!({"path": "m.py", "old_string": "def computed(b, c, d):\n    pass", "new_string": "x"});
    let out = patch(dir.path(), Arc::new(AllowAll), near.clone()).await;
    let error = error_of(&out);
    assert!(error.starts_with("Could not find a match for old_string in the file\n\nDid you mean one of these sections?\n   1| def compute(a):"), "{error}");
    assert!(json_of(&out).get("_hint").is_none(), "the snippet is the hint");

    let far = json!({"path": "m.py", "old_string": "zzzzqqqq", "new_string": "x"});
    let out = patch(dir.path(), Arc::new(AllowAll), far).await;
    assert!(
        json_of(&out)["_hint"]
            .as_str()
            .unwrap()
            .starts_with("old_string not found. Use read_file")
    );

    // The third consecutive failure on one file in a session escalates.
    let tool = PatchTool::with_guard(test_guard(dir.path()));
    let ctx = test_ctx(dir.path(), Arc::new(AllowAll));
    for _ in 0..2 {
        tool.run(&ctx, near.clone()).await;
    }
    let third = tool.run(&ctx, near).await;
    assert!(
        json_of(&third)["_hint"]
            .as_str()
            .unwrap()
            .starts_with("This is failure #3 patching 'm.py'")
    );
}

#[tokio::test]
async fn reindents_to_the_files_indentation() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.py");
    std::fs::write(&file, "class A:\n    def f(self):\n        return 1\n").unwrap();
    let args =
        json!({"path": "r.py", "old_string": "def f(self):\n    return 1", "new_string": "def f(self):\n    return 2"});
    let out = patch(dir.path(), Arc::new(AllowAll), args).await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "class A:\n    def f(self):\n        return 2\n"
    );
}

#[tokio::test]
async fn crlf_bom_and_mode_survive_a_patch() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.cfg");
    std::fs::write(&file, "\u{feff}[a]\r\nkey = 1\r\nother = 2\r\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let args =
        json!({"path": "w.cfg", "old_string": "key = 1\nother = 2", "new_string": "key = 5\nother = 6\nnew = 7"});
    let out = patch(dir.path(), Arc::new(AllowAll), args).await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "\u{feff}[a]\r\nkey = 5\r\nother = 6\r\nnew = 7\r\n"
    );
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
}

#[tokio::test]
async fn broken_json_is_refused_and_the_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.json");
    std::fs::write(&file, "{\"a\": 1}\n").unwrap();
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let args = json!({"path": "c.json", "old_string": "\"a\": 1", "new_string": "\"a\": "});
    let out = patch(dir.path(), recorder.clone(), args).await;
    assert!(error_of(&out).starts_with("Failed to write changes: Refusing to write"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"a\": 1}\n");
    assert!(recorder.requests().is_empty());
}

#[tokio::test]
async fn denial_timeout_and_guards_leave_files_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.txt");
    std::fs::write(&file, "keep me\n").unwrap();
    let args = json!({"path": "k.txt", "old_string": "keep", "new_string": "lose"});
    let out = patch(dir.path(), Recorder::new(ApprovalDecision::Deny), args.clone()).await;
    assert_eq!(json_of(&out), json!({"error": EDIT_DENIED}));
    let out = patch(dir.path(), Recorder::new(ApprovalDecision::TimedOut), args).await;
    assert!(error_of(&out).contains("timed out with no answer"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me\n");

    let out = patch(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": "/etc/hosts", "old_string": "a", "new_string": "b"}),
    )
    .await;
    assert!(error_of(&out).starts_with("Refusing to write to sensitive system path: /etc/hosts"));
    let key = test_guard(dir.path()).home.join(".aws/credentials");
    std::fs::create_dir_all(key.parent().unwrap()).unwrap();
    std::fs::write(&key, "secret").unwrap();
    let out = patch(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": key, "old_string": "secret", "new_string": "x"}),
    )
    .await;
    assert!(error_of(&out).contains("is a protected system/credential file"));
    assert_eq!(std::fs::read_to_string(&key).unwrap(), "secret");
}

#[tokio::test]
async fn argument_errors_match_hermes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "abc").unwrap();
    let cases = [
        (
            json!({"mode": "replace", "old_string": "a", "new_string": "b"}),
            "path required",
        ),
        (
            json!({"path": "f.txt", "new_string": "b"}),
            "old_string and new_string required",
        ),
        (
            json!({"path": "f.txt", "old_string": "a"}),
            "old_string and new_string required",
        ),
        (json!({"mode": "sed", "path": "f.txt"}), "Unknown mode: sed"),
        (json!({"mode": "patch"}), "patch content required"),
        (json!({"mode": "patch", "patch": ""}), "patch content required"),
        (
            json!({"path": "f.txt", "old_string": "", "new_string": "b"}),
            "old_string cannot be empty",
        ),
        (
            json!({"path": "f.txt", "old_string": "a", "new_string": "a"}),
            "old_string and new_string are identical",
        ),
        (
            json!({"path": "nope.txt", "old_string": "a", "new_string": "b"}),
            "Failed to read file: ",
        ),
    ];
    for (args, start) in cases {
        let out = patch(dir.path(), Arc::new(AllowAll), args.clone()).await;
        assert!(error_of(&out).starts_with(start), "{args}: {}", out.content);
    }
}

#[tokio::test]
async fn a_large_file_is_patched_by_exact_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.txt");
    let mut text = "0123456789abcdef0123456789abcdef0123456789abcdef012345678\n".repeat(40_000);
    text.push_str("needle line\n");
    text.push_str(&"tail\n".repeat(1000));
    std::fs::write(&file, &text).unwrap();
    let args = json!({"path": "big.txt", "old_string": "needle line", "new_string": "found line"});
    let out = patch(dir.path(), Arc::new(AllowAll), args).await;
    assert!(!out.is_error, "{}", out.content);
    let diff = json_of(&out)["diff"].as_str().unwrap().to_string();
    assert!(diff.contains("@@ -39998,7 +39998,7 @@\n"), "{diff}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text.replace("needle line", "found line")
    );
}

#[tokio::test]
async fn cross_profile_opts_out_of_the_soft_guard() {
    let dir = tempfile::tempdir().unwrap();
    let target = test_guard(dir.path())
        .hermes_root
        .join("profiles/other/skills/s/SKILL.md");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(&target, "old text\n").unwrap();
    let args = json!({"path": target, "old_string": "old", "new_string": "new"});
    let out = patch(dir.path(), Arc::new(AllowAll), args.clone()).await;
    assert!(error_of(&out).starts_with("Cross-profile write blocked by soft guard"));
    let mut allowed = args;
    allowed["cross_profile"] = json!(true);
    let out = patch(dir.path(), Arc::new(AllowAll), allowed).await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new text\n");
}
