//! The exact `tool_call` and `session/request_permission` JSON a client receives for a
//! command, an edit and a V4A patch: each question stands alone (a title, the file as location,
//! the diff first and the reason after it), and a finished command shows its output under its
//! own title again.

use expect_test::expect;
use serde_json::{Value, json};

use super::{announced, permission_requests, shown, started};
use crate::support::TestHome;
use crate::support::mock_llm::{self, MockLlm};

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
