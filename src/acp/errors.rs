//! The one place where internal errors become JSON-RPC errors. Every message says what went
//! wrong and, where the user can fix it, how.

use agent_client_protocol::Error;
use agent_client_protocol::v1::schema;
use serde_json::json;

use crate::agent::AgentError;
use crate::llm::LlmError;
use crate::session::SessionError;

/// Maps a session error to the JSON-RPC error the editor receives.
pub fn to_rpc(error: SessionError) -> Error {
    match error {
        SessionError::NotFound(id) => {
            let err: Error = schema::Error::session_not_found(id.clone()).into();
            let mut err = err;
            err.message = format!("Session not found: {id}");
            err
        }
        SessionError::InvalidCwd(cwd) => {
            Error::invalid_params().data(json!(format!("cwd must be an absolute path, got '{cwd}'")))
        }
        SessionError::InvalidValue(message) => Error::invalid_params().data(json!(message)),
        SessionError::NoProvider(message) => {
            Error::new(Error::auth_required().code, message.clone()).data(json!({ "details": message }))
        }
        SessionError::Config(message) => {
            Error::new(Error::internal_error().code, message.clone()).data(json!({ "details": message }))
        }
        SessionError::Store(e) => Error::internal_error().data(json!(format!("database error: {e}"))),
        SessionError::Agent(AgentError::Store(e)) => {
            Error::internal_error().data(json!(format!("could not save the conversation: {e}")))
        }
        SessionError::Agent(AgentError::Provider(e)) => provider_error(&e),
        SessionError::Internal(message) => Error::internal_error().data(json!(message)),
    }
}

/// A provider failure after retries: code -32603 with a message naming the provider, the status
/// and what to do.
pub fn provider_error(error: &LlmError) -> Error {
    let hint = match error {
        LlmError::Auth { .. } => "",
        LlmError::Status { status: 429, .. } => {
            " The provider is rate-limiting requests; wait a moment and try again, or pick another model."
        }
        LlmError::Status { status: 404, .. } => {
            " Check that the model id exists on this provider (model.default in config.yaml or the model picker)."
        }
        LlmError::Status { status: 501 | 505, .. } => {
            " This URL does not look like an OpenAI-compatible API; check model.base_url (`hermes-acp --check` says more)."
        }
        LlmError::Status { message, .. } if message.starts_with("an HTML page") => {
            " The server answered with a web page; check model.base_url (`hermes-acp --check` says more)."
        }
        LlmError::Status { status, .. } if *status >= 500 => {
            " The provider is having trouble; try again later or switch provider."
        }
        LlmError::Connect { .. } => " Check model.base_url / the network, and that the server is running.",
        _ => "",
    };
    let (provider, status) = match error {
        LlmError::Status { provider, status, .. } | LlmError::Auth { provider, status, .. } => {
            (provider.clone(), Some(*status))
        }
        LlmError::Connect { provider, .. } | LlmError::Truncated { provider } | LlmError::Protocol { provider, .. } => {
            (provider.clone(), None)
        }
    };
    Error::new(Error::internal_error().code, format!("{error}.{hint}"))
        .data(json!({ "provider": provider, "status": status }))
}

/// A bad parameter.
pub fn invalid_params(message: impl Into<String>) -> Error {
    Error::invalid_params().data(json!(message.into()))
}
