//! V4A tests: parsing, and patch mode end to end (add, update, delete, move, all-or-nothing,
//! approvals per file, rollback, conventions, guards).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

use super::parse::{HunkLine, OpKind, header_paths, parse};
use crate::runtime::approver::AllowAll;
use crate::runtime::file_io::test_support::{Recorder, json_of, test_ctx, test_guard};
use crate::runtime::{ApprovalDecision, Approver, Tool, ToolDisplay, ToolOutput};
use crate::tools::patch::PatchTool;

async fn apply(dir: &Path, approver: Arc<dyn Approver>, patch: &str) -> ToolOutput {
    let args = json!({"mode": "patch", "patch": patch});
    PatchTool::with_guard(test_guard(dir))
        .run(&test_ctx(dir, approver), args)
        .await
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn parses_every_header_and_hunk_form() {
    let ops = parse(
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n context\n-old\n+new\n\n more\n\n\
         *** Add File: n.txt\n+one\n*** Delete File: gone.txt\n***Move File: x -> y/z\n*** End of File\n*** End Patch\nignored",
    )
    .unwrap();
    assert_eq!(ops.len(), 4);
    assert_eq!(
        (ops[0].kind, ops[0].path.as_str(), ops[0].new_path.as_deref()),
        (OpKind::Update, "a.py", Some("b.py"))
    );
    assert_eq!(ops[0].hunks[0].hint.as_deref(), Some("def f():"));
    let lines = &ops[0].hunks[0].lines;
    assert_eq!(
        lines.len(),
        5,
        "the interior blank is kept, the trailing one dropped: {lines:?}"
    );
    assert_eq!(
        lines[3],
        HunkLine {
            prefix: ' ',
            text: String::new(),
            implicit_blank: true
        }
    );
    assert_eq!(
        (ops[1].kind, ops[2].kind, ops[3].kind),
        (OpKind::Add, OpKind::Delete, OpKind::Move)
    );
    assert_eq!(ops[3].new_path.as_deref(), Some("y/z"));
    assert_eq!(
        header_paths("*** Update File: a\n*** Move File: b -> c\n"),
        ["a", "b", "c"]
    );
    let leading = parse("*** Update File: a\n\n-x\n+y\n").unwrap();
    assert_eq!(
        leading[0].hunks[0].lines.len(),
        2,
        "blank lines before the first hunk line are layout"
    );
    assert_eq!(
        parse("*** Update File: a.py\n*** End Patch").unwrap_err(),
        "Parse error: UPDATE 'a.py': no hunks found"
    );
}

#[tokio::test]
async fn add_update_delete_and_move_in_one_patch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "src/lib.rs", "fn a() {}\nfn b() {}\n");
    write(d, "old.txt", "bye\n");
    write(d, "run.sh", "echo\n");
    std::fs::set_permissions(d.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let moved_inode = inode(&d.join("run.sh"));
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let out = apply(
        d,
        recorder.clone(),
        "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n fn a() {}\n-fn b() {}\n+fn c() {}\n\
         *** Add File: docs/new.md\n+# Title\n+text\n*** Delete File: old.txt\n*** Move File: run.sh -> bin/run.sh\n*** End Patch",
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(read(d, "src/lib.rs"), "fn a() {}\nfn c() {}\n");
    assert_eq!(read(d, "docs/new.md"), "# Title\ntext\n");
    assert!(!d.join("old.txt").exists() && !d.join("run.sh").exists());
    assert_eq!(read(d, "bin/run.sh"), "echo\n");
    assert_eq!(
        inode(&d.join("bin/run.sh")),
        moved_inode,
        "a move is a rename, not a copy"
    );
    assert_eq!(
        std::fs::metadata(d.join("bin/run.sh")).unwrap().permissions().mode() & 0o777,
        0o755
    );

    let value = json_of(&out);
    let abs = |p: &str| Value::String(d.join(p).display().to_string());
    assert_eq!(value["success"], true);
    assert_eq!(
        value["files_modified"],
        json!([
            abs("src/lib.rs"),
            abs("docs/new.md"),
            abs("old.txt"),
            abs("run.sh"),
            abs("bin/run.sh")
        ])
    );
    assert_eq!(value["files_created"], json!([abs("docs/new.md")]));
    assert_eq!(value["files_deleted"], json!([abs("old.txt")]));
    let diff = value["diff"].as_str().unwrap();
    assert!(
        diff.starts_with("--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,2 +1,2 @@\n fn a() {}\n-fn b() {}\n+fn c() {}\n"),
        "{diff}"
    );
    assert!(diff.contains("--- /dev/null\n+++ b/docs/new.md\n") && diff.contains("# Moved: run.sh -> bin/run.sh"));
    assert_eq!(
        value["lint"][d.join("docs/new.md").display().to_string()]["status"],
        "skipped"
    );
    assert!(value.get("resolved_path").is_none());

    // One approval per changed file, in order; a delete proposes empty new text.
    let paths: Vec<_> = recorder.edits().into_iter().map(|(p, _, new)| (p, new)).collect();
    assert_eq!(paths[0], (d.join("src/lib.rs"), "fn a() {}\nfn c() {}\n".to_string()));
    assert_eq!(paths[2], (d.join("old.txt"), String::new()));
    assert_eq!(paths.len(), 5);
    let ToolDisplay::Changes(changes) = &out.display else {
        panic!("{:?}", out.display)
    };
    assert_eq!(changes.len(), 5);
    assert_eq!(
        (changes[2].old_text.as_deref(), changes[2].new_text.as_deref()),
        (Some("bye\n"), None)
    );
    assert_eq!(
        (changes[1].old_text.as_deref(), changes[1].new_text.as_deref()),
        (None, Some("# Title\ntext\n"))
    );
}

#[tokio::test]
async fn update_with_move_to_renames_and_edits() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "one\ntwo\n");
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: a.txt\n*** Move to: b.txt\n-two\n+2\n",
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert!(!dir.path().join("a.txt").exists());
    assert_eq!(read(dir.path(), "b.txt"), "one\n2\n");
}

