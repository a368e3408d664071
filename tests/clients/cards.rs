//! The exact `tool_call` and `session/request_permission` JSON a client receives for a
//! command, an edit, a V4A patch, an MCP call and a subagent's command — each question stands
//! alone (title, locations, diff first) — and no question ever offers two options of one kind.

use std::collections::HashSet;

use expect_test::expect;
use serde_json::{Value, json};

use super::{announced, permission_requests, shown};
use crate::mcp::server_binary;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

async fn started(home: &TestHome, servers: Value) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": servers}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    (agent, session)
}

#[tokio::test]
async fn a_command_an_edit_and_a_v4a_patch_ask_questions_that_stand_alone() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir_all(home.cwd().join("build")).unwrap();
    std::fs::write(home.cwd().join("notes.md"), "# Notes\n").unwrap();
    let v4a = "*** Begin Patch\n*** Update File: notes.md\n@@\n-# Notes\n+# Notes, patched\n*** Add File: docs/new.md\n+fresh\n*** End Patch\n";
    mock.push(mock_llm::tool_calls(&[
        ("c1", "terminal", json!({"command": "rm -rf build"})),
        (
            "e1",
            "patch",
            json!({"mode": "replace", "path": "notes.md", "old_string": "# Notes", "new_string": "# Notes\n\n- one"}),
        ),
    ]));
    mock.push(mock_llm::tool_calls(&[(
        "p1",
        "patch",
        json!({"mode": "patch", "patch": v4a}),
    )]));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home, json!([])).await;
    let (response, updates) = agent.prompt(&session, "clean and note it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let cwd = home.cwd();
    let snapshot = |value: &Value| serde_json::to_string_pretty(&shown(value, &session, &cwd)).unwrap();
    let asked = permission_requests(&agent);
    assert_eq!(asked.len(), 4, "{asked:#?}");

    expect![[r#"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "c1",
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
    .assert_eq(&snapshot(announced(&updates, "c1")));
    expect![[r#"
        {
          "sessionId": "<session>",
          "toolCall": {
            "toolCallId": "c1",
            "kind": "execute",
            "title": "Run `rm -rf build` — deletes files: build (rm -r)",
            "content": [
              {
                "type": "content",
                "content": {
                  "type": "text",
                  "text": "Needs your approval: deletes files: build (rm -r)\n\n```\nrm -rf build\n```"
                }
              }
            ],
            "rawInput": {
              "command": "rm -rf build",
              "reason": "deletes files: build (rm -r)",
              "unsandboxed": false
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
        }"#]]
    .assert_eq(&snapshot(&asked[0]));
    expect![[r##"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "e1",
          "title": "Edit notes.md",
          "kind": "edit",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "Preparing replace edit for notes.md."
              }
            }
          ],
          "locations": [
            {
              "path": "<cwd>/notes.md"
            }
          ],
          "rawInput": {
            "mode": "replace",
            "path": "notes.md",
            "old_string": "# Notes",
            "new_string": "# Notes\n\n- one"
          }
        }"##]]
    .assert_eq(&snapshot(announced(&updates, "e1")));
    expect![[r##"
        {
          "sessionId": "<session>",
          "toolCall": {
            "toolCallId": "e1",
            "kind": "edit",
            "title": "Edit notes.md",
            "content": [
              {
                "type": "diff",
                "path": "<cwd>/notes.md",
                "oldText": "# Notes\n",
                "newText": "# Notes\n\n- one\n"
              },
              {
                "type": "content",
                "content": {
                  "type": "text",
                  "text": "Needs your approval: edit a file in the project."
                }
              }
            ],
            "locations": [
              {
                "path": "<cwd>/notes.md"
              }
            ],
            "rawInput": {
              "tool": "patch",
              "path": "<cwd>/notes.md",
              "real_path": "<cwd>/notes.md",
              "reason": "edit",
              "arguments": {
                "mode": "replace",
                "path": "notes.md",
                "old_string": "# Notes",
                "new_string": "# Notes\n\n- one"
              }
            }
          },
          "options": [
            {
              "optionId": "allow_once",
              "name": "Allow this edit",
              "kind": "allow_once"
            },
            {
              "optionId": "allow_session",
              "name": "Allow edits in this project for this session",
              "kind": "allow_always"
            },
            {
              "optionId": "deny",
              "name": "Deny",
              "kind": "reject_once"
            }
          ]
        }"##]]
    .assert_eq(&snapshot(&asked[1]));
    expect![[r#"
        {
          "sessionUpdate": "tool_call",
          "toolCallId": "p1",
          "title": "Apply patch to notes.md, docs/new.md",
          "kind": "edit",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "Preparing patch edit for notes.md, docs/new.md."
              }
            }
          ],
          "locations": [
            {
              "path": "<cwd>/notes.md"
            },
            {
              "path": "<cwd>/docs/new.md"
            }
          ],
          "rawInput": {
            "mode": "patch",
            "patch": "*** Begin Patch\n*** Update File: notes.md\n@@\n-# Notes\n+# Notes, patched\n*** Add File: docs/new.md\n+fresh\n*** End Patch\n"
          }
        }"#]].assert_eq(&snapshot(announced(&updates, "p1")));
    expect![[r##"
        [
          {
            "sessionId": "<session>",
            "toolCall": {
              "toolCallId": "p1",
              "kind": "edit",
              "title": "Edit notes.md",
              "content": [
                {
                  "type": "diff",
                  "path": "<cwd>/notes.md",
                  "oldText": "# Notes\n\n- one\n",
                  "newText": "# Notes, patched\n\n- one\n"
                },
                {
                  "type": "content",
                  "content": {
                    "type": "text",
                    "text": "Needs your approval: edit a file in the project."
                  }
                }
              ],
              "locations": [
                {
                  "path": "<cwd>/notes.md"
                }
              ],
              "rawInput": {
                "tool": "patch",
                "path": "<cwd>/notes.md",
                "real_path": "<cwd>/notes.md",
                "reason": "edit",
                "arguments": {
                  "mode": "patch",
                  "patch": "*** Begin Patch\n*** Update File: notes.md\n@@\n-# Notes\n+# Notes, patched\n*** Add File: docs/new.md\n+fresh\n*** End Patch\n"
                }
              }
            },
            "options": [
              {
                "optionId": "allow_once",
                "name": "Allow this edit",
                "kind": "allow_once"
              },
              {
                "optionId": "allow_session",
                "name": "Allow edits in this project for this session",
                "kind": "allow_always"
              },
              {
                "optionId": "deny",
                "name": "Deny",
                "kind": "reject_once"
              }
            ]
          },
          {
            "sessionId": "<session>",
            "toolCall": {
              "toolCallId": "p1",
              "kind": "edit",
              "title": "Create docs/new.md",
              "content": [
                {
                  "type": "diff",
                  "path": "<cwd>/docs/new.md",
                  "newText": "fresh\n"
                },
                {
                  "type": "content",
                  "content": {
                    "type": "text",
                    "text": "Needs your approval: create a file in the project."
                  }
                }
              ],
              "locations": [
                {
                  "path": "<cwd>/docs/new.md"
                }
              ],
              "rawInput": {
                "tool": "patch",
                "path": "<cwd>/docs/new.md",
                "real_path": "<cwd>/docs/new.md",
                "reason": "edit",
                "arguments": {
                  "mode": "patch",
                  "patch": "*** Begin Patch\n*** Update File: notes.md\n@@\n-# Notes\n+# Notes, patched\n*** Add File: docs/new.md\n+fresh\n*** End Patch\n"
                }
              }
            },
            "options": [
              {
                "optionId": "allow_once",
                "name": "Allow this edit",
                "kind": "allow_once"
              },
              {
                "optionId": "allow_session",
                "name": "Allow edits in this project for this session",
                "kind": "allow_always"
              },
              {
                "optionId": "deny",
                "name": "Deny",
                "kind": "reject_once"
              }
            ]
          }
        ]"##]].assert_eq(&snapshot(&json!([asked[2], asked[3]])));
    // The finished command shows its output, and its card gets its own title back.
    let done = updates.iter().rfind(|u| u["toolCallId"] == "c1").unwrap();
    expect![[r#"
        {
          "sessionUpdate": "tool_call_update",
          "toolCallId": "c1",
          "status": "completed",
          "title": "`rm -rf build`",
          "content": [
            {
              "type": "content",
              "content": {
                "type": "text",
                "text": "(no output)"
              }
            }
          ],
          "rawOutput": {
            "output": "",
            "exit_code": 0,
            "error": null,
            "approval": "Command required approval (deletes files: build (rm -r)) and was approved by the user."
          }
        }"#]]
    .assert_eq(&snapshot(done));
    assert!(!cwd.join("build").exists());
    assert_eq!(std::fs::read_to_string(cwd.join("docs/new.md")).unwrap(), "fresh\n");
    assert_eq!(agent.shutdown().await, Some(0));
}

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
              "unsandboxed": false
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

/// Every kind of question — a command, one without the sandbox, an edit in the project, one
/// outside it, a new file, a subagent's command — offers each option kind at most once.
#[tokio::test]
async fn no_question_offers_two_options_of_one_kind() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.cwd().join("dist")).unwrap();
    std::fs::write(home.cwd().join("a.txt"), "a\n").unwrap();
    let outside_file = outside.path().join("x.txt").display().to_string();
    mock.push(mock_llm::tool_calls(&[
        ("c1", "terminal", json!({"command": "rm -rf dist"})),
        ("c2", "terminal", json!({"command": "ls", "unsandboxed": true})),
        ("e1", "write_file", json!({"path": "a.txt", "content": "b\n"})),
        ("e2", "write_file", json!({"path": outside_file, "content": "x\n"})),
        ("e3", "write_file", json!({"path": "new.txt", "content": "n\n"})),
        ("d1", "delegate_task", json!({"goal": "KID: remove dist"})),
    ]));
    mock.push_for(
        "KID",
        mock_llm::tool_calls(&[("k1", "terminal", json!({"command": "rm -rf dist"}))]),
    );
    mock.push_for("KID", mock_llm::text(&["ok"]));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home, json!([])).await;
    agent.permission_policy = crate::support::PermissionPolicy::Select("deny");
    let (response, _) = agent.prompt(&session, "do it all").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let asked = permission_requests(&agent);
    assert!(asked.len() >= 6, "{asked:#?}");
    for question in &asked {
        let kinds: Vec<&str> = (question["options"].as_array().unwrap().iter())
            .map(|o| o["kind"].as_str().unwrap())
            .collect();
        let unique: HashSet<&str> = kinds.iter().copied().collect();
        assert_eq!(unique.len(), kinds.len(), "two options of one kind: {question:#}");
        assert!(
            kinds.contains(&"allow_once") && kinds.contains(&"reject_once"),
            "{question:#}"
        );
        let title = question["toolCall"]["title"].as_str().unwrap_or_default();
        assert!(!title.is_empty(), "a question without a title: {question:#}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
}
