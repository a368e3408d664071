//! How long an `execute_code` script may run and how many tool calls it may make
//! (`code_execution.*` in `config.yaml`, read by `config`).

use std::time::Duration;

/// Hermes' `DEFAULT_TIMEOUT` (seconds).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// Hermes' `DEFAULT_MAX_TOOL_CALLS`.
pub const DEFAULT_MAX_TOOL_CALLS: usize = 50;

/// How long a script may run and how many tool calls it may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeExecutionSettings {
    pub timeout: Duration,
    pub max_tool_calls: usize,
}

impl Default for CodeExecutionSettings {
    fn default() -> CodeExecutionSettings {
        CodeExecutionSettings {
            timeout: DEFAULT_TIMEOUT,
            max_tool_calls: DEFAULT_MAX_TOOL_CALLS,
        }
    }
}
