//! Creating a new file through an editor that offers `fs`: the agent never asks the editor to
//! read a file that is not there (acpx showed that failed read as an error), so the client
//! answers no request with an error; the new file is written through the editor.

use serde_json::json;

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

#[tokio::test]
async fn creating_a_new_file_through_the_editor_draws_no_error_from_it() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::tool_calls(&[
        (
            "w1",
            "write_file",
            json!({"path": "hello.py", "content": "print('hi')\n"}),
        ),
        (
            "p1",
            "patch",
            json!({"mode": "patch", "patch": "*** Begin Patch\n*** Add File: pkg/mod.py\n+x = 1\n*** End Patch\n"}),
        ),
    ]));
    mock.push(mock_llm::tool_calls(&[(
        "r1",
        "read_file",
        json!({"path": "missing.py"}),
    )]));
    mock.push(mock_llm::text(&["created"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": true, "writeTextFile": true}, "terminal": false}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    agent.permission_policy = crate::support::PermissionPolicy::Select("allow_once");
    let (response, updates) = agent.prompt(&session, "create hello.py").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let reads: Vec<_> = (agent.agent_requests.iter())
        .filter(|r| r["method"] == "fs/read_text_file")
        .collect();
    assert!(reads.is_empty(), "no read of a file that does not exist: {reads:#?}");
    // The two calls run concurrently: their writes may reach the editor in either order.
    let mut written: Vec<&str> = agent.editor_writes.iter().map(|(p, _)| p.as_str()).collect();
    written.sort();
    let cwd = home.cwd();
    assert_eq!(
        written,
        [
            cwd.join("hello.py").display().to_string(),
            cwd.join("pkg/mod.py").display().to_string()
        ]
    );
    for id in ["w1", "p1"] {
        let done = updates.iter().rfind(|u| u["toolCallId"] == id).unwrap();
        assert_eq!(done["status"], "completed", "{done}");
    }
    // Reading a file that is not there is the tool's own "not found", not an editor error.
    let missing = updates.iter().rfind(|u| u["toolCallId"] == "r1").unwrap();
    assert_eq!(missing["status"], "failed", "{missing}");
    assert_eq!(agent.shutdown().await, Some(0));
}