#[tokio::test]
async fn any_invalid_hunk_leaves_every_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.txt", "alpha\n");
    write(d, "b.txt", "beta\n");
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let out = apply(
        d,
        recorder.clone(),
        "*** Begin Patch\n*** Update File: a.txt\n-alpha\n+ALPHA\n*** Add File: c.txt\n+new\n\
         *** Update File: b.txt\n-nothing like this\n+x\n*** Delete File: ghost.txt\n*** End Patch",
    )
    .await;
    let error = json_of(&out)["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with(
            "Patch validation failed (no files were modified):\n  • b.txt: hunk 1 (no hint) not found — Could not find"
        ),
        "{error}"
    );
    assert!(error.contains("  • ghost.txt: file not found for deletion"));
    assert_eq!(
        (read(d, "a.txt"), read(d, "b.txt")),
        ("alpha\n".into(), "beta\n".into())
    );
    assert!(!d.join("c.txt").exists());
    assert!(
        recorder.requests().is_empty(),
        "nothing is proposed before the whole patch is valid"
    );
}

#[tokio::test]
async fn denying_one_file_writes_none() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a\n");
    write(dir.path(), "b.txt", "b\n");
    let recorder = Recorder::new(ApprovalDecision::Deny);
    let out = apply(
        dir.path(),
        recorder.clone(),
        "*** Update File: a.txt\n-a\n+A\n*** Update File: b.txt\n-b\n+B\n",
    )
    .await;
    assert_eq!(json_of(&out), json!({"error": crate::runtime::file_io::EDIT_DENIED}));
    assert_eq!(
        (read(dir.path(), "a.txt"), read(dir.path(), "b.txt")),
        ("a\n".into(), "b\n".into())
    );
    assert_eq!(recorder.edits().len(), 1, "the first denial stops the patch");
}

