//! The built-in catalogue as a whole: what the read-only gate refuses, judged by each tool's
//! own effect, and the gate applied at dispatch.

use std::sync::Arc;

use serde_json::{Value, json};

use super::catalog::builtin_catalog;
use crate::safety::policy::Mode;

fn refused(name: &str, args: Value) -> bool {
    builtin_catalog()
        .get(name)
        .unwrap()
        .effect(&args)
        .refusal(Mode::ReadOnly)
        .is_some()
}

#[test]
fn read_only_mode_refuses_what_the_tools_say_changes_things() {
    assert!(refused("write_file", json!({"path": "a"})));
    assert!(refused("patch", json!({"mode": "patch"})));
    assert!(refused("process", json!({"action": "kill", "session_id": "p1"})));
    assert!(!refused("process", json!({"action": "poll", "session_id": "p1"})));
    assert!(refused("memory", json!({"action": "add", "target": "memory"})));
    // A batch writes memory too, with or without `action`.
    assert!(refused(
        "memory",
        json!({"target": "memory", "operations": [{"action": "add"}]})
    ));
    // Commands are judged by the terminal's permission gate, not here.
    assert!(!refused("terminal", json!({"command": "rm -rf x"})));
    for reader in [
        "read_file",
        "search_files",
        "todo",
        "session_search",
        "skills_list",
        "skill_view",
    ] {
        assert!(!refused(reader, json!({})), "{reader}");
    }
}

#[tokio::test]
async fn dispatch_applies_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = crate::runtime::file_io::test_support::test_ctx(dir.path(), Arc::new(crate::runtime::DenyAll));
    ctx.session.state.set_mode(Mode::ReadOnly);
    let guard = crate::runtime::file_io::test_support::test_guard(dir.path());
    let out = super::builtin(guard, Default::default())
        .dispatch(&ctx, "write_file", r#"{"path": "a.txt", "content": "x"}"#)
        .await;
    assert!(out.is_error && out.content.contains("Read-only mode: file edits are disabled"));
    assert!(!dir.path().join("a.txt").exists());
}
