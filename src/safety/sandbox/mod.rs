//! The OS sandbox for commands the agent runs itself (filled in by the sandbox work).
