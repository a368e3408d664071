//! The session's settings as ACP `configOptions` — model and mode (category `model` / `mode`),
//! the reasoning effort (category `thought_level`, only for models that have one) and the
//! `auto_compact` toggle — and the mode as the older `modes` state, built from the
//! session's current settings.

use agent_client_protocol::v1::schema::{
    SessionConfigOption, SessionConfigOptionCategory, SessionConfigSelectOption, SessionMode, SessionModeState,
};

use crate::session::{Session, SessionManager};

pub const MODEL_OPTION: &str = "model";
pub const MODE_OPTION: &str = "mode";
pub const AUTO_COMPACT_OPTION: &str = "auto_compact";
pub const EFFORT_OPTION: &str = "reasoning_effort";

/// The current config options of a session.
pub async fn config_options(manager: &SessionManager, session: &Session) -> Vec<SessionConfigOption> {
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
    options.push(
        SessionConfigOption::boolean(AUTO_COMPACT_OPTION, "Auto-compact", manager.auto_compact(session)).description(
            "Summarise the middle of the conversation by itself when the context fills up (/compact works either way)"
                .to_string(),
        ),
    );
    options
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
