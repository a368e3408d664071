//! The catalogue: one folder per tool the model can call, and the one list that registers the
//! built-in ones (`builtin`). What a tool runs on — the `Tool` trait, the call context, the
//! editor seams, the permission gate, file I/O, the shell — is `crate::runtime`, below this
//! layer; tools never know about ACP. Each tool is built with the settings it consumes
//! (`BuiltinSettings`, translated from the configuration by `app`).

pub mod catalog;
pub mod clarify;
pub mod delegate;
pub mod execute_code;
pub mod memory;
pub mod patch;
pub mod plan;
pub mod process;
pub mod read_file;
pub mod search_files;
pub mod session_search;
pub mod skills;
pub mod terminal;
pub mod todo;
pub mod vision;
pub mod web;
pub mod write_file;

use std::sync::Arc;

pub use catalog::Outcome;

use crate::runtime::ToolRegistry;
use crate::runtime::file_io::GuardEnv;

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

/// The built-in coding toolset; `guard` says where the edit tools refuse to write. A new tool
/// is one line here (and its folder's `pub mod` above).
pub fn builtin(guard: GuardEnv, settings: BuiltinSettings) -> ToolRegistry {
    ToolRegistry::new(vec![
        Arc::new(skills::manage::SkillManageTool::new(&guard, settings.skills)),
        Arc::new(write_file::WriteFileTool::with_guard(guard.clone())),
        Arc::new(patch::PatchTool::with_guard(guard)),
        Arc::new(read_file::ReadFileTool),
        Arc::new(search_files::SearchFilesTool),
        Arc::new(terminal::TerminalTool),
        Arc::new(process::ProcessTool),
        Arc::new(todo::TodoTool),
        Arc::new(memory::MemoryTool::default()),
        Arc::new(session_search::SessionSearchTool),
        Arc::new(skills::SkillsListTool),
        Arc::new(skills::SkillViewTool),
        Arc::new(clarify::ClarifyTool),
        Arc::new(vision::VisionAnalyzeTool::new(settings.vision)),
        Arc::new(web::WebSearchTool::new(settings.web.clone())),
        Arc::new(web::WebExtractTool::new(settings.web)),
        Arc::new(delegate::DelegateTool::new(settings.delegation)),
        Arc::new(execute_code::ExecuteCodeTool::new(settings.code_execution)),
        Arc::new(plan::ExitPlanModeTool),
    ])
}

#[cfg(test)]
mod tests;
