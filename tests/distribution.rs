//! The files users copy into their editors, and the ACP registry manifest, checked against the
//! registry's rules (id pattern, numeric version, required fields, binary targets with archive
//! and cmd, icon 16×16 using only currentColor).

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
    for family in ["darwin", "linux", "windows"] {
        assert!(binary.keys().any(|k| k.starts_with(family)), "ships {family}");
    }
    for (target, entry) in binary {
        assert!(allowed.contains(&target.as_str()), "unknown target {target}");
        let archive = entry["archive"].as_str().unwrap();
        assert!(
            archive.contains(&format!("v{version}/")),
            "archive URL carries the version: {archive}"
        );
        assert!(
            [".tar.gz", ".zip", ".tgz"].iter().any(|ext| archive.ends_with(ext)),
            "{archive}"
        );
        assert!(!archive.contains("latest"));
        let cmd = entry["cmd"].as_str().unwrap();
        if target.starts_with("windows") {
            assert!(cmd.ends_with(".exe"), "{cmd}");
        } else {
            assert_eq!(cmd, "./hermes-acp");
        }
        let sha = entry["sha256"].as_str().unwrap();
        assert!(
            sha.len() == 64 && sha.chars().all(|c| c.is_ascii_hexdigit()),
            "sha256 is 64 hex chars (release-time value)"
        );
    }
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

#[test]
fn editor_configs_parse_and_launch_the_binary() {
    let dir = root().join("editor-configs");
    let zed: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("zed.json")).unwrap()).unwrap();
    let entry = zed["agent_servers"].as_object().unwrap().values().next().unwrap();
    assert_eq!(entry["type"], "custom");
    assert_eq!(entry["command"], "hermes-acp");
    let jetbrains: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("jetbrains-acp.json")).unwrap()).unwrap();
    assert_eq!(
        jetbrains["agent_servers"].as_object().unwrap().values().next().unwrap()["command"],
        "hermes-acp"
    );
    let vscode: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("vscode-settings.json")).unwrap()).unwrap();
    assert_eq!(
        vscode["acp.agents"].as_object().unwrap().values().next().unwrap()["command"],
        "hermes-acp"
    );
    let acpx: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("acpx-config.json")).unwrap()).unwrap();
    assert_eq!(acpx["agents"]["hermes"]["argv"][0], "hermes-acp");
    let nvim = std::fs::read_to_string(dir.join("neovim.lua")).unwrap();
    assert!(nvim.contains("hermes-acp"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for file in [
        "zed.json",
        "jetbrains-acp.json",
        "vscode-settings.json",
        "acpx-config.json",
        "neovim.lua",
    ] {
        assert!(readme.contains(file), "README explains {file}");
    }
}
