//! What every tool call runs on, below the tools themselves: the tool contract (`Tool`,
//! `ToolContext`, `ToolOutput`) and the registry that dispatches calls; the editor seams
//! (`Approver`, `FileSystem`, `TerminalHost`, `ToolProgress` and the `seams/` for questions,
//! children and mode switches); the permission gate; the session's `Workspace`, its per-session
//! `SessionToolState` and background `processes`; file I/O through directory descriptors;
//! shell spawning inside the sandbox; and result limits and redaction. Nothing here knows a
//! particular tool (`crate::tools` is the catalogue) or ACP.

pub mod approval;
pub mod approver;
pub mod args;
pub mod checkpoint;
pub mod describe;
pub mod file_io;
pub mod fs;
pub mod fuzzy;
pub mod offer;
pub mod output;
pub mod permission;
pub mod processes;
pub mod progress;
pub mod registry;
pub mod scope;
pub mod seams;
pub mod shell;
pub mod state;
pub mod terminal_host;
pub mod tool;
pub mod workspace;

pub use approver::{ApprovalDecision, ApprovalRequest, Approver, DenyAll};
pub use describe::{Location, PlanItem, PlanStatus, Presentation, PromptSection, ToolEffect, ToolKind};
pub use fs::{FileSystem, LocalFs};
pub use offer::{ClientFeatures, Offer};
pub use progress::{NoProgress, ToolProgress};
pub use registry::ToolRegistry;
pub use scope::SessionScope;
pub use state::SessionToolState;
pub use terminal_host::{HostCommand, HostRun, LocalTerminals, TerminalHost};
pub use tool::{Tool, ToolContext, ToolOutput, ToolServices};
pub use workspace::Workspace;
// A tool result's display is stored with the message, so the type lives with the transcript.
pub use crate::transcript::{FileChange, ToolDisplay};
