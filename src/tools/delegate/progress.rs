//! The live text of a running `delegate_task` card: one line per child — its goal, where it
//! stands and what it is doing now — rewritten whenever a child moves on.

use crate::text::clip;

/// Where a child stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildState {
    /// Waiting for a free slot (`delegation.max_concurrent_children`).
    Queued,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl ChildState {
    fn label(self) -> &'static str {
        match self {
            ChildState::Queued => "queued",
            ChildState::Running => "running",
            ChildState::Completed => "completed",
            ChildState::Failed => "failed",
            ChildState::Cancelled => "cancelled",
        }
    }
}

/// One child's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildLine {
    pub goal: String,
    pub state: ChildState,
    /// What it does now: the tool it runs, or "writing" while it answers.
    pub step: Option<String>,
}

impl ChildLine {
    pub fn queued(goal: &str) -> ChildLine {
        ChildLine {
            goal: goal.to_string(),
            state: ChildState::Queued,
            step: None,
        }
    }
}

/// The card's text for `lines` (numbered as the tasks were given).
pub fn progress_text(lines: &[ChildLine]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!(
            "{}. {} — {}",
            i + 1,
            clip(line.goal.trim(), 80),
            line.state.label()
        ));
        if let (ChildState::Running, Some(step)) = (line.state, &line.step) {
            out.push_str(&format!(": {step}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_child() {
        let mut a = ChildLine::queued("read the docs");
        a.state = ChildState::Running;
        a.step = Some("read_file".into());
        let mut b = ChildLine::queued("fix the bug");
        b.state = ChildState::Completed;
        b.step = Some("terminal".into());
        assert_eq!(
            progress_text(&[a, b, ChildLine::queued("c")]),
            "1. read the docs — running: read_file\n2. fix the bug — completed\n3. c — queued"
        );
    }
}
