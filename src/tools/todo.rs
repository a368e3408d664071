//! The session todo list and the `todo` tool (filled in with the toolset).

/// The session's task list.
#[derive(Debug, Default, Clone)]
pub struct TodoList {}
