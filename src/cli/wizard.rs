//! The `--setup` dialogue: choose a provider (by number or name), the URL for a custom server
//! (checked as you type), the key (hidden on a terminal), a model from the provider's list (ids
//! not in it are questioned), then one real completion. Bad input is asked again; a failed test
//! offers to change the key, URL or model, retry, save anyway or quit. Then the snippet for each
//! editor found on this machine with its next step, and the result last, where it stays on screen.
#![allow(clippy::print_stdout)] // A wizard talks to a person on a terminal, never to an editor.

use std::io::{BufRead, IsTerminal, Write};

use super::check::explain;
use super::probe::{self, Diagnosis};
use super::setup::{CHOICES, Choice, save};
use crate::config::provider::{checked_url, host_of};
use crate::llm;
use crate::llm::{Endpoint, Secret};

const DEFAULT_LOCAL_URL: &str = "http://127.0.0.1:11434/v1";
/// How many listed models are printed (OpenRouter lists hundreds; any id can be typed).
const SHOWN_MODELS: usize = 30;

/// Reads one trimmed line after printing `prompt`; `Err` when the input is closed.
fn ask(prompt: &str) -> Result<String, String> {
    print!("{prompt}");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    let mut line = String::new();
    let n = std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    if n == 0 {
        println!();
        return Err("input closed; nothing was saved".into());
    }
    Ok(line.trim().to_string())
}

/// Reads a key: hidden on a terminal, a plain line from a pipe (nothing is echoed there).
fn ask_secret(prompt: &str) -> Result<String, String> {
    if std::io::stdin().is_terminal() {
        rpassword::prompt_password(prompt)
            .map(|k| k.trim().to_string())
            .map_err(|e| e.to_string())
    } else {
        ask(prompt)
    }
}

fn pick_provider() -> Result<&'static Choice, String> {
    for (i, c) in CHOICES.iter().enumerate() {
        println!("  {}) {}", i + 1, c.label);
    }
    let names: Vec<&str> = CHOICES.iter().map(|c| c.id).collect();
    loop {
        let picked = ask("\nProvider [1]: ")?.to_ascii_lowercase();
        if picked.is_empty() {
            return Ok(&CHOICES[0]);
        }
        if let Ok(n) = picked.parse::<usize>()
            && (1..=CHOICES.len()).contains(&n)
        {
            return Ok(&CHOICES[n - 1]);
        }
        if let Some(c) = CHOICES
            .iter()
            .find(|c| c.id == picked || (picked == "claude" && c.id == "anthropic"))
        {
            return Ok(c);
        }
        println!(
            "  '{picked}' is not one of the choices: type 1-{} or a name ({}).",
            CHOICES.len(),
            names.join(", ")
        );
    }
}

fn ask_url() -> Result<String, String> {
    loop {
        let url = ask(&format!("Base URL [{DEFAULT_LOCAL_URL}]: "))?;
        let url = if url.is_empty() {
            DEFAULT_LOCAL_URL.to_string()
        } else {
            url
        };
        match checked_url(&url, "The base URL") {
            Ok(url) => return Ok(url),
            Err(e) => println!("  {e}"),
        }
    }
}

fn ask_key(choice: &Choice, base_url: &str) -> Result<String, String> {
    let optional = !choice.key_required;
    loop {
        let key = ask_secret(if optional {
            "API key, if the server needs one (input hidden, Enter for none): "
        } else {
            "API key (input hidden): "
        })?;
        if !key.is_empty() || optional {
            return Ok(key);
        }
        println!(
            "  {} needs an API key ({} in .env); paste it, or Ctrl-C to stop.",
            host_of(base_url),
            choice.key_var
        );
    }
}

fn ask_model(models: &[String]) -> Result<String, String> {
    for (i, m) in models.iter().take(SHOWN_MODELS).enumerate() {
        println!("  {}) {m}", i + 1);
    }
    if models.len() > SHOWN_MODELS {
        println!("  … and {} more (type any model id)", models.len() - SHOWN_MODELS);
    }
    loop {
        let picked = ask(if models.is_empty() {
            "Model id: "
        } else {
            "Model (number or id) [1]: "
        })?;
        match picked.parse::<usize>() {
            Ok(n) if (1..=models.len()).contains(&n) => return Ok(models[n - 1].clone()),
            _ if picked.is_empty() => match models.first() {
                Some(first) => return Ok(first.clone()),
                None => println!("  A model id is required (the server did not list its models)."),
            },
            _ if models.is_empty() || models.contains(&picked) => return Ok(picked),
            _ => {
                let closest = probe::closest(&picked, models);
                let hint = if closest.is_empty() {
                    String::new()
                } else {
                    format!(" Closest: {}.", closest.join(", "))
                };
                println!("  '{picked}' is not in the provider's list.{hint}");
                if ask("  Use it anyway? [y/N]: ")?.eq_ignore_ascii_case("y") {
                    return Ok(picked);
                }
            }
        }
    }
}

/// What the user wants after a failed test.
enum Next {
    Key,
    Url,
    Model,
    Retry,
    Save,
}

