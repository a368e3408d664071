//! Tests of `write_file` (kept beside the shared edit plumbing they exercise): schema,
//! result shape, conventions, the syntax gate, guards, approvals and the editor seam.

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::runtime::ApprovalDecision;
use crate::runtime::approver::AllowAll;
use crate::runtime::file_io::test_support::{EditorFs, Recorder, ctx_with_fs, json_of, test_ctx, test_guard};

async fn write(dir: &Path, approver: Arc<dyn crate::runtime::Approver>, args: Value) -> ToolOutput {
    WriteFileTool::with_guard(test_guard(dir))
        .run(&test_ctx(dir, approver), args)
        .await
}

#[test]
fn schema_matches_hermes() {
    let schema = WriteFileTool::with_guard(test_guard(Path::new("/nonexistent"))).parameters();
    assert_eq!(schema["required"], json!(["path", "content"]));
    assert_eq!(schema["properties"]["path"]["type"], "string");
    assert_eq!(schema["properties"]["content"]["type"], "string");
    assert_eq!(schema["properties"]["cross_profile"]["type"], "boolean");
    assert_eq!(schema["properties"]["cross_profile"]["default"], false);
    assert_eq!(schema["properties"].as_object().unwrap().len(), 3);
}

#[tokio::test]
async fn writes_relative_to_the_session_cwd_and_reports_like_hermes() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let out = write(
        dir.path(),
        recorder.clone(),
        json!({"path": "sub/hello.txt", "content": "hi there\n"}),
    )
    .await;
    let file = dir.path().join("sub/hello.txt");
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hi there\n");
    assert!(!Path::new("sub/hello.txt").exists(), "nothing lands in the process cwd");
    let shown = file.display().to_string();
    assert_eq!(
        json_of(&out),
        json!({"bytes_written": 9, "dirs_created": true, "resolved_path": shown, "files_modified": [shown],
               "lint": {"status": "skipped", "message": "No linter for .txt files"}})
    );
    let change = FileChange {
        path: file.clone(),
        old_text: None,
        new_text: Some("hi there\n".into()),
    };
    assert_eq!(out.display, ToolDisplay::Changes(vec![change]));
    match &recorder.requests()[..] {
        [
            crate::runtime::ApprovalRequest::Edit {
                tool,
                path,
                old_text,
                new_text,
                arguments,
                ..
            },
        ] => {
            assert_eq!(
                (*tool, path, old_text, new_text.as_str()),
                ("write_file", &file, &None, "hi there\n")
            );
            assert_eq!(arguments["path"], "sub/hello.txt");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn keeps_crlf_bom_and_mode_of_the_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("win.txt");
    std::fs::write(&file, "\u{feff}one\r\ntwo\r\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o751)).unwrap();
    let out = write(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": "win.txt", "content": "uno\ndos\n"}),
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "\u{feff}uno\r\ndos\r\n");
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o751);
    assert_eq!(json_of(&out)["bytes_written"], 3 + 10);
}

#[tokio::test]
async fn broken_structured_content_is_refused_before_anything_happens() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [("a.json", "{\"a\": "), ("a.yaml", "a: [1\n"), ("a.toml", "x = = 1\n")] {
        let recorder = Recorder::new(ApprovalDecision::AllowOnce);
        let out = write(dir.path(), recorder.clone(), json!({"path": name, "content": content})).await;
        let value = json_of(&out);
        assert!(out.is_error);
        assert!(
            value["error"].as_str().unwrap().contains("syntax validation"),
            "{value}"
        );
        assert_eq!(value["bytes_written"], 0);
        assert!(!dir.path().join(name).exists());
        assert!(recorder.requests().is_empty(), "no approval asked for a refused write");
    }
    let ok = write(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": "b.json", "content": "{\"a\": 1}"}),
    )
    .await;
    assert_eq!(json_of(&ok)["lint"], json!({"status": "ok", "output": ""}));
}

#[tokio::test]
async fn sensitive_and_credential_paths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = write(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": "/etc/passwd", "content": "x"}),
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .starts_with("Refusing to write to sensitive system path")
    );
    let key = test_guard(dir.path()).home.join(".ssh/config");
    let out = write(dir.path(), Arc::new(AllowAll), json!({"path": key, "content": "x"})).await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .contains("is a protected system/credential file")
    );
    assert!(!key.exists());
    let out = write(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": "n.txt", "content": "1|a\n2|b\n"}),
    )
    .await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .starts_with("Refusing to write internal read_file")
    );
}

#[tokio::test]
async fn cross_profile_opts_out_of_the_soft_guard() {
    let dir = tempfile::tempdir().unwrap();
    let target = test_guard(dir.path()).hermes_root.join("profiles/other/memories/m.md");
    let args = json!({"path": target, "content": "x"});
    let out = write(dir.path(), Arc::new(AllowAll), args).await;
    assert!(
        json_of(&out)["error"]
            .as_str()
            .unwrap()
            .starts_with("Cross-profile write blocked")
    );
    let out = write(
        dir.path(),
        Arc::new(AllowAll),
        json!({"path": target, "content": "x", "cross_profile": true}),
    )
    .await;
    assert!(!out.is_error, "{}", out.content);
    assert!(target.exists());
}

#[tokio::test]
async fn a_denied_edit_leaves_the_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("keep.txt");
    std::fs::write(&file, "original").unwrap();
    let recorder = Recorder::new(ApprovalDecision::Deny);
    let out = write(
        dir.path(),
        recorder.clone(),
        json!({"path": "keep.txt", "content": "changed"}),
    )
    .await;
    assert_eq!(json_of(&out), json!({"error": file_io::EDIT_DENIED}));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "original");
    assert_eq!(
        recorder.edits(),
        [(file.clone(), Some("original".into()), "changed".into())]
    );

    let out = write(
        dir.path(),
        Recorder::new(ApprovalDecision::TimedOut),
        json!({"path": "keep.txt", "content": "c"}),
    )
    .await;
    let error = json_of(&out)["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("timed out with no answer") && !error.contains("denied"),
        "{error}"
    );
    let out = write(
        dir.path(),
        Recorder::new(ApprovalDecision::Cancelled),
        json!({"path": "keep.txt", "content": "c"}),
    )
    .await;
    assert!(json_of(&out)["error"].as_str().unwrap().contains("turn was cancelled"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "original");
}

#[tokio::test]
async fn argument_errors_match_hermes() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (json!({"content": "x"}), "write_file: missing required field 'path'."),
        (json!({"path": "a"}), "write_file: missing required field 'content'."),
        (
            json!({"path": "a", "content": 5}),
            "write_file: 'content' must be a string, got int.",
        ),
    ];
    for (args, start) in cases {
        let out = write(dir.path(), Arc::new(AllowAll), args).await;
        assert!(
            json_of(&out)["error"].as_str().unwrap().starts_with(start),
            "{}",
            out.content
        );
    }
}

#[tokio::test]
async fn the_editor_buffer_is_the_old_text_and_takes_the_write() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("open.rs");
    let editor = Arc::new(EditorFs::default());
    editor
        .buffers
        .lock()
        .unwrap()
        .insert(file.clone(), "unsaved\r\n".into());
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let ctx = ctx_with_fs(dir.path(), recorder.clone(), editor.clone());
    let tool = WriteFileTool::with_guard(test_guard(dir.path()));
    let out = tool.run(&ctx, json!({"path": "open.rs", "content": "new\n"})).await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(editor.buffers.lock().unwrap()[&file], "new\r\n");
    assert_eq!(recorder.edits()[0].1.as_deref(), Some("unsaved\r\n"));
    assert!(!file.exists());
}
