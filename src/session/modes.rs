//! Session modes as the editor shows them. The ids and names of the first three match Hermes
//! (reference §3.3), as do `plan` and `observe` (Hermes' later adapter); `read_only` and
//! `yolo` are ours. `yolo` is offered only when the user
//! enabled it (`acp.yolo: true` in config.yaml or `HERMES_YOLO_MODE=1`). What each mode allows
//! is decided in one place, `safety::policy::decide`.

pub use crate::safety::policy::Mode;

/// A mode as the editor shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeInfo {
    pub mode: Mode,
    pub name: &'static str,
    pub description: &'static str,
}

impl ModeInfo {
    pub fn id(&self) -> &'static str {
        self.mode.id()
    }
}

const MODES: &[ModeInfo] = &[
    ModeInfo {
        mode: Mode::Default,
        name: "Default",
        description: "Ask before edits and before destructive or unrecognised commands.",
    },
    ModeInfo {
        mode: Mode::AcceptEdits,
        name: "Accept Edits",
        description: "Edits inside the project and the temp dir go through; edits elsewhere, sensitive files and destructive commands still ask.",
    },
    ModeInfo {
        mode: Mode::DontAsk,
        name: "Don't Ask",
        description: "Edits inside the project go through (as Accept Edits); edits elsewhere, sensitive files and destructive commands still ask.",
    },
    ModeInfo {
        mode: Mode::ReadOnly,
        name: "Read Only",
        description: "No edits and no commands beyond read-only ones.",
    },
    ModeInfo {
        mode: Mode::Plan,
        name: "Plan",
        description: "Look and plan, change nothing: reads, searches and read-only commands only; the agent presents a plan for your approval, which switches the mode.",
    },
    ModeInfo {
        mode: Mode::Observe,
        name: "Observe",
        description: "Everything but running commands: edits ask as in Default; no command runs.",
    },
    ModeInfo {
        mode: Mode::Yolo,
        name: "YOLO",
        description: "Never ask. Only hardline-blocked commands are refused.",
    },
];

/// The modes offered to the editor.
pub fn available_modes(yolo_allowed: bool) -> Vec<ModeInfo> {
    MODES
        .iter()
        .copied()
        .filter(|m| yolo_allowed || m.mode != Mode::Yolo)
        .collect()
}

/// The mode with this id, if we offer it.
pub fn parse_mode(id: &str, yolo_allowed: bool) -> Option<Mode> {
    Mode::from_id(id).filter(|m| yolo_allowed || *m != Mode::Yolo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yolo_only_when_enabled() {
        assert_eq!(parse_mode("yolo", false), None);
        assert_eq!(parse_mode("yolo", true), Some(Mode::Yolo));
        assert_eq!(available_modes(false).len(), 6);
        assert_eq!(parse_mode("plan", false), Some(Mode::Plan));
        assert_eq!(parse_mode("accept_edits", false), Some(Mode::AcceptEdits));
        assert_eq!(parse_mode("bogus", true), None);
    }
}
