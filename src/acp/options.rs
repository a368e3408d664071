//! The session's settings as ACP `configOptions` — model and mode (category `model` / `mode`),
//! the reasoning effort (category `thought_level`, only for models that have one) and the
//! `auto_compact` toggle — and the mode as the older `modes` state, built from the
//! session's current settings. The toggle is a boolean option only for a client that
//! advertised `session.configOptions.boolean`; any other gets a select of `on` and `off`,
//! which every client renders (an unknown option type may hide the whole list).

use agent_client_protocol::v1::schema::{
    SessionConfigOption, SessionConfigOptionCategory, SessionConfigSelectOption, SessionMode, SessionModeState,
};

use crate::session::{Session, SessionManager};

pub const MODEL_OPTION: &str = "model";
pub const MODE_OPTION: &str = "mode";
pub const AUTO_COMPACT_OPTION: &str = "auto_compact";
pub const EFFORT_OPTION: &str = "reasoning_effort";
/// The toggle's values where it is a select.
pub const ON: &str = "on";
pub const OFF: &str = "off";

/// The current config options of a session, in the forms the client renders (`boolean`: it
/// advertised boolean options, `AcpState::supports_boolean_options`).
pub async fn config_options(manager: &SessionManager, session: &Session, boolean: bool) -> Vec<SessionConfigOption> {
    let settings = session.settings();
    let models = manager.models(&settings.model).await;
    let model_options: Vec<SessionConfigSelectOption> = models
        .iter()
        .map(|m| SessionConfigSelectOption::new(m.clone(), m.clone()))
        .collect();
    let mode_options: Vec<SessionConfigSelectOption> = manager
        .available_modes()
        .into_iter()
        .map(|m| SessionConfigSelectOption::new(m.id(), m.name).description(m.description.to_string()))
        .collect();
    let mut options = vec![
        SessionConfigOption::select(MODEL_OPTION, "Model", settings.model.clone(), model_options)
            .category(SessionConfigOptionCategory::Model)
            .description("The model that answers in this session".to_string()),
        SessionConfigOption::select(MODE_OPTION, "Mode", settings.mode.id(), mode_options)
            .category(SessionConfigOptionCategory::Mode)
            .description("How much the agent may do without asking".to_string()),
    ];
    if let Some(choice) = manager.effort_choice(session) {
        let levels: Vec<SessionConfigSelectOption> = choice
            .levels
            .iter()
            .map(|l| SessionConfigSelectOption::new(l.id(), l.label()))
            .collect();
        options.push(
            SessionConfigOption::select(EFFORT_OPTION, "Reasoning effort", choice.current.id(), levels)
                .category(SessionConfigOptionCategory::ThoughtLevel)
                .description("How much the model thinks before it answers".to_string()),
        );
    }
    options.push(auto_compact_option(manager, session, boolean));
    options
}

/// The auto-compact toggle: a boolean, or a select of on and off where booleans are not shown.
fn auto_compact_option(manager: &SessionManager, session: &Session, boolean: bool) -> SessionConfigOption {
    let on = manager.auto_compact(session);
    let option = match boolean {
        true => SessionConfigOption::boolean(AUTO_COMPACT_OPTION, "Auto-compact", on),
        false => {
            let values = vec![
                SessionConfigSelectOption::new(ON, "On"),
                SessionConfigSelectOption::new(OFF, "Off"),
            ];
            SessionConfigOption::select(AUTO_COMPACT_OPTION, "Auto-compact", if on { ON } else { OFF }, values)
        }
    };
    option.description(
        "Summarise the middle of the conversation by itself when the context fills up (/compact works either way)"
            .to_string(),
    )
}

/// The toggle's value from either form: a boolean, or `on` / `off`.
pub fn toggle_value(value: &agent_client_protocol::v1::schema::SessionConfigOptionValue) -> Option<bool> {
    value
        .as_bool()
        .or_else(|| match value.as_value_id().map(|v| v.0.as_ref()) {
            Some(ON) => Some(true),
            Some(OFF) => Some(false),
            _ => None,
        })
}

/// The session's modes in the older `modes` shape.
pub fn mode_state(manager: &SessionManager, session: &Session) -> SessionModeState {
    let modes = manager
        .available_modes()
        .into_iter()
        .map(|m| SessionMode::new(m.id(), m.name).description(m.description.to_string()))
        .collect();
    SessionModeState::new(session.settings().mode.id(), modes)
}
