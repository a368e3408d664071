//! The `write_file` tool (filled in with the toolset).
