//! When a tool is offered to the model. Some tools only make sense when something outside the
//! tool exists: a web backend key, a vision model, `python3`, or an editor that can show a form
//! or subagent sessions. Each tool answers `Tool::offered` from an `Offer`; the session manager
//! filters the built-in set once per session with it, so an unusable tool never reaches the
//! model (and the system prompt never mentions it).

use super::ToolServices;

/// What the editor said it can show, at `initialize`, in our own words (only `acp/` knows ACP).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientFeatures {
    /// The client answers `elicitation/create` in form mode.
    pub elicitation_form: bool,
    /// The client renders ACP subagent sessions.
    pub subagents: bool,
}

/// What a tool may consult to decide whether it is offered.
#[derive(Clone, Copy)]
pub struct Offer<'a> {
    pub services: &'a ToolServices,
    pub client: ClientFeatures,
}
