//! The tool contract: the `Tool` trait every tool implements, the per-call `ToolContext` (the
//! call's id and cancel token, the session scope, the process services, where progress goes)
//! and the `ToolOutput` a call returns.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::describe::{self, PlanItem, Presentation, PromptSection, ToolEffect};
use super::{NoProgress, Offer, SessionScope, ToolDisplay, ToolProgress};

/// A tool the model can call. Implementations live one per folder in `crate::tools`.
pub trait Tool: Send + Sync {
    /// The name the model calls it by (matches Hermes exactly).
    fn name(&self) -> &'static str;
    /// The description sent to the model.
    fn description(&self) -> String;
    /// The JSON Schema of the arguments (`{"type": "object", ...}`), exactly as Hermes sends it.
    fn parameters(&self) -> Value;
    /// An interactive tool runs alone, never concurrently with other calls of the same response.
    fn interactive(&self) -> bool {
        false
    }
    /// Runs the call. Failures are reported as an error `ToolOutput`, never as a panic.
    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput>;
    /// What the call does, from its arguments: the read-only gate asks this. No default, so a
    /// new tool has to say (safety fails closed).
    fn effect(&self, args: &Value) -> ToolEffect;
    /// The card the editor shows when the call starts (paths resolve against `cwd`).
    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        describe::generic_presentation(self.name(), args, cwd)
    }
    /// A readable summary of a successful JSON result, shown on the finished card.
    fn summarise(&self, _args: &Value, result: &Value) -> String {
        describe::generic_summary(self.name(), result)
    }
    /// The plan a successful result carries, if the tool keeps one (the todo list).
    fn plan(&self, _result: &Value) -> Option<Vec<PlanItem>> {
        None
    }
    /// What the call did in a few words (the note left when its old output is pruned).
    fn brief(&self, args: &Value) -> Option<String> {
        describe::generic_brief(args)
    }
    /// The system-prompt section this tool needs when it is available.
    fn prompt_section(&self) -> Option<PromptSection> {
        None
    }
    /// Whether the model is offered this tool at all (a backend, a model or an editor feature
    /// it needs exists). Asked once per session.
    fn offered(&self, _offer: &Offer) -> bool {
        true
    }
    /// Whether the model gets this tool while the session is in `mode` (asked before every
    /// model call, since the mode can change mid-turn; a call in another mode is refused).
    fn available_in(&self, _mode: crate::safety::policy::Mode) -> bool {
        true
    }
    /// What the model can do about a refusal in `mode`, if this tool is the way out (leaving
    /// plan mode is the plan tool's). The gate appends it to every refusal in that mode.
    fn way_out(&self, _mode: crate::safety::policy::Mode) -> Option<String> {
        None
    }
}

/// Everything a tool call may use: the call's own id and cancel token, the session scope shared
/// by every call of the turn, and the process services. Built per call by the agent loop from
/// two `Arc`s, so nothing is copied field by field.
#[derive(Clone)]
pub struct ToolContext {
    /// The provider's tool-call id (or one we minted); lets approvals point at the right card.
    pub call_id: String,
    /// A child of the turn's token: cancelling the turn cancels every call.
    pub cancel: CancellationToken,
    pub session: Arc<SessionScope>,
    pub services: Arc<ToolServices>,
    /// Where a long call reports what it is doing (its card's live text, nested calls).
    pub progress: Arc<dyn ToolProgress>,
}

impl ToolContext {
    pub fn new(
        session: Arc<SessionScope>,
        services: Arc<ToolServices>,
        call_id: impl Into<String>,
        cancel: CancellationToken,
    ) -> ToolContext {
        ToolContext {
            call_id: call_id.into(),
            cancel,
            session,
            services,
            progress: Arc::new(NoProgress),
        }
    }

    /// The same call reporting progress to `progress`.
    pub fn with_progress(mut self, progress: Arc<dyn ToolProgress>) -> ToolContext {
        self.progress = progress;
        self
    }
}

/// Process-wide things tool calls need: where Hermes keeps memory and skills, the session
/// database (for searching past sessions), what must not leak (secrets, child env), the
/// sandbox and the guarded HTTP client. A tool's own settings are not here: the tool is built
/// with them (`crate::tools::builtin`).
#[derive(Clone, Default)]
pub struct ToolServices {
    /// `HERMES_HOME`; `None` in tests that do not use memory or skills.
    pub hermes_home: Option<PathBuf>,
    pub store: Option<crate::store::Store>,
    /// The secret values redacted from every result (built once at start).
    pub secrets: Arc<crate::safety::secrets::SecretSet>,
    /// The environment commands run with (credentials removed).
    pub child_env: Arc<crate::safety::secrets::ChildEnv>,
    /// The OS sandbox for local commands (`sandbox:` and `terminal.writable_roots`).
    pub sandbox: crate::safety::sandbox::SandboxSettings,
    /// The HTTP client for URLs the model names (SSRF-guarded; `web.allow_private`).
    pub http: crate::net::GuardedHttp,
}

/// The result of a tool call: what the model sees plus what the editor renders.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text sent back to the model (usually a JSON object serialised as text).
    pub content: String,
    pub is_error: bool,
    pub display: ToolDisplay,
    /// Images the tool returned (MCP screenshots, charts) as `data:` URLs. The text in `content`
    /// still describes them, so a model that cannot see images loses nothing it could read.
    pub images: Vec<String>,
}

impl ToolOutput {
    /// A successful result whose content is the given JSON value.
    pub fn json(value: Value) -> ToolOutput {
        ToolOutput {
            content: value.to_string(),
            is_error: false,
            display: ToolDisplay::None,
            images: Vec::new(),
        }
    }

    /// A failed call: `{"error": "<message>"}` for the model.
    pub fn error(message: impl Into<String>) -> ToolOutput {
        let value = serde_json::json!({ "error": message.into() });
        ToolOutput {
            content: value.to_string(),
            is_error: true,
            display: ToolDisplay::None,
            images: Vec::new(),
        }
    }

    /// A result whose JSON carries an error field but which still has content worth showing.
    pub fn json_error(value: Value) -> ToolOutput {
        ToolOutput {
            content: value.to_string(),
            is_error: true,
            display: ToolDisplay::None,
            images: Vec::new(),
        }
    }

    /// Why the call failed, for the editor: the `error` field every tool's failure JSON carries
    /// (else the whole text); `None` for a success.
    pub fn failure_message(&self) -> Option<String> {
        if !self.is_error {
            return None;
        }
        let parsed: Option<Value> = serde_json::from_str(&self.content).ok();
        Some(match parsed.as_ref().and_then(|v| v.get("error")) {
            Some(Value::String(s)) => s.clone(),
            Some(other) if !other.is_null() => other.to_string(),
            _ => self.content.clone(),
        })
    }

    pub fn with_display(mut self, display: ToolDisplay) -> ToolOutput {
        self.display = display;
        self
    }
}
