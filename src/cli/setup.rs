//! `hermes-acp --setup`: the interactive wizard behind the editor's terminal auth method. Choose
//! a provider, enter the key without echo, pick a model from the provider's list, test it, and
//! save to HERMES_HOME/.env and config.yaml changing only the keys it sets.
#![allow(clippy::print_stdout)] // A wizard talks to a person on a terminal, never to an editor.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use tokio_util::sync::CancellationToken;

use super::yaml_edit::{set_env_keys, set_model_keys};
use crate::config::provider::{OPENAI_URL, OPENROUTER_URL};
use crate::config::{ApiMode, ProviderSettings, Secret, hermes_home};
use crate::llm::retry::{CallOutcome, call_with_retry};
use crate::llm::{self, ChatRequest, RetryPolicy};
use crate::transcript::Message;

struct Choice {
    id: &'static str,
    label: &'static str,
    key_var: Option<&'static str>,
    url: Option<&'static str>,
}

const CHOICES: &[Choice] = &[
    Choice {
        id: "openrouter",
        label: "OpenRouter (hundreds of models, one key)",
        key_var: Some("OPENROUTER_API_KEY"),
        url: Some(OPENROUTER_URL),
    },
    Choice {
        id: "openai",
        label: "OpenAI",
        key_var: Some("OPENAI_API_KEY"),
        url: Some(OPENAI_URL),
    },
    Choice {
        id: "custom",
        label: "A custom OpenAI-compatible URL (Ollama, llama.cpp, vLLM, LM Studio…)",
        key_var: None,
        url: None,
    },
];

/// Runs the wizard.
pub async fn run() -> ExitCode {
    if !std::io::stdin().is_terminal() {
        println!(
            "hermes-acp --setup is interactive and needs a terminal. Run it in a terminal, or configure a provider by hand: \
             put OPENROUTER_API_KEY (or OPENAI_API_KEY) in ~/.hermes/.env, or set model.provider/base_url/default in ~/.hermes/config.yaml."
        );
        return ExitCode::from(2);
    }
    match wizard().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("Setup did not finish: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ask(prompt: &str) -> Result<String, String> {
    print!("{prompt}");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    let mut line = String::new();
    let n = std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    if n == 0 {
        return Err("input closed".into());
    }
    Ok(line.trim().to_string())
}

async fn wizard() -> Result<(), String> {
    let home = hermes_home(std::env::var_os("HERMES_HOME").map(Into::into));
    println!("hermes-acp setup — settings go to {}\n", home.display());
    for (i, c) in CHOICES.iter().enumerate() {
        println!("  {}) {}", i + 1, c.label);
    }
    let picked = ask("\nProvider [1]: ")?;
    let index = if picked.is_empty() {
        0
    } else {
        picked
            .parse::<usize>()
            .map_err(|_| format!("'{picked}' is not a number"))?
            .saturating_sub(1)
    };
    let choice = CHOICES.get(index).ok_or("no such provider")?;

    let base_url = match choice.url {
        Some(url) => url.to_string(),
        None => {
            let url = ask("Base URL [http://127.0.0.1:11434/v1]: ")?;
            if url.is_empty() {
                "http://127.0.0.1:11434/v1".to_string()
            } else {
                url.trim_end_matches('/').to_string()
            }
        }
    };
    let key_prompt = if choice.key_var.is_some() {
        "API key (input hidden): "
    } else {
        "API key, if the server needs one (input hidden, Enter for none): "
    };
    let key = rpassword::prompt_password(key_prompt)
        .map_err(|e| e.to_string())?
        .trim()
        .to_string();
    if choice.key_var.is_some() && key.is_empty() {
        return Err("an API key is required for this provider".into());
    }
    let settings = ProviderSettings {
        id: choice.id.to_string(),
        api_mode: ApiMode::ChatCompletions,
        base_url: base_url.clone(),
        api_key: (!key.is_empty()).then(|| Secret::new(key.clone())),
        key_source: choice.key_var.map(str::to_string),
        key_origin: None,
        model: String::new(),
        reason: "setup".into(),
    };
    let provider = llm::from_settings(&settings, Default::default(), llm::http::client())?;
    println!("Asking {base_url} for its models…");
    let models = match provider.list_models().await {
        Ok(models) => models,
        Err(e) => {
            println!("Could not list models: {e}");
            Vec::new()
        }
    };
    for (i, m) in models.iter().take(30).enumerate() {
        println!("  {}) {m}", i + 1);
    }
    if models.len() > 30 {
        println!("  … and {} more (type any model id)", models.len() - 30);
    }
    let picked = ask(if models.is_empty() {
        "Model id: "
    } else {
        "Model (number or id) [1]: "
    })?;
    let model = match picked.parse::<usize>() {
        Ok(n) if n >= 1 && n <= models.len() => models[n - 1].clone(),
        _ if picked.is_empty() => models.first().cloned().ok_or("a model id is required")?,
        _ => picked,
    };

    println!("Testing {model}…");
    let request = ChatRequest {
        model: model.clone(),
        messages: vec![Message::user("Reply with the single word OK.")],
        tools: vec![],
        max_tokens: Some(16),
    };
    let test = call_with_retry(
        provider.as_ref(),
        &request,
        &RetryPolicy::default(),
        &CancellationToken::new(),
        &mut |_| {},
        &mut |_| {},
    )
    .await;
    match test {
        Ok(CallOutcome::Completed(done)) => println!("The model answered: {}", done.message.text_content().trim()),
        Ok(CallOutcome::Cancelled(_)) => {}
        Err(e) => {
            println!("The test failed: {e}");
            if !ask("Save anyway? [y/N]: ")?.eq_ignore_ascii_case("y") {
                return Err("nothing was saved".into());
            }
        }
    }
    save(&home, choice, &base_url, &key, &model)?;
    println!(
        "Saved. Restart the agent in your editor to use {model} via {}.",
        choice.id
    );
    Ok(())
}

fn save(home: &Path, choice: &Choice, base_url: &str, key: &str, model: &str) -> Result<(), String> {
    std::fs::create_dir_all(home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let mut model_keys: Vec<(&str, &str)> = vec![("provider", choice.id), ("default", model)];
    if choice.id == "custom" {
        model_keys.push(("base_url", base_url));
        if !key.is_empty() {
            model_keys.push(("api_key", key));
        }
    }
    let config_path = home.join("config.yaml");
    let config_text = std::fs::read_to_string(&config_path).unwrap_or_default();
    let new_config = set_model_keys(&config_text, &model_keys);
    // A config that holds a key (ours or one already there) is the user's alone.
    let holds_key = crate::config::ConfigFile::parse(&new_config).map_or(true, |c| !c.secret_values.is_empty());
    write(&config_path, &new_config, holds_key)?;
    if let Some(var) = choice.key_var {
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
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let tmp = path.with_extension("hermes-acp-tmp");
    let _ = std::fs::remove_file(&tmp);
    let mode = if private {
        0o600
    } else {
        std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777)
    };
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&tmp)
        .and_then(|mut file| file.write_all(text.as_bytes()));
    written.map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    // The umask may have narrowed a non-private mode; a private one is exact anyway.
    let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode));
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

#[cfg(test)]
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
        let custom = Choice {
            id: "custom",
            label: "",
            key_var: None,
            url: None,
        };
        save(home.path(), &custom, "http://127.0.0.1:9/v1", "key-0123456789", "m").unwrap();
        let config = home.path().join("config.yaml");
        assert!(std::fs::read_to_string(&config).unwrap().contains("key-0123456789"));
        assert_eq!(mode(&config), 0o600);
    }
}
