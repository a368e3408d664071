//! The `patch` tool (filled in with the toolset).
