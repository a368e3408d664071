//! The editor's `systemPrompt` and `additionalDirectories` on `session/new`, `load`, `resume`
//! and `fork`, turned into the session layer's `SessionSetup`. A prompt this agent cannot apply
//! exactly — a mode it does not advertise, a block that is not text, no blocks — is refused with
//! -32602 before any session is created or changed, as the schema requires (never read as
//! `append`). What `override` means here: the editor's text takes the place of the agent's
//! identity (the built-in one or `SOUL.md`); the operating rules (approvals, denied actions), the
//! tool list, the mode notes, the project context and the environment lines stay.

use std::path::{Path, PathBuf};

use agent_client_protocol::Error;
use agent_client_protocol::v1::schema::{ContentBlock, SystemPrompt, SystemPromptMode};

use crate::acp::errors::invalid_params;
use crate::session::SessionSetup;
use crate::store::{ClientPrompt, ClientPromptMode};

/// The session setup a lifecycle request asks for.
pub fn session_setup(
    cwd: &Path,
    additional_directories: &[PathBuf],
    system_prompt: Option<&SystemPrompt>,
) -> Result<SessionSetup, Error> {
    Ok(SessionSetup {
        cwd: cwd.to_path_buf(),
        additional_directories: additional_directories.to_vec(),
        system_prompt: system_prompt.map(client_prompt).transpose()?,
    })
}

fn client_prompt(prompt: &SystemPrompt) -> Result<ClientPrompt, Error> {
    let mode = match &prompt.mode {
        SystemPromptMode::Append => ClientPromptMode::Append,
        SystemPromptMode::Override => ClientPromptMode::Override,
        other => {
            let shown = serde_json::to_string(other).unwrap_or_default();
            return Err(invalid_params(format!(
                "systemPrompt.mode {shown} is not supported; this agent supports \"append\" and \"override\""
            )));
        }
    };
    if prompt.content.is_empty() {
        return Err(invalid_params("systemPrompt.content must not be empty"));
    }
    let mut texts = Vec::with_capacity(prompt.content.len());
    for block in &prompt.content {
        match block {
            ContentBlock::Text(text) => texts.push(text.text.as_str()),
            _ => {
                return Err(invalid_params(
                    "systemPrompt.content may hold only text blocks; this agent accepts no other kind there",
                ));
            }
        }
    }
    Ok(ClientPrompt {
        mode,
        text: texts.join("\n\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: serde_json::Value) -> Result<ClientPrompt, Error> {
        client_prompt(&serde_json::from_value(json).unwrap())
    }

    #[test]
    fn text_blocks_join_and_both_advertised_modes_are_read() {
        let prompt = parse(serde_json::json!({"mode": "override", "content": [
            {"type": "text", "text": "One."}, {"type": "text", "text": "Two."}
        ]}))
        .unwrap();
        assert_eq!(
            (prompt.mode, prompt.text.as_str()),
            (ClientPromptMode::Override, "One.\n\nTwo.")
        );
        let prompt = parse(serde_json::json!({"mode": "append", "content": [{"type": "text", "text": "x"}]})).unwrap();
        assert_eq!(prompt.mode, ClientPromptMode::Append);
    }

    #[test]
    fn unknown_modes_other_blocks_and_no_blocks_are_invalid_params() {
        let text = serde_json::json!([{"type": "text", "text": "x"}]);
        let image = serde_json::json!([{"type": "image", "data": "AA==", "mimeType": "image/png"}]);
        for (mode, content, expected) in [
            ("_replace_all", text.clone(), "\"_replace_all\" is not supported"),
            ("prepend", text, "\"prepend\" is not supported"),
            ("append", image, "only text blocks"),
            ("append", serde_json::json!([]), "must not be empty"),
        ] {
            let error = parse(serde_json::json!({"mode": mode, "content": content})).unwrap_err();
            assert_eq!(error.code, Error::invalid_params().code);
            let data = error.data.as_ref().and_then(|d| d.as_str()).unwrap_or_default();
            assert!(data.contains(expected), "{error:?}");
        }
    }
}