#[tokio::test]
async fn a_failed_write_rolls_back_earlier_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a\n");
    write(dir.path(), "blocker", "a plain file where a directory is needed\n");
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: a.txt\n-a\n+A\n*** Add File: blocker/x.txt\n+x\n",
    )
    .await;
    let error = json_of(&out)["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with("Apply phase failed; the files already written were restored"),
        "{error}"
    );
    assert_eq!(read(dir.path(), "a.txt"), "a\n");
}

#[tokio::test]
async fn a_failed_step_renames_a_moved_file_back() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "run.sh", "echo\n");
    write(dir.path(), "blocker", "a plain file where a directory is needed\n");
    std::fs::set_permissions(dir.path().join("run.sh"), std::fs::Permissions::from_mode(0o750)).unwrap();
    let patch = "*** Update File: run.sh\n*** Move to: bin/run.sh\n-echo\n+echo 2\n*** Add File: blocker/x\n+x\n";
    let out = apply(dir.path(), Arc::new(AllowAll), patch).await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("files already written were restored")
    );
    assert_eq!(read(dir.path(), "run.sh"), "echo\n");
    let mode = std::fs::metadata(dir.path().join("run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o750);
    assert!(!dir.path().join("bin/run.sh").exists());
}

#[tokio::test]
async fn crlf_and_bom_survive_and_paths_resolve_against_the_session_cwd() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "w/win.txt", "\u{feff}one\r\ntwo\r\nthree\r\n");
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: w/win.txt\n@@\n one\n-two\n+2\n three\n",
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(read(dir.path(), "w/win.txt"), "\u{feff}one\r\n2\r\nthree\r\n");
    assert_eq!(
        json_of(&out)["resolved_path"],
        dir.path().join("w/win.txt").display().to_string()
    );
}

#[tokio::test]
async fn hints_blank_lines_and_addition_only_hunks() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "m.py",
        "def f():\n    x = 1\n\n    return x\n\ndef g():\n    x = 1\n\n    return x\n",
    );
    // The hint picks the second of two identical blocks; the blank context line is real.
    let patch = "*** Update File: m.py\n@@ def g(): @@\n     x = 1\n\n-    return x\n+    return x + 1\n";
    let out = apply(dir.path(), Arc::new(AllowAll), patch).await;
    assert!(!out.is_error, "{}", out.content);
    assert!(read(dir.path(), "m.py").ends_with("def g():\n    x = 1\n\n    return x + 1\n"));
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: m.py\n@@ def f():\n+    # added\n",
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert!(read(dir.path(), "m.py").starts_with("def f():\n    # added\n    x = 1\n"));
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: m.py\n@@ nowhere\n+x\n",
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("addition-only hunk context hint 'nowhere' not found")
    );
}

#[tokio::test]
async fn guards_apply_to_every_header() {
    let dir = tempfile::tempdir().unwrap();
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: ../escape.txt\n-a\n+b\n",
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .starts_with("V4A patch header contains '..' traversal")
    );
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Move File: a.txt -> /etc/cron.d/x\n",
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .starts_with("Refusing to write to sensitive system path: /etc/cron.d/x")
    );
    let key = test_guard(dir.path()).home.join(".ssh/config");
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        &format!("*** Add File: {}\n+Host x\n", key.display()),
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("is a protected system/credential file")
    );
    assert!(!key.exists());
    let out = apply(dir.path(), Arc::new(AllowAll), "*** Add File: bad.json\n+{\n").await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("fails .json syntax validation")
    );
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: a.txt\n@@\n context only\n",
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("a.txt: File not found")
    );
    write(dir.path(), "a.txt", "context only\n");
    let out = apply(
        dir.path(),
        Arc::new(AllowAll),
        "*** Update File: a.txt\n@@\n context only\n",
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("Patch contains no changes")
    );
}
