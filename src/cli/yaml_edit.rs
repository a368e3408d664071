//! Minimal, comment-preserving edits of the user's files: set keys under the top-level `model:`
//! mapping of config.yaml, and set `KEY=value` lines of .env. Every other line — comments,
//! other settings, ordering — stays exactly as it was (Hermes bug B17 was rewriting the file).

/// Sets `model.<key>: <value>` for each pair, keeping the rest of `text`.
pub fn set_model_keys(text: &str, pairs: &[(&str, &str)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let header = lines.iter().position(|l| l.starts_with("model:"));
    let Some(header) = header else {
        let mut out = text.trim_end().to_string();
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str("model:\n");
        for (k, v) in pairs {
            out.push_str(&format!("  {k}: {}\n", quote(v)));
        }
        return out;
    };
    // `model: some-id` (a bare string) becomes a mapping keeping that id as the default.
    let inline = lines[header]["model:".len()..]
        .split(" #")
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    let mut children: Vec<(String, String)> = Vec::new();
    if !inline.is_empty() {
        lines[header] = "model:".to_string();
        children.push(("default".to_string(), inline));
    }
    let block_end = (header + 1..lines.len())
        .find(|&i| {
            let l = &lines[i];
            !l.trim().is_empty() && !l.starts_with(' ') && !l.starts_with('\t') && !l.trim_start().starts_with('#')
        })
        .unwrap_or(lines.len());
    let indent = lines[header + 1..block_end]
        .iter()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.len() - l.trim_start().len())
        .unwrap_or(2);
    let pad = " ".repeat(indent);
    let mut insert_at = (header + 1..block_end)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && (lines[i].starts_with(' ') || lines[i].starts_with('\t')))
        .map(|i| i + 1)
        .unwrap_or(header + 1);
    for (k, v) in children
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .chain(pairs.iter().copied())
    {
        let prefix = format!("{pad}{k}:");
        let existing = (header + 1..insert_at).find(|&i| lines[i].starts_with(&prefix));
        let line = format!("{pad}{k}: {}", quote(v));
        match existing {
            Some(i) => lines[i] = line,
            None => {
                lines.insert(insert_at, line);
                insert_at += 1;
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Sets `KEY=value` lines in a .env text, keeping everything else.
pub fn set_env_keys(text: &str, pairs: &[(&str, &str)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (key, value) in pairs {
        let line = format!("{key}={value}");
        let found = lines.iter().position(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix("export ").unwrap_or(t);
            t.starts_with(&format!("{key}=")) || t.starts_with(&format!("{key} ="))
        });
        match found {
            Some(i) => lines[i] = line,
            None => lines.push(line),
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value.trim() == value
        && !value.chars().any(|c| ":#{}[],&*!|>'\"%@`".contains(c))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "null" | "on" | "off" | "~"
        )
        && value.parse::<f64>().is_err();
    if plain { value.to_string() } else { format!("{value:?}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;

    #[test]
    fn model_keys_are_set_and_everything_else_kept() {
        let before = "# my settings\n_config_version: 33\nmodel:\n  default: old  # picked last week\n  temperature: 0.2\n\n# approvals\napprovals:\n  mode: manual\n";
        let after = set_model_keys(
            before,
            &[("default", "anthropic/claude-sonnet-4"), ("provider", "openrouter")],
        );
        assert_eq!(
            after,
            "# my settings\n_config_version: 33\nmodel:\n  default: anthropic/claude-sonnet-4\n  temperature: 0.2\n  provider: openrouter\n\n# approvals\napprovals:\n  mode: manual\n"
        );
        let parsed = ConfigFile::parse(&after).unwrap();
        assert_eq!(parsed.model_default.as_deref(), Some("anthropic/claude-sonnet-4"));
    }

    #[test]
    fn bare_model_and_missing_model_and_quoting() {
        let after = set_model_keys(
            "model: gpt-4o\nother: 1\n",
            &[("base_url", "http://127.0.0.1:11434/v1")],
        );
        assert_eq!(
            after,
            "model:\n  default: gpt-4o\n  base_url: \"http://127.0.0.1:11434/v1\"\nother: 1\n"
        );
        assert_eq!(
            ConfigFile::parse(&after).unwrap().model_base_url.as_deref(),
            Some("http://127.0.0.1:11434/v1")
        );
        assert_eq!(
            set_model_keys("", &[("provider", "custom")]),
            "model:\n  provider: custom\n"
        );
    }

    #[test]
    fn env_keys_replace_or_append() {
        let after = set_env_keys(
            "# keys\nexport OPENAI_API_KEY=old\nOTHER=1",
            &[("OPENAI_API_KEY", "new"), ("X", "y")],
        );
        assert_eq!(after, "# keys\nOPENAI_API_KEY=new\nOTHER=1\nX=y\n");
    }
}
