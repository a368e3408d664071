//! `_session/steering`, the extension codex-acp and claude-agent-acp define for steering a
//! running turn without cancelling it (`{sessionId, prompt}` → `{outcome}`), advertised in the
//! initialize result as `_meta.steering.supported`. While a turn runs, the text joins it the
//! way `/steer` does: with the next tool results, or — when the model was writing its final
//! answer — as one more step of the same turn (`injected`). When the session is idle it starts
//! a new turn (`startedNewTurn`), unless the request says `_meta.steering.idleBehavior:
//! "promptRequired"`, which leaves that to the client (`promptRequired`). A prompt admitted but
//! still waiting to run counts as running, and the idle check and the admission happen under
//! one lock, so steers racing for an idle session start one turn and join it.

use std::sync::Arc;

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ContentBlock, PromptRequest, SessionId};
use agent_client_protocol::{Client, Error, JsonRpcRequest, JsonRpcResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::acp::convert;
use crate::acp::errors::to_rpc;
use crate::acp::state::AcpState;

/// `_session/steering` params.
#[derive(Debug, Clone, Serialize, Deserialize, JsonRpcRequest)]
#[request(method = "_session/steering", response = SteeringResponse)]
#[serde(rename_all = "camelCase")]
pub struct SteeringRequest {
    pub session_id: String,
    pub prompt: Vec<ContentBlock>,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// `_session/steering` result.
#[derive(Debug, Clone, Serialize, Deserialize, JsonRpcResponse)]
pub struct SteeringResponse {
    /// `injected`, `startedNewTurn`, `promptRequired` or `failed`.
    pub outcome: String,
}

impl SteeringResponse {
    fn new(outcome: &str) -> SteeringResponse {
        SteeringResponse {
            outcome: outcome.to_string(),
        }
    }
}

/// What goes in the initialize result's `_meta`.
pub fn advertised() -> Value {
    serde_json::json!({"supported": true, "idleBehavior": "startNewTurn"})
}

/// Steers the session's running turn, or starts one when it is idle.
pub async fn steer(
    state: Arc<AcpState>,
    req: SteeringRequest,
    cx: ConnectionTo<Client>,
) -> Result<SteeringResponse, Error> {
    let Some(text) = convert::plain_text(&req.prompt).filter(|t| !t.is_empty()) else {
        return Err(Error::invalid_params().data("steering takes text blocks with some text"));
    };
    let session = state.manager.get_or_restore(&req.session_id).await.map_err(to_rpc)?;
    let prompt_required = req
        .meta
        .as_ref()
        .and_then(|m| m.pointer("/steering/idleBehavior"))
        .and_then(Value::as_str)
        == Some("promptRequired");
    // Checked and admitted under one lock: of two steers racing for an idle session, one
    // starts the turn and the other joins it.
    let ticket = if prompt_required {
        None
    } else {
        state.manager.turns().admit_if_idle(&session.id)
    };
    let Some(ticket) = ticket else {
        // A turn is running or waiting to run: the text joins it.
        if prompt_required && !state.manager.turns().has_prompts(&session.id) {
            return Ok(SteeringResponse::new("promptRequired"));
        }
        session.tool_state.add_guidance(&text);
        return Ok(SteeringResponse::new("injected"));
    };
    let prompt = PromptRequest::new(SessionId::new(req.session_id), req.prompt);
    super::prompt::run_admitted(state, prompt, cx, ticket, None, |result| {
        if let Err(e) = result {
            tracing::warn!(error = %e, "the turn a steering request started failed");
        }
    });
    Ok(SteeringResponse::new("startedNewTurn"))
}
