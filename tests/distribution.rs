//! The files users copy into their editors, each checked against its client's documented schema
//! (one test per file), and the ACP registry manifest checked against the registry's rules and
//! what `scripts/release.sh` writes (id pattern, numeric version, required fields, one entry per
//! built target with a versioned archive, cmd and a real sha256; icon 16×16 using only
//! currentColor). The README, LICENSE and release script a newcomer needs exist and agree.

use std::path::Path;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn registry_manifest_follows_the_rules() {
    let text = std::fs::read_to_string(root().join("acp_registry/agent.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let id = manifest["id"].as_str().unwrap();
    assert!(regex_like_id(id), "id must match ^[a-z][a-z0-9-]*$: {id}");
    let version = manifest["version"].as_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"), "manifest version follows the crate");
    assert!(version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u64>().is_ok()));
    for key in ["name", "description", "repository", "license"] {
        assert!(
            manifest[key].as_str().is_some_and(|s| !s.is_empty()),
            "{key} is required"
        );
    }
    assert!(manifest.get("icon").is_none(), "the registry build sets icon itself");
    let binary = manifest["distribution"]["binary"]
        .as_object()
        .expect("binary distribution");
    let allowed = [
        "darwin-aarch64",
        "darwin-x86_64",
        "linux-aarch64",
        "linux-x86_64",
        "windows-aarch64",
        "windows-x86_64",
    ];
    // Before a release the manifest is the script's template (its `_comment` says so); the
    // script removes the note when it writes the targets it built and checked.
    let template = manifest
        .get("_comment")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains("scripts/release.sh"));
    // At least Linux x86_64 (a static musl binary).
    assert!(binary.contains_key("linux-x86_64"), "ships the static Linux binary");
    for (target, entry) in binary {
        assert!(allowed.contains(&target.as_str()), "unknown target {target}");
        let archive = entry["archive"].as_str().unwrap();
        assert!(
            archive.contains(&format!("v{version}/")),
            "archive URL carries the version: {archive}"
        );
        let file = archive.rsplit('/').next().unwrap();
        let triple = file
            .strip_prefix(&format!("hermes-acp-{version}-"))
            .and_then(|rest| rest.strip_suffix(".tar.gz").or_else(|| rest.strip_suffix(".zip")))
            .unwrap_or_else(|| panic!("archive is hermes-acp-<version>-<target>.tar.gz/.zip: {file}"));
        let (os, arch) = target.split_once('-').unwrap();
        let os = if os == "darwin" { "apple-darwin" } else { os };
        assert!(triple.starts_with(arch) && triple.contains(os), "{target} vs {triple}");
        assert_eq!(file.ends_with(".zip"), target.starts_with("windows"), "{file}");
        assert!(!archive.contains("latest"));
        let cmd = entry["cmd"].as_str().unwrap();
        if target.starts_with("windows") {
            assert!(cmd.ends_with(".exe"), "{cmd}");
        } else {
            assert_eq!(cmd, "./hermes-acp");
        }
        let sha = entry["sha256"].as_str().unwrap();
        assert!(sha.len() == 64 && sha.chars().all(|c| c.is_ascii_hexdigit()), "{sha}");
        // Placeholders only in the template the release script has not filled in yet.
        assert!(
            template || sha.chars().any(|c| c != '0'),
            "a released manifest carries the digest the release script computed: {sha}"
        );
        // When the archive built by the script is still here, the manifest names its digest.
        let local = root().join("dist").join(format!("{file}.sha256"));
        if let Ok(written) = std::fs::read_to_string(&local) {
            assert_eq!(written.split_whitespace().next(), Some(sha), "{}", local.display());
        }
    }
    if template {
        assert!(
            binary
                .values()
                .all(|e| e["sha256"].as_str().unwrap().chars().all(|c| c == '0')),
            "a template carries no real digest"
        );
    }
}

