//! The secret values the agent knows (filled in by the secrets work).
