//! The editor's side of the harness: how the driver answers the requests the agent sends
//! (permission questions by policy, forms, file reads and writes, terminals).

use serde_json::{Value, json};

use super::*;

impl AgentProcess {
    pub(super) async fn answer_agent_request(&mut self, request: &Value) {
        self.agent_requests.push(request.clone());
        let id = request["id"].clone();
        let method = request["method"].as_str().unwrap_or("");
        let result = match (method, self.permission_policy) {
            ("session/request_permission", PermissionPolicy::Select(option)) => {
                json!({"outcome": {"outcome": "selected", "optionId": option}})
            }
            ("session/request_permission", PermissionPolicy::Cancel) => json!({"outcome": {"outcome": "cancelled"}}),
            ("session/request_permission", PermissionPolicy::Ignore) => return,
            ("elicitation/create", _) => {
                match &self.elicitation_policy {
                    ElicitationPolicy::Reply(result) => result.clone(),
                    ElicitationPolicy::Ignore => return,
                    ElicitationPolicy::Unsupported => {
                        self.send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}))
                        .await;
                        return;
                    }
                }
            }
            ("fs/read_text_file", _) => {
                let path = request["params"]["path"].as_str().unwrap_or("").to_string();
                match self.overlays.get(&path) {
                    Some(content) => json!({"content": content}),
                    None => match std::fs::read_to_string(&path) {
                        Ok(content) => json!({"content": content}),
                        Err(e) => {
                            self.send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32002, "message": e.to_string()}}))
                                .await;
                            return;
                        }
                    },
                }
            }
            ("terminal/create", _) if self.hang_terminals => {
                let id = format!("term-{}", self.terminals.len() + 1);
                self.terminals.insert(id.clone(), (String::new(), -1, false));
                json!({"terminalId": id})
            }
            ("terminal/wait_for_exit", _) if self.hang_terminals => return,
            ("terminal/create", _) => {
                let params = &request["params"];
                let args: Vec<String> = params["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.as_str().map(str::to_string))
                    .collect();
                // Like an editor: the request's variables on top of the inherited environment.
                let env = params["env"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| Some((v["name"].as_str()?.to_string(), v["value"].as_str()?.to_string())));
                let out = std::process::Command::new(params["command"].as_str().unwrap())
                    .args(&args)
                    .envs(env)
                    .current_dir(params["cwd"].as_str().unwrap_or("/"))
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
                text.push_str(&String::from_utf8_lossy(&out.stderr));
                let id = format!("term-{}", self.terminals.len() + 1);
                self.terminals
                    .insert(id.clone(), (text, out.status.code().unwrap_or(-1), false));
                json!({"terminalId": id})
            }
            ("terminal/wait_for_exit", _) => {
                let (_, code, _) = &self.terminals[request["params"]["terminalId"].as_str().unwrap()];
                json!({"exitCode": code})
            }
            ("terminal/output", _) => {
                let (output, code, _) = &self.terminals[request["params"]["terminalId"].as_str().unwrap()];
                json!({"output": output, "truncated": false, "exitStatus": {"exitCode": code}})
            }
            ("terminal/kill", _) => json!({}),
            ("terminal/release", _) => {
                if let Some(t) = self
                    .terminals
                    .get_mut(request["params"]["terminalId"].as_str().unwrap())
                {
                    t.2 = true;
                }
                json!({})
            }
            ("fs/write_text_file", _) => {
                let path = request["params"]["path"].as_str().unwrap_or("").to_string();
                let content = request["params"]["content"].as_str().unwrap_or("").to_string();
                // A real editor saves the buffer; do the same so the file system stays coherent.
                std::fs::write(&path, &content).unwrap();
                self.editor_writes.push((path, content));
                json!({})
            }
            _ => {
                self.send(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
                )
                .await;
                return;
            }
        };
        self.send(json!({"jsonrpc": "2.0", "id": id, "result": result})).await;
    }
}
