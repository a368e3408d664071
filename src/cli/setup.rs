//! `hermes-acp --setup`'s choices and saving (the dialogue is in `wizard.rs`, which uses these):
//! the providers it offers, and saving to HERMES_HOME/.env and config.yaml
//! changing only the keys it sets (keys go to `.env`, never to config.yaml).
#![allow(clippy::print_stdout)] // A wizard talks to a person on a terminal, never to an editor.

use std::path::Path;

use super::yaml_edit::{set_env_keys, set_model_keys};
use crate::config::provider::{ANTHROPIC_URL, OPENAI_URL, OPENROUTER_URL};
use crate::llm::ApiMode;

/// A provider the wizard offers.
pub struct Choice {
    pub id: &'static str,
    pub label: &'static str,
    /// The `.env` variable the key is saved as.
    pub key_var: &'static str,
    /// Hosted providers need a key; a custom server may not.
    pub key_required: bool,
    /// `None`: ask for the URL.
    pub url: Option<&'static str>,
    pub api_mode: ApiMode,
}

pub const CHOICES: &[Choice] = &[
    Choice {
        id: "openrouter",
        label: "OpenRouter (hundreds of models, one key)",
        key_var: "OPENROUTER_API_KEY",
        key_required: true,
        url: Some(OPENROUTER_URL),
        api_mode: ApiMode::ChatCompletions,
    },
    Choice {
        id: "openai",
        label: "OpenAI",
        key_var: "OPENAI_API_KEY",
        key_required: true,
        url: Some(OPENAI_URL),
        // What `model.provider: openai` resolves to (api.openai.com speaks the Responses API).
        api_mode: ApiMode::CodexResponses,
    },
    Choice {
        id: "anthropic",
        label: "Anthropic (Claude)",
        key_var: "ANTHROPIC_API_KEY",
        key_required: true,
        url: Some(ANTHROPIC_URL),
        api_mode: ApiMode::AnthropicMessages,
    },
    Choice {
        id: "custom",
        label: "A custom OpenAI-compatible URL (Ollama, llama.cpp, vLLM, LM Studio…)",
        key_var: "CUSTOM_API_KEY",
        key_required: false,
        url: None,
        api_mode: ApiMode::ChatCompletions,
    },
];

pub fn save(home: &Path, choice: &Choice, base_url: &str, key: &str, model: &str) -> Result<(), String> {
    std::fs::create_dir_all(home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let mut model_keys: Vec<(&str, &str)> = vec![("provider", choice.id), ("default", model)];
    if choice.id == "custom" {
        model_keys.push(("base_url", base_url));
    }
    let config_path = home.join("config.yaml");
    let config_text = std::fs::read_to_string(&config_path).unwrap_or_default();
    let new_config = set_model_keys(&config_text, &model_keys);
    // A config that holds a key (one already there) is the user's alone.
    let holds_key = crate::config::ConfigFile::parse(&new_config).map_or(true, |c| !c.secret_values.is_empty());
    write(&config_path, &new_config, holds_key)?;
    if !key.is_empty() {
        let var = choice.key_var;
        let env_path = home.join(".env");
        let env_text = std::fs::read_to_string(&env_path).unwrap_or_default();
        write(&env_path, &set_env_keys(&env_text, &[(var, key)]), true)?;
    }
    Ok(())
}

/// Replaces `path` atomically. A `private` file is created 0600 from the start (the key is
/// never readable by others, not even in the temporary file); any other keeps its mode.
fn write(path: &Path, text: &str, private: bool) -> Result<(), String> {
    use std::io::Write;
    let tmp = path.with_extension("hermes-acp-tmp");
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let mode = if private {
            0o600
        } else {
            std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777)
        };
        options.mode(mode);
        mode
    };
    // Windows has no mode bits; files under the user's profile are private by its ACL.
    #[cfg(not(unix))]
    let _ = private;
    let written = options.open(&tmp).and_then(|mut file| file.write_all(text.as_bytes()));
    written.map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    // The umask may have narrowed a non-private mode; a private one is exact anyway.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode));
    }
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

// Unix only: the tests check file modes.
#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn saved_keys_are_readable_by_the_user_only() {
        let home = tempfile::tempdir().unwrap();
        let openrouter = CHOICES.iter().find(|c| c.id == "openrouter").unwrap();
        save(home.path(), openrouter, "", "sk-or-v1-0123456789abcdef", "m").unwrap();
        assert_eq!(mode(&home.path().join(".env")), 0o600);
        let custom = CHOICES.iter().find(|c| c.id == "custom").unwrap();
        save(home.path(), custom, "http://127.0.0.1:9/v1", "key-0123456789", "m").unwrap();
        // The custom server's key goes to .env too, never into config.yaml.
        let config = home.path().join("config.yaml");
        assert!(!std::fs::read_to_string(&config).unwrap().contains("key-0123456789"));
        let env = std::fs::read_to_string(home.path().join(".env")).unwrap();
        assert!(env.contains("CUSTOM_API_KEY=key-0123456789"), "{env}");
        assert_eq!(mode(&home.path().join(".env")), 0o600);
        // A config.yaml that already holds a key is kept private.
        std::fs::write(&config, "model:\n  api_key: sk-old-0123456789\n").unwrap();
        save(home.path(), custom, "http://127.0.0.1:9/v1", "", "m").unwrap();
        assert_eq!(mode(&config), 0o600);
    }
}
