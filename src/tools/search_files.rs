//! The `search_files` tool (filled in with the toolset).
