//! `initialize`, `authenticate` and `logout`.

use agent_client_protocol::Error;
use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, AuthMethod, AuthMethodAgent, AuthMethodTerminal, AuthenticateRequest, AuthenticateResponse,
    Implementation, InitializeRequest, InitializeResponse, LogoutRequest, LogoutResponse, McpCapabilities,
    PromptCapabilities, SessionAdditionalDirectoriesCapabilities, SessionCapabilities, SessionCloseCapabilities,
    SessionDeleteCapabilities, SessionForkCapabilities, SessionListCapabilities, SessionOptionsCapabilities,
    SessionResumeCapabilities, SessionSystemPromptCapabilities, SessionSystemPromptModeCapabilities,
    SessionSystemPromptOverrideCapabilities,
};

use crate::acp::errors::{invalid_params, provider_error};
use crate::acp::state::AcpState;
use crate::llm::LlmError;

/// The id of the terminal auth method (runs `hermes-acp --setup`).
pub const SETUP_METHOD: &str = "hermes-setup";
/// The agent auth method id used when no provider is configured yet.
pub const CONFIG_METHOD: &str = "hermes-config";

/// Remembers the client's capabilities and describes ours truthfully.
pub fn initialize(state: &AcpState, req: InitializeRequest) -> Result<InitializeResponse, Error> {
    tracing::info!(
        client = req.client_info.as_ref().map(|c| c.name.as_str()).unwrap_or("unknown"),
        fs_read = req.client_capabilities.fs.read_text_file,
        terminal = req.client_capabilities.terminal,
        "initialize"
    );
    let terminal_auth = req.client_capabilities.auth.terminal;
    state.manager.set_client_features(crate::runtime::ClientFeatures {
        elicitation_form: (req.client_capabilities.elicitation.as_ref()).is_some_and(|e| e.form.is_some()),
        subagents: req.client_capabilities.subagents.is_some(),
    });
    state.set_client_caps(req.client_capabilities);
    let capabilities = AgentCapabilities::new()
        .load_session(true)
        .prompt_capabilities(PromptCapabilities::new().image(true).embedded_context(true))
        .mcp_capabilities(
            McpCapabilities::new()
                .http(crate::mcp::SUPPORTS_HTTP)
                .sse(crate::mcp::SUPPORTS_SSE),
        )
        .session_capabilities(
            SessionCapabilities::new()
                .list(SessionListCapabilities::new())
                .resume(SessionResumeCapabilities::new())
                .close(SessionCloseCapabilities::new())
                .delete(SessionDeleteCapabilities::new())
                .fork(SessionForkCapabilities::new())
                .additional_directories(SessionAdditionalDirectoriesCapabilities::new())
                .options(SessionOptionsCapabilities::new())
                // `override` replaces the identity only; see `acp::setup`.
                .system_prompt(
                    SessionSystemPromptCapabilities::new().mode(
                        SessionSystemPromptModeCapabilities::new()
                            .override_(SessionSystemPromptOverrideCapabilities::new()),
                    ),
                ),
        );
    let mut methods = vec![agent_method(state)];
    if terminal_auth {
        methods.push(AuthMethod::Terminal(
            AuthMethodTerminal::new(SETUP_METHOD, "Configure a provider")
                .args(vec!["--setup".to_string()])
                .description("Open hermes-acp's interactive provider and model setup in a terminal.".to_string()),
        ));
    }
    Ok(InitializeResponse::new(ProtocolVersion::V1)
        .agent_capabilities(capabilities)
        .auth_methods(methods)
        .agent_info(Implementation::new("hermes-acp", env!("CARGO_PKG_VERSION")).title("Hermes (Rust)".to_string()))
        .meta(extensions()))
}

/// Extensions peers define outside the schema, announced in the initialize result's `_meta`.
fn extensions() -> agent_client_protocol::v1::schema::Meta {
    let mut meta = agent_client_protocol::v1::schema::Meta::new();
    meta.insert("steering".into(), super::steering::advertised());
    meta
}

fn agent_method(state: &AcpState) -> AuthMethod {
    match state.manager.provider() {
        Ok((settings, _)) => AuthMethod::Agent(
            AuthMethodAgent::new(settings.id.clone(), format!("{} runtime credentials", settings.id)).description(
                format!(
                    "Use the {} provider configured in HERMES_HOME ({}).",
                    settings.id, settings.base_url
                ),
            ),
        ),
        Err(_) => AuthMethod::Agent(AuthMethodAgent::new(CONFIG_METHOD, "Hermes configuration").description(
            "Use the provider configured in HERMES_HOME/.env and config.yaml (none is configured yet).".to_string(),
        )),
    }
}

/// Succeeds only when the chosen method's provider is configured and answers.
pub async fn authenticate(state: &AcpState, req: AuthenticateRequest) -> Result<AuthenticateResponse, Error> {
    let method = req.method_id.0.trim().to_ascii_lowercase();
    let (settings, provider) = match state.manager.provider() {
        Ok(p) => p,
        Err(e) => return Err(Error::new(Error::auth_required().code, e.to_string())),
    };
    if method != settings.id && method != CONFIG_METHOD && method != SETUP_METHOD {
        return Err(invalid_params(format!(
            "unknown auth method '{method}'; this agent offers '{}'",
            settings.id
        )));
    }
    match provider.list_models().await {
        Ok(_) => Ok(AuthenticateResponse::new()),
        // A provider without a /models endpoint is still reachable.
        Err(LlmError::Status { status: 404 | 405, .. }) => Ok(AuthenticateResponse::new()),
        Err(e) => Err(provider_error(&e)),
    }
}

/// Credentials live in the user's HERMES_HOME/.env, which we never delete; nothing to forget.
pub fn logout(state: &AcpState, _req: LogoutRequest) -> Result<LogoutResponse, Error> {
    tracing::info!(home = %state.manager.home().display(), "logout: credentials stay in HERMES_HOME/.env; nothing cached to forget");
    Ok(LogoutResponse::new())
}
