//! The catalogue: one folder per tool (or family of tools) the model can call, and the one list
//! that declares the folders and registers the built-in tools (`catalogue!`, which writes
//! `builtin`). What a tool runs on — the `Tool` trait, the call context, the
//! editor seams, the permission gate, file I/O, the shell — is `crate::runtime`, below this
//! layer; tools never know about ACP. Each tool is built with the settings it consumes
//! (`BuiltinSettings`, translated from the configuration by `app`).

pub mod catalog;

use std::sync::Arc;

pub use catalog::Outcome;

use crate::runtime::file_io::GuardEnv;
use crate::runtime::{Tool, ToolRegistry};

/// The settings the configurable built-in tools are built with (each type lives in its tool's
/// folder); the defaults are Hermes' defaults with no backend configured.
#[derive(Clone, Default)]
pub struct BuiltinSettings {
    /// `skills.*` (`skill_manage`'s threat scan).
    pub skills: skills::SkillsSettings,
    /// The vision model `vision_analyze` asks (`auxiliary.vision`), and its limits.
    pub vision: vision::VisionServices,
    /// The web backends `web_search`/`web_extract` use (resolved once from `web:` and the env).
    pub web: Arc<web::WebBackends>,
    /// `execute_code`'s limits (`code_execution.*`).
    pub code_execution: execute_code::CodeExecutionSettings,
    /// How `delegate_task` may spawn children (`delegation.*`).
    pub delegation: delegate::DelegationSettings,
}

/// Declares each tool folder and builds `builtin()` from the same lines: one line per folder,
/// naming the tools it holds and how each is built from the edit guard and the settings (the
/// two names before the list), so a new tool is one line here.
macro_rules! catalogue {
    (|$guard:ident, $settings:ident| $($folder:ident => [$($tool:expr),+ $(,)?]),+ $(,)?) => {
        $(pub mod $folder;)+

        /// The built-in coding toolset; `guard` says where the edit tools refuse to write.
        pub fn builtin($guard: GuardEnv, $settings: BuiltinSettings) -> ToolRegistry {
            let tools: Vec<Arc<dyn Tool>> = vec![$($(Arc::new($tool)),+),+];
            ToolRegistry::new(tools)
        }
    };
}

catalogue! { |guard, settings|
    clarify => [clarify::ClarifyTool],
    delegate => [delegate::DelegateTool::new(settings.delegation)],
    execute_code => [execute_code::ExecuteCodeTool::new(settings.code_execution)],
    memory => [memory::MemoryTool::default()],
    patch => [patch::PatchTool::with_guard(guard.clone())],
    plan => [plan::ExitPlanModeTool],
    process => [process::ProcessTool],
    read_file => [read_file::ReadFileTool],
    search_files => [search_files::SearchFilesTool],
    session_search => [session_search::SessionSearchTool],
    skills => [
        skills::SkillsListTool,
        skills::SkillViewTool,
        skills::manage::SkillManageTool::new(&guard, settings.skills),
    ],
    terminal => [terminal::TerminalTool],
    todo => [todo::TodoTool],
    vision => [vision::VisionAnalyzeTool::new(settings.vision)],
    web => [web::WebSearchTool::new(settings.web.clone()), web::WebExtractTool::new(settings.web)],
    write_file => [write_file::WriteFileTool::with_guard(guard)],
}

#[cfg(test)]
mod tests;
