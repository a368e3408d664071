//! The editors `--setup` looks for at the end, and the snippet each needs: the files in
//! `editor-configs/` (compiled in, so the wizard prints exactly what the repository documents),
//! with the command made absolute when `hermes-acp` is not on the `PATH`.

use std::path::{Path, PathBuf};

/// One editor the wizard knows.
pub struct Editor {
    pub name: &'static str,
    /// Where the snippet goes.
    pub place: &'static str,
    pub snippet: &'static str,
    /// What to do once the snippet is in place: how this editor starts a Hermes session.
    pub next: &'static str,
    /// Folders under the home directory that show the editor is used.
    config_dirs: &'static [&'static str],
    /// Programs on the `PATH` that show it is installed.
    programs: &'static [&'static str],
}

pub const EDITORS: &[Editor] = &[
    Editor {
        name: "Zed",
        place: "merge into Zed's settings.json (command palette: `zed: open settings`)",
        snippet: include_str!("../../editor-configs/zed.json"),
        next: "then in Zed open the agent panel, click \"+\" and start a new Hermes thread",
        config_dirs: &[".config/zed", "Library/Application Support/Zed"],
        programs: &["zed", "zeditor"],
    },
    Editor {
        name: "JetBrains IDEs",
        place: "save as ~/.jetbrains/acp.json (AI Chat → Add Custom Agent)",
        snippet: include_str!("../../editor-configs/jetbrains-acp.json"),
        next: "then restart the IDE, open AI Chat and pick Hermes in the agent list",
        config_dirs: &[
            ".jetbrains",
            ".config/JetBrains",
            "Library/Application Support/JetBrains",
        ],
        programs: &["idea", "pycharm", "rustrover", "goland", "webstorm", "clion"],
    },
    Editor {
        name: "VS Code (ACP Client extension)",
        place: "merge into VS Code's settings.json",
        snippet: include_str!("../../editor-configs/vscode-settings.json"),
        next: "then open the ACP Client view in VS Code and connect to Hermes",
        config_dirs: &[".config/Code", ".vscode", "Library/Application Support/Code"],
        programs: &["code", "codium"],
    },
    Editor {
        name: "Neovim (CodeCompanion)",
        place: "add to your CodeCompanion setup in your Neovim config",
        snippet: include_str!("../../editor-configs/neovim.lua"),
        next: "then run :CodeCompanionChat in Neovim (the chat uses the hermes adapter)",
        config_dirs: &[".config/nvim"],
        programs: &["nvim"],
    },
    Editor {
        name: "Emacs (agent-shell)",
        place: "add to your Emacs init file (agent-shell needs Emacs 29.1 or newer)",
        snippet: include_str!("../../editor-configs/emacs-agent-shell.el"),
        next: "then run M-x agent-shell-hermes-start-agent in Emacs",
        config_dirs: &[".emacs.d", ".config/emacs"],
        programs: &["emacs"],
    },
    Editor {
        name: "acpx",
        place: "save as ~/.acpx/config.json",
        snippet: include_str!("../../editor-configs/acpx-config.json"),
        next: "then try it in a project: acpx hermes exec \"explain this repo\"",
        config_dirs: &[".acpx"],
        programs: &["acpx"],
    },
];

/// The editors found under `home` or on `path` (a `PATH`-style list), in `EDITORS` order.
pub fn found(home: &Path, path: Option<&std::ffi::OsStr>) -> Vec<&'static Editor> {
    let dirs: Vec<PathBuf> = path.map(|p| std::env::split_paths(p).collect()).unwrap_or_default();
    EDITORS
        .iter()
        .filter(|e| {
            e.config_dirs.iter().any(|d| home.join(d).is_dir())
                || e.programs.iter().any(|p| dirs.iter().any(|d| d.join(p).is_file()))
        })
        .collect()
}

/// The snippet launching `command` (the plain name when it is on the `PATH`).
pub fn snippet_for(editor: &Editor, command: &str) -> String {
    if command == "hermes-acp" {
        editor.snippet.to_string()
    } else {
        editor.snippet.replace("\"hermes-acp\"", &format!("{command:?}"))
    }
}

/// `hermes-acp` when that name on the `PATH` is this program, else this program's full path.
pub fn launch_command(path: Option<&std::ffi::OsStr>) -> String {
    let me = std::env::current_exe().ok().and_then(|p| p.canonicalize().ok());
    let on_path = path
        .map(|p| std::env::split_paths(p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join("hermes-acp"))
        .find(|c| c.is_file())
        .and_then(|c| c.canonicalize().ok());
    match (me, on_path) {
        (Some(me), Some(found)) if me == found => "hermes-acp".to_string(),
        (Some(me), _) => me.display().to_string(),
        (None, _) => "hermes-acp".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editors_are_found_by_config_folder_or_program() {
        let home = tempfile::tempdir().unwrap();
        let bin = tempfile::tempdir().unwrap();
        assert!(found(home.path(), Some(bin.path().as_os_str())).is_empty());
        std::fs::create_dir_all(home.path().join(".config/zed")).unwrap();
        std::fs::write(bin.path().join("nvim"), "").unwrap();
        let names: Vec<_> = found(home.path(), Some(bin.path().as_os_str()))
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["Zed", "Neovim (CodeCompanion)"]);
    }

    #[test]
    fn snippets_get_an_absolute_command_when_needed() {
        let zed = &EDITORS[0];
        assert_eq!(snippet_for(zed, "hermes-acp"), zed.snippet);
        let moved = snippet_for(zed, "/opt/h/hermes-acp");
        assert!(moved.contains("\"command\": \"/opt/h/hermes-acp\""), "{moved}");
        let lua = snippet_for(&EDITORS[3], "/opt/h/hermes-acp");
        assert!(lua.contains("default = { \"/opt/h/hermes-acp\" }"), "{lua}");
        let elisp = snippet_for(&EDITORS[4], "/opt/h/hermes-acp");
        assert!(
            elisp.contains("(setq agent-shell-hermes-acp-command '(\"/opt/h/hermes-acp\"))"),
            "{elisp}"
        );
    }
}
