//! Session modes: how much the agent may do without asking. The ids and names of the first three
//! match Hermes (reference §3.3); `read_only` and `yolo` are ours. `yolo` is offered only when the
//! user enabled it (`acp.yolo: true` in config.yaml or `HERMES_YOLO_MODE=1`).

/// A mode as the editor shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
}

pub const DEFAULT_MODE: &str = "default";

const MODES: &[ModeInfo] = &[
    ModeInfo {
        id: "default",
        name: "Default",
        description: "Ask before edits and dangerous commands.",
    },
    ModeInfo {
        id: "accept_edits",
        name: "Accept Edits",
        description: "Auto-allow workspace and /tmp edits; still asks for sensitive paths and dangerous commands.",
    },
    ModeInfo {
        id: "dont_ask",
        name: "Don't Ask",
        description: "Auto-allow file edits for this session except sensitive paths; still asks for dangerous commands.",
    },
    ModeInfo {
        id: "read_only",
        name: "Read Only",
        description: "No edits and no commands beyond read-only ones.",
    },
    ModeInfo {
        id: "yolo",
        name: "YOLO",
        description: "Never ask. Only hardline-blocked commands are refused.",
    },
];

/// The modes offered to the editor.
pub fn available_modes(yolo_allowed: bool) -> Vec<ModeInfo> {
    MODES
        .iter()
        .copied()
        .filter(|m| yolo_allowed || m.id != "yolo")
        .collect()
}

/// Whether `id` is a mode we offer.
pub fn is_valid_mode(id: &str, yolo_allowed: bool) -> bool {
    available_modes(yolo_allowed).iter().any(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yolo_only_when_enabled() {
        assert!(!is_valid_mode("yolo", false));
        assert!(is_valid_mode("yolo", true));
        assert_eq!(available_modes(false).len(), 4);
        assert!(is_valid_mode("accept_edits", false));
        assert!(!is_valid_mode("bogus", true));
    }
}