/// One version everywhere: Cargo.toml's is the manifest's, the npm launcher's and the exact
/// version of each platform package it depends on, and the wheel's (maturin reads it from
/// Cargo.toml; `dynamic` says so). Package names and specs in the manifest carry it too.
#[test]
fn manifest_and_package_versions_follow_cargo_toml() {
    let version = env!("CARGO_PKG_VERSION");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("acp_registry/agent.json")).unwrap()).unwrap();
    assert_eq!(manifest["version"], version);
    let npm: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("packaging/npm/package.json")).unwrap()).unwrap();
    assert_eq!(npm["name"], "hermes-acp");
    assert_eq!(npm["version"], version, "packaging/npm/package.json");
    assert_eq!(npm["bin"]["hermes-acp"], "bin/hermes-acp.js");
    let platforms = npm["optionalDependencies"].as_object().unwrap();
    let expected = ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-x64"];
    assert_eq!(
        platforms.keys().map(String::as_str).collect::<Vec<_>>(),
        expected.map(|p| format!("hermes-acp-{p}")),
        "one optional package per registry platform"
    );
    for (name, spec) in platforms {
        assert_eq!(spec, version, "{name} is pinned to exactly this version");
    }
    let pyproject = std::fs::read_to_string(root().join("pyproject.toml")).unwrap();
    let pyproject: toml::Value = toml::from_str(&pyproject).unwrap();
    assert_eq!(pyproject["project"]["name"].as_str(), Some("hermes-acp-rs"));
    assert!(
        pyproject["project"].get("version").is_none()
            && pyproject["project"]["dynamic"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d.as_str() == Some("version")),
        "the wheel takes its version from Cargo.toml"
    );
    assert_eq!(pyproject["tool"]["maturin"]["bindings"].as_str(), Some("bin"));
    assert_eq!(
        manifest["distribution"]["npx"]["package"],
        format!("hermes-acp@{version}"),
        "npx runs the launcher's `hermes-acp` bin at exactly this version"
    );
    // `uvx <package>` runs the executable named like the package, and PyPI's `hermes-acp` is
    // another project: the wheel `hermes-acp-rs` holds `hermes-acp`, which only
    // `uvx --from hermes-acp-rs hermes-acp` runs, a form the registry's `uvx` entry cannot say.
    assert!(manifest["distribution"].get("uvx").is_none());
}

fn regex_like_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[test]
fn registry_icon_is_16_square_and_current_color_only() {
    let svg = std::fs::read_to_string(root().join("acp_registry/icon.svg")).unwrap();
    assert!(svg.contains("viewBox=\"0 0 16 16\""));
    assert!(svg.contains("width=\"16\"") && svg.contains("height=\"16\""));
    assert!(svg.contains("currentColor"));
    assert!(!svg.contains("<style"));
    for attr in ["fill=\"", "stroke=\""] {
        for value in svg.split(attr).skip(1).map(|rest| rest.split('"').next().unwrap()) {
            assert!(["currentColor", "none", "inherit"].contains(&value), "{attr}{value}");
        }
    }
}

