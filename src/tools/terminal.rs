//! The `terminal` tool (filled in with the toolset).
