//! Running one prompt turn on a session: wait (cancellably) for MCP servers and the previous
//! turn, build the system prompt off the async threads, assemble the turn's context, run it;
//! and `/reset`.

use std::sync::Arc;

use super::{SessionError, SessionManager, TurnSeams};
use crate::agent::{self, TurnContext, TurnOutcome, TurnScope};
use crate::runtime::SessionScope;
use crate::session::Session;
use crate::session::turns::TurnTicket;
use crate::transcript::Message;

impl SessionManager {
    /// Runs one prompt turn under `ticket` (admitted when the prompt arrived). Turns of one
    /// session run one after another; a prompt cancelled while it waits for the previous turn
    /// or for MCP servers ends at once, without running.
    pub async fn run_prompt(
        &self,
        session: &Arc<Session>,
        user: Message,
        seams: TurnSeams,
        ticket: &TurnTicket,
    ) -> Result<TurnOutcome, SessionError> {
        let (provider_settings, provider) = self.provider()?;
        let cancel = ticket.token().clone();
        let waited = async {
            let history = session.history.lock().await;
            // Inside this turn (its updates, its cancel): reconnect dead MCP servers and wait,
            // bounded, for those still connecting, so their tools are offered from the start.
            let health = self.prepare_mcp(session, &seams.events).await;
            (history, health)
        };
        let (mut history, health) = tokio::select! {
            biased;
            () = cancel.cancelled() => return Ok(TurnOutcome::cancelled_before_start()),
            waited = waited => waited,
        };
        if session.is_closed() {
            return Err(SessionError::NotFound(session.id.clone()));
        }
        ticket.mark_running();
        let settings = session.settings();
        // Before taking the tools, so a change in between is seen as new, never missed.
        let live_tools = health.map(|h| {
            Arc::new(super::mcp::SessionLiveTools::new(session.clone(), h)) as Arc<dyn agent::live_tools::LiveTools>
        });
        let tools = session.tools();
        let system_prompt = match session.cached_system_prompt() {
            Some(prompt) => prompt,
            None => {
                // Reads SOUL.md, memory, skills and context files: off the async threads.
                let (home, cwd, model) = (self.config().home.clone(), settings.cwd.clone(), settings.model.clone());
                let additional = session.workspace.additional();
                let client = settings.preferences.system_prompt.clone();
                let provider = provider_settings.id.clone();
                // A tool of one mode only (leaving plan mode) is introduced by that mode's note.
                let tool_names = tools.names_in_every_mode();
                let sections = tools.prompt_sections();
                let built = tokio::task::spawn_blocking(move || {
                    agent::prompt::build(&agent::prompt::PromptInputs {
                        hermes_home: &home,
                        cwd: &cwd,
                        additional: &additional,
                        client: client.as_ref(),
                        model: &model,
                        provider: &provider,
                        tool_names,
                        sections,
                    })
                })
                .await
                .map_err(|e| SessionError::Internal(format!("building the system prompt failed: {e}")))?;
                session.cache_system_prompt(built)
            }
        };
        let reasoning_effort = self.reasoning_effort(session);
        let delegation = Arc::new(
            agent::delegation::Delegation::new(
                self.services.clone(),
                provider.clone(),
                settings.model.clone(),
                seams.subagents,
            )
            .with_reasoning_effort(reasoning_effort),
        );
        let checkpoints = self.turn_checkpoint(session, session.workspace.roots(), seams.events.clone());
        let scope = SessionScope {
            session_id: session.id.clone(),
            workspace: session.workspace.clone(),
            state: session.tool_state.clone(),
            tools,
            approver: seams.approver,
            fs: seams.fs,
            terminals: seams.terminals,
            clarifier: seams.clarifier,
            model: Some(crate::runtime::scope::SessionModel {
                provider: provider.clone(),
                model: settings.model.clone(),
                api_mode: provider_settings.api_mode,
            }),
            delegator: Some(delegation.clone()),
            checkpoints,
            modes: seams.modes,
        };
        let priced_model = settings.model.clone();
        let turn = TurnScope {
            reasoning_effort,
            provider: provider.clone(),
            compaction: self.compaction_settings(session, &settings.model),
            model: settings.model,
            system_prompt,
            max_iterations: self.config().max_iterations,
            cancel,
            events: seams.events,
            live_tools,
            subagent: false,
        };
        let ctx = TurnContext {
            services: self.services.clone(),
            session: Arc::new(scope),
            turn,
        };
        let mut outcome = agent::run_turn(&ctx, &mut history, user).await?;
        // Children's tokens count as this turn's (they are not sessions of their own).
        outcome.usage.add(&delegation.usage());
        // Priced at the session's model (a fallback provider's tokens too: see README).
        let cost = crate::llm::pricing::turn_cost(&self.config().file.pricing, &priced_model, &outcome.usage);
        session.meter.record_turn(cost);
        Ok(outcome)
    }

    /// Clears a session's history (`/reset`).
    pub async fn reset(&self, session: &Session) -> Result<(), SessionError> {
        let mut history = session.history.lock().await;
        self.store().clear_messages(&session.id).await?;
        history.clear();
        session.auto_compaction.with(|auto| auto.reset());
        Ok(())
    }
}