fn after_failure(diagnosis: &Diagnosis, custom: bool) -> Result<Next, String> {
    let default = match diagnosis {
        Diagnosis::BadKey(_) => 'k',
        Diagnosis::Unreachable(_) | Diagnosis::NotAnApi(_) if custom => 'u',
        Diagnosis::UnknownModel { .. } => 'm',
        _ => 'r',
    };
    let url = if custom { "[u]rl, " } else { "" };
    loop {
        let answer = ask(&format!(
            "Change the [k]ey, {url}[m]odel, [r]etry, [s]ave anyway or [q]uit? [{default}]: "
        ))?
        .to_ascii_lowercase();
        match answer.chars().next().unwrap_or(default) {
            'k' => return Ok(Next::Key),
            'u' if custom => return Ok(Next::Url),
            'm' => return Ok(Next::Model),
            'r' => return Ok(Next::Retry),
            's' => return Ok(Next::Save),
            'q' => return Err("nothing was saved".into()),
            _ => println!("  Type k, {}m, r, s or q.", if custom { "u, " } else { "" }),
        }
    }
}

pub async fn wizard() -> Result<(), String> {
    let home = crate::config::env::hermes_home_from_process();
    println!("hermes-acp setup — settings go to {}\n", home.display());
    let choice = pick_provider()?;
    let custom = choice.url.is_none();
    let mut base_url = match choice.url {
        Some(url) => url.to_string(),
        None => ask_url()?,
    };
    let mut key = ask_key(choice, &base_url)?;
    let mut model: Option<String> = None;
    // Repeated in the last line, so the outcome is what stays on screen.
    let mut verdict =
        "Setup saved without a passing test: fix what the test reported, then run `hermes-acp --check`.".to_string();
    let client = llm::http::client();
    loop {
        let settings = Endpoint {
            id: choice.id.to_string(),
            api_mode: choice.api_mode,
            base_url: base_url.clone(),
            api_key: (!key.is_empty()).then(|| Secret::new(key.clone())),
            key_source: Some(choice.key_var.to_string()),
            key_origin: Some("what you typed".to_string()),
            model: String::new(),
            reason: "setup".into(),
            ..Default::default()
        };
        let provider = llm::from_endpoint(&settings, client.clone());
        let chosen = match &model {
            Some(m) => m.clone(),
            None => {
                println!("Asking {base_url} for its models…");
                let models = probe::list_models(provider.as_ref()).await.unwrap_or_else(|e| {
                    println!("  Could not list models: {e}");
                    Vec::new()
                });
                let m = ask_model(&models)?;
                model = Some(m.clone());
                m
            }
        };
        println!("Testing {chosen} with one tiny completion…");
        let diagnosis = probe::complete_once(provider.as_ref(), &chosen, &[]).await;
        if let Diagnosis::Ok { latency, .. } = diagnosis {
            println!("  OK: {chosen} answered in {} ms.", latency.as_millis());
            verdict = format!(
                "Setup OK: {chosen} answered the test in {} ms. Check it any time with `hermes-acp --check`.",
                latency.as_millis()
            );
            break;
        }
        let report = explain(&diagnosis, &chosen, &settings, &home, Vec::new());
        println!("  {}", report.headline.trim_start_matches("hermes-acp check FAILED: "));
        match after_failure(&diagnosis, custom)? {
            Next::Key => key = ask_key(choice, &base_url)?,
            Next::Url => base_url = ask_url()?,
            Next::Model => model = None,
            Next::Retry => {}
            Next::Save => break,
        }
    }
    let model = model.unwrap_or_default();
    save(&home, choice, &base_url, &key, &model)?;
    // The result comes last, where the terminal leaves it on screen: the snippets first.
    print_editor_snippets(&home_dir());
    let env_note = if key.is_empty() {
        String::new()
    } else {
        format!(", {} in {}", choice.key_var, home.join(".env").display())
    };
    println!(
        "\nSaved: model.provider {} and model.default {model} in {}{env_note}.",
        choice.id,
        home.join("config.yaml").display()
    );
    println!("{verdict}");
    Ok(())
}

fn home_dir() -> std::path::PathBuf {
    crate::home::home_dir()
}

/// The snippet for each editor found on this machine, each with its own next step; none when
/// no editor is found (they are all in editor-configs/, and printing them all buried the result).
fn print_editor_snippets(home: &std::path::Path) {
    let path = std::env::var_os("PATH");
    let command = super::editors::launch_command(path.as_deref());
    let found = super::editors::found(home, path.as_deref());
    if found.is_empty() {
        println!(
            "\nNo editor found on this machine. The snippet for each editor (Zed, JetBrains, VS Code, \
             Neovim, Emacs, acpx) is in editor-configs/ \
             (https://github.com/hermes-acp/hermes-acp/tree/main/editor-configs); use \"{command}\" as its command."
        );
        return;
    }
    for editor in found {
        println!("\n{} — {}:\n", editor.name, editor.place);
        println!("{}", super::editors::snippet_for(editor, &command).trim_end());
        println!("\n  Next: {}.", editor.next);
    }
}
