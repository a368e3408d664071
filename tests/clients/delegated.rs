//! The exact JSON for an MCP server's tool call (a phrase naming the server; MCP calls are not
//! asked about) and a subagent's call: the `delegate_task` card, the child's nested card and its
//! permission question, which names the child's goal.

use expect_test::expect;
use serde_json::{Value, json};

use super::{announced, permission_requests, shown, started};
use crate::mcp::server_binary;
use crate::support::TestHome;
use crate::support::mock_llm::{self, MockLlm};

#[tokio::test]
async fn an_mcp_call_and_a_subagents_command_read_as_phrases() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir_all(home.cwd().join("build")).unwrap();
    mock.push(mock_llm::tool_calls(&[
        ("m1", "mcp_tester_echo", json!({"text": "hi"})),
        ("d1", "delegate_task", json!({"goal": "CHILD: clean the build folder"})),
    ]));
    mock.push_for(
        "CHILD",
        mock_llm::tool_calls(&[("c1", "terminal", json!({"command": "rm -rf build"}))]),
    );
    mock.push_for("CHILD", mock_llm::text(&["cleaned"]));
    mock.push(mock_llm::text(&["done"]));
    let servers = json!([{"name": "tester", "command": server_binary(), "args": [], "env": []}]);
    let (mut agent, session) = started(&home, servers).await;
    let (response, updates) = agent.prompt(&session, "echo and delegate").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let cwd = home.cwd();
    let snapshot = |value: &Value| serde_json::to_string_pretty(&shown(value, &session, &cwd)).unwrap();
    let asked = permission_requests(&agent);
    // MCP calls are not asked about (the server's hints are its own claims): only the child's
    // command is.
    assert_eq!(asked.len(), 1, "{asked:#?}");
    expect![[r#"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "m1",
          "title": "echo (tester)",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "{\n  \"text\": \"hi\"\n}"
              }
            }
          ],
          "rawInput": {
            "text": "hi"
          }
        }"#]]
    .assert_eq(&snapshot(announced(&updates, "m1")));
    expect![[r#"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "d1",
          "title": "Delegate “CHILD: clean the build folder”",
          "kind": "execute",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "Delegating task:\nCHILD: clean the build folder"
              }
            }
          ],
          "rawInput": {
            "goal": "CHILD: clean the build folder"
          }
        }"#]]
    .assert_eq(&snapshot(announced(&updates, "d1")));
    expect![[r#"
        {
          "sessionId": "<session>",
          "toolCall": {
            "toolCallId": "d1.sub0.c1",
            "kind": "execute",
            "title": "Run `rm -rf build` — deletes files: build (rm -r) (subagent “CHILD: clean the build folder”)",
            "content": [
              {
                "type": "content",
                "content": {
                  "type": "text",
                  "text": "Subagent “CHILD: clean the build folder” needs your approval: deletes files: build (rm -r)\n\n```\nrm -rf build\n```"
                }
              }
            ],
            "rawInput": {
              "command": "rm -rf build",
              "reason": "deletes files: build (rm -r)",
              "unsandboxed": false,
              "concerns": [
                "deletes files: build (rm -r)"
              ],
              "remember": [],
              "network": false
            }
          },
          "options": [
            {
              "optionId": "allow_once",
              "name": "Allow once",
              "kind": "allow_once"
            },
            {
              "optionId": "allow_session",
              "name": "Allow `rm -rf build` for this session",
              "kind": "allow_always"
            },
            {
              "optionId": "deny",
              "name": "Deny",
              "kind": "reject_once"
            },
            {
              "optionId": "deny_always",
              "name": "Always deny `rm -rf build` in this project",
              "kind": "reject_always"
            }
          ]
        }"#]].assert_eq(&snapshot(&asked[0]));
    // The child's own card, nested under the delegate card in the parent session.
    expect![[r#"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "d1.sub0.c1",
          "title": "`rm -rf build`",
          "kind": "execute",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "$ rm -rf build"
              }
            }
          ],
          "rawInput": {
            "command": "rm -rf build"
          }
        }"#]]
    .assert_eq(&snapshot(announced(&updates, "d1.sub0.c1")));
    assert!(!cwd.join("build").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}
