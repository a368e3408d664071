//! The check-then-write race through the real binary: a background process started with the
//! terminal tool flips a symlink in the project between a directory inside and a directory
//! outside, nonstop, while the model calls `write_file` through it 300 times in `accept_edits`
//! with the editor refusing every permission request. A write judged inside lands inside (in
//! the directory it was judged to be), one judged outside asks and is refused: nothing is ever
//! written outside the project. (Before edits were written through directory descriptors, the
//! write followed the link as it was at write time, outside.)

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::calls::permission_requests;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome};

const WRITES_PER_REPLY: usize = 100;
const REPLIES: usize = 3;

/// Waits (bounded) until `path` exists, as the background process reports its progress there.
async fn appears(path: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !path.exists() {
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_symlink_flipped_by_a_background_process_never_carries_a_write_outside() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    // "Outside" is outside the project and the agent's temp dir (both live under /tmp here).
    let agent_tmp = home.path().join("tmp");
    let outside = home.path().join("outside");
    std::fs::create_dir_all(&agent_tmp).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let outside = outside.canonicalize().unwrap();
    let project = home.cwd();
    std::fs::create_dir(project.join("real")).unwrap();
    std::os::unix::fs::symlink("real", project.join("d")).unwrap();

    // Each flip is a rename of a fresh link over `d`: `d` always exists, pointing one way or
    // the other. `flipping` says a full round happened; `stopped`, that the loop ended.
    let flipper = format!(
        "while [ ! -e stop ]; do ln -sfn {out} d.next && mv -fT d.next d; ln -sfn real d.next && mv -fT d.next d; \
         [ -e flipping ] || : > flipping; done; : > stopped",
        out = outside.display()
    );
    mock.push(mock_llm::tool_calls(&[(
        "flip",
        "terminal",
        json!({"command": flipper, "background": true}),
    )]));
    mock.push(mock_llm::text(&["flipping"]));
    for reply in 0..REPLIES {
        let calls: Vec<(String, Value)> = (0..WRITES_PER_REPLY)
            .map(|i| {
                let n = reply * WRITES_PER_REPLY + i;
                (
                    format!("w{n:03}"),
                    json!({"path": format!("d/f{n:03}.txt"), "content": format!("write {n:03}\n")}),
                )
            })
            .collect();
        let refs: Vec<(&str, &str, Value)> = calls
            .iter()
            .map(|(id, args)| (id.as_str(), "write_file", args.clone()))
            .collect();
        mock.push(mock_llm::tool_calls(&refs));
    }
    mock.push(mock_llm::text(&["done"]));

    let mut agent = AgentProcess::spawn(home.path(), &[("TMPDIR", agent_tmp.to_str().unwrap())]).await;
    agent.initialize().await;
    let session = agent.new_session(&project).await;
    // The editor allows the command once (default mode asks for it)...
    agent.permission_policy = PermissionPolicy::Select("allow_once");
    agent.prompt(&session, "start flipping").await;
    assert!(appears(&project.join("flipping")).await, "the flipper runs");
    // ...then refuses everything while edits inside the project need no click.
    let mode = json!({"sessionId": session, "modeId": "accept_edits"});
    agent.request("session/set_mode", mode).await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let asked_before = permission_requests(&agent).len();
    agent.prompt(&session, "write").await;
    std::fs::write(project.join("stop"), "").unwrap();
    assert!(appears(&project.join("stopped")).await, "the flipper stops");

    assert_eq!(names(&outside), Vec::<String>::new(), "nothing was written outside");
    let results: Vec<(String, Value)> = mock.requests().last().unwrap()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool" && m["tool_call_id"].as_str().is_some_and(|id| id.starts_with('w')))
        .map(|m| {
            let id = m["tool_call_id"].as_str().unwrap().to_string();
            (id, serde_json::from_str(m["content"].as_str().unwrap()).unwrap())
        })
        .collect();
    assert_eq!(results.len(), WRITES_PER_REPLY * REPLIES);
    let mut landed = Vec::new();
    let mut denied = 0;
    for (id, result) in &results {
        let name = format!("f{}.txt", &id[1..]);
        match result.get("error").and_then(Value::as_str) {
            None => {
                let written = std::fs::read_to_string(project.join("real").join(&name));
                assert_eq!(written.unwrap(), format!("write {}\n", &id[1..]), "{id}: {result}");
                landed.push(name);
            }
            Some(error) => {
                assert!(
                    error.contains("Edit approval denied") || error.contains("the path changed while"),
                    "{id} failed for another reason: {error}"
                );
                denied += usize::from(error.contains("Edit approval denied"));
            }
        }
    }
    assert_eq!(
        names(&project.join("real")),
        landed,
        "the writes that succeeded, and only those"
    );
    assert!(!landed.is_empty(), "writes judged inside went ahead");
    let asked = permission_requests(&agent).len() - asked_before;
    assert_eq!(asked, denied, "each denied write was judged outside and asked about");
    assert_eq!(agent.shutdown().await, Some(0));
}
