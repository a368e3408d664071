//! Background processes and the `process` tool (filled in with the toolset).

/// Background processes of one session.
#[derive(Default)]
pub struct ProcessTable {}

impl ProcessTable {
    /// Kills every tracked process.
    pub fn kill_all(&self) {}
}
