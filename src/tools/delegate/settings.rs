//! How `delegate_task` may spawn children (`delegation.*` in `config.yaml`, read by `config`).

/// `delegation.max_concurrent_children` default (Hermes: 3).
pub const DEFAULT_MAX_CONCURRENT_CHILDREN: usize = 3;
/// `delegation.max_spawn_depth` default (Hermes: 1, flat: the parent spawns, children cannot).
pub const DEFAULT_MAX_SPAWN_DEPTH: u32 = 1;
/// `delegation.max_iterations` default (Hermes: 50 model calls per child).
pub const DEFAULT_MAX_ITERATIONS: u32 = 50;

/// How `delegate_task` may spawn children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegationSettings {
    /// Children of one call running at once, and the most tasks one call may ask for (≥ 1).
    pub max_concurrent_children: usize,
    /// Agents at depths `0..max_spawn_depth` may delegate (≥ 1; no ceiling, as in Hermes).
    pub max_spawn_depth: u32,
    /// Each child's own model-call budget.
    pub max_iterations: u32,
    /// `delegation.orchestrator_enabled`: when false, `role: orchestrator` becomes `leaf`.
    pub orchestrator_enabled: bool,
    /// `delegation.reasoning_effort`: the children's level; `None` inherits the parent's.
    pub reasoning_effort: Option<crate::llm::effort::Effort>,
}

impl Default for DelegationSettings {
    fn default() -> DelegationSettings {
        DelegationSettings {
            max_concurrent_children: DEFAULT_MAX_CONCURRENT_CHILDREN,
            max_spawn_depth: DEFAULT_MAX_SPAWN_DEPTH,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            orchestrator_enabled: true,
            reasoning_effort: None,
        }
    }
}
