//! What `skill_manage` can be configured with (`skills.*` in `config.yaml`, read by `config`).

/// The `skills:` section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkillsSettings {
    /// `skills.guard_agent_created` (default false, as in Hermes): scan skills the agent creates
    /// or edits and refuse the write when the scan finds something dangerous. Off by default in
    /// Hermes because the agent can run the same code through `terminal` anyway.
    pub guard_agent_created: bool,
}
