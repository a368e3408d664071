//! Command safety: the hardline and dangerous-pattern catalogue (filled in with the toolset).
