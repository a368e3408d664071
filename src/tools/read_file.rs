//! The `read_file` tool (filled in with the toolset).