fn json(file: &str) -> Value {
    let path = root().join("editor-configs").join(file);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `command` a non-empty string, `args` strings, `env` string values: the shape Zed, JetBrains
/// and the VS Code ACP Client share for a custom agent.
fn assert_command_entry(file: &str, entry: &Value) {
    let object = entry
        .as_object()
        .unwrap_or_else(|| panic!("{file}: entry is an object"));
    assert_eq!(entry["command"], "hermes-acp", "{file}");
    assert!(
        entry["args"].as_array().unwrap().iter().all(Value::is_string),
        "{file}: args"
    );
    assert!(
        entry["env"].as_object().unwrap().values().all(Value::is_string),
        "{file}: env"
    );
    for key in object.keys() {
        assert!(
            ["type", "command", "args", "env"].contains(&key.as_str()),
            "{file}: unknown key {key}"
        );
    }
}

#[test]
fn zed_snippet_is_a_custom_agent_server() {
    let zed = json("zed.json");
    let servers = zed["agent_servers"].as_object().unwrap();
    assert_eq!(servers.len(), 1);
    let entry = servers.values().next().unwrap();
    assert_eq!(
        entry["type"], "custom",
        "Zed needs type custom for a command-launched agent"
    );
    assert_command_entry("zed.json", entry);
}

#[test]
fn jetbrains_snippet_is_an_acp_json() {
    let jetbrains = json("jetbrains-acp.json");
    let servers = jetbrains["agent_servers"].as_object().unwrap();
    assert_eq!(servers.len(), 1);
    let entry = servers.values().next().unwrap();
    assert!(entry.get("type").is_none(), "acp.json has no type field");
    assert_command_entry("jetbrains-acp.json", entry);
}

#[test]
fn vscode_snippet_fills_acp_agents() {
    let vscode = json("vscode-settings.json");
    let agents = vscode["acp.agents"].as_object().unwrap();
    assert_eq!(agents.len(), 1);
    let entry = agents.values().next().unwrap();
    assert!(entry.get("type").is_none());
    assert_command_entry("vscode-settings.json", entry);
}

#[test]
fn acpx_snippet_follows_acpx_config_rules() {
    let acpx = json("acpx-config.json");
    let agents = acpx["agents"].as_object().unwrap();
    let default = acpx["defaultAgent"].as_str().unwrap();
    assert!(agents.contains_key(default), "defaultAgent names a configured agent");
    for (name, entry) in agents {
        // acpx accepts `argv` alone (newer) or a `command` string (every version).
        match (entry.get("argv"), entry.get("command")) {
            (Some(argv), None) => {
                assert!(entry.get("args").is_none(), "{name}: argv alone");
                assert_eq!(argv[0], "hermes-acp");
            }
            (None, Some(command)) => {
                let command = command.as_str().unwrap();
                assert_eq!(command.split_whitespace().next(), Some("hermes-acp"), "{name}");
            }
            _ => panic!("{name}: needs argv or command, not both"),
        }
    }
}

#[test]
fn neovim_snippet_lets_codecompanion_pick_the_offered_auth_method() {
    let nvim = std::fs::read_to_string(root().join("editor-configs/neovim.lua")).unwrap();
    let code: String = nvim
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    // A fixed auth method fails with -32602 "unknown auth method" unless it equals the
    // configured provider's id; without one CodeCompanion takes the first method offered.
    assert!(!code.contains("auth_method"), "no hard-coded auth_method");
    // Extends a preset that itself sets no auth method or API-key env (goose does neither).
    assert!(
        code.contains(r#"require("codecompanion.adapters").extend("goose", {"#),
        "{code}"
    );
    assert!(code.contains(r#"default = { "hermes-acp" },"#), "{code}");
    assert!(code.contains("adapters = {") && code.contains("acp = {") && code.contains("hermes = function()"));
    assert!(code.contains(r#"chat = { adapter = "hermes" }"#));
    let opens = code.matches(['{', '(']).count();
    let closes = code.matches(['}', ')']).count();
    assert_eq!(opens, closes, "balanced brackets");
}

#[test]
fn emacs_snippet_points_agent_shells_hermes_agent_at_hermes_acp() {
    let elisp = std::fs::read_to_string(root().join("editor-configs/emacs-agent-shell.el")).unwrap();
    let code: Vec<&str> = elisp
        .lines()
        .filter(|l| !l.trim_start().starts_with(";;") && !l.trim().is_empty())
        .collect();
    // agent-shell-hermes.el's own variable: a list of the command and its arguments.
    assert_eq!(code, ["(setq agent-shell-hermes-acp-command '(\"hermes-acp\"))"]);
    assert!(elisp.contains("29.1"), "names the Emacs it needs");
}

#[test]
fn editor_readme_explains_every_snippet_and_the_versions_they_need() {
    let readme = std::fs::read_to_string(root().join("editor-configs/README.md")).unwrap();
    for file in [
        "zed.json",
        "jetbrains-acp.json",
        "vscode-settings.json",
        "acpx-config.json",
        "neovim.lua",
        "emacs-agent-shell.el",
    ] {
        assert!(readme.contains(file), "README explains {file}");
    }
    for version in ["Neovim 0.11", "Emacs 29.1"] {
        assert!(readme.contains(version), "README names {version}");
    }
    let main = std::fs::read_to_string(root().join("README.md")).unwrap();
    for needle in ["emacs-agent-shell.el", "Neovim 0.11", "Emacs 29.1"] {
        assert!(main.contains(needle), "the README's editor table has {needle}");
    }
}

#[test]
fn readme_quick_start_license_and_release_script() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let order = [
        "cargo install --locked --path .",
        "hermes-acp --setup",
        "hermes-acp --check",
        "agent panel",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|step| {
            readme
                .find(step)
                .unwrap_or_else(|| panic!("README quick start has {step}"))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "quick start in order: {order:?}"
    );
    for needle in [
        "Requirements",
        "Rust 1.88",
        "C compiler",
        "Hermes Agent](https://",
        "OpenRouter",
    ] {
        assert!(readme.contains(needle), "README mentions {needle}");
    }
    let license = std::fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License"));
    assert!(
        std::fs::read_to_string(root().join("Cargo.toml"))
            .unwrap()
            .contains("license = \"MIT\"")
    );
    let script = std::fs::read_to_string(root().join("scripts/release.sh")).unwrap();
    assert!(script.starts_with("#!/usr/bin/env bash"));
    for needle in [
        "--locked",
        "strip",
        "README.md LICENSE",
        ".sha256",
        "acp_registry/agent.json",
        "15 * 1024 * 1024",
    ] {
        assert!(script.contains(needle), "release script: {needle}");
    }
    let ignored = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    assert!(ignored.lines().any(|l| l == "/dist"), "archives stay out of git");
}
