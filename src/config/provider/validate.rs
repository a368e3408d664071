//! Configuration mistakes caught when the configuration is read, not on the first prompt: base
//! URLs that are not http(s) URLs (a missing `http://` used to surface as "builder error:
//! relative URL without a base" after 9 s of retries) and provider names we do not know, each
//! with a "did you mean" suggestion.

use super::super::file::ConfigFile;
use super::ProviderError;

/// Provider names a user may write, for suggestions (aliases included).
const KNOWN_PROVIDERS: &[&str] = &[
    "auto",
    "openrouter",
    "openai",
    "anthropic",
    "custom",
    "ollama",
    "lmstudio",
    "vllm",
    "llamacpp",
];

/// `url` trimmed of spaces and trailing slashes, when it is an absolute http(s) URL with a host;
/// otherwise an error naming `setting` (which says where the value was read).
pub fn checked_url(url: &str, setting: &str) -> Result<String, ProviderError> {
    let trimmed = url.trim().trim_end_matches('/').to_string();
    let invalid = |problem: &str, suggestion: String| ProviderError::InvalidUrl {
        url: url.trim().to_string(),
        setting: setting.to_string(),
        problem: problem.to_string(),
        suggestion,
    };
    match reqwest::Url::parse(&trimmed) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some() => Ok(trimmed),
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Err(invalid("it has no host", String::new())),
        // `localhost:11434/v1` parses with the scheme `localhost`: the user left out `http://`.
        Ok(_) | Err(_) if !trimmed.contains("://") && !trimmed.is_empty() => Err(invalid(
            "it must start with http:// or https://",
            format!(" Did you mean '{}'?", with_scheme(&trimmed)),
        )),
        Ok(parsed) => Err(invalid(
            &format!(
                "the scheme '{}' is not supported (use http:// or https://)",
                parsed.scheme()
            ),
            String::new(),
        )),
        Err(e) => Err(invalid(&e.to_string(), String::new())),
    }
}

/// `http://` for this machine and private hosts (local servers rarely have TLS), else `https://`.
fn with_scheme(url: &str) -> String {
    let host = super::host_of(&format!("http://{url}"));
    let local = host == "localhost"
        || host.starts_with("127.")
        || host.starts_with("192.168.")
        || host.starts_with("10.")
        || host == "0.0.0.0"
        || host.ends_with(".local");
    format!("{}://{url}", if local { "http" } else { "https" })
}

/// The error for an unknown provider name, with the closest known or configured name.
pub(super) fn unsupported(name: &str, setting: &str, file: &ConfigFile, home: &str) -> ProviderError {
    let candidates = KNOWN_PROVIDERS
        .iter()
        .map(|s| s.to_string())
        .chain(file.custom_providers.iter().map(|p| p.name.clone()));
    let best = candidates
        .map(|c| (strsim::jaro_winkler(name, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score >= 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let setting = match setting {
        "model.provider in config.yaml" => format!("model.provider in {home}/config.yaml"),
        other => other.to_string(),
    };
    ProviderError::Unsupported {
        provider: name.to_string(),
        setting,
        suggestion: best.map(|(_, c)| format!(" Did you mean '{c}'?")).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_need_a_scheme_and_a_host() {
        assert_eq!(
            checked_url(" http://127.0.0.1:11434/v1/ ", "s").unwrap(),
            "http://127.0.0.1:11434/v1"
        );
        let err = checked_url("localhost:11434/v1", "model.base_url in /h/config.yaml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "model.base_url in /h/config.yaml is 'localhost:11434/v1', which is not a usable URL: it must start with http:// or https://. Did you mean 'http://localhost:11434/v1'?"
        );
        let err = checked_url("api.example.com/v1", "s").unwrap_err().to_string();
        assert!(err.ends_with("Did you mean 'https://api.example.com/v1'?"), "{err}");
        let err = checked_url("ftp://host/v1", "s").unwrap_err().to_string();
        assert!(err.contains("the scheme 'ftp' is not supported"), "{err}");
    }

    #[test]
    fn unknown_providers_get_the_closest_name() {
        let file =
            ConfigFile::parse("custom_providers:\n  - name: gpu-box\n    base_url: http://10.0.0.5/v1\n").unwrap();
        let err = unsupported("openrouer", "model.provider in config.yaml", &file, "/h");
        assert_eq!(
            err.to_string(),
            "Provider 'openrouer' (from model.provider in /h/config.yaml) is not supported by hermes-acp. Did you mean 'openrouter'? Use openrouter, openai, anthropic, custom (any OpenAI-compatible URL) or the name of one of your custom_providers."
        );
        let err = unsupported("gpubox", "HERMES_INFERENCE_PROVIDER", &file, "/h").to_string();
        assert!(err.contains("Did you mean 'gpu-box'?"), "{err}");
        let err = unsupported("zzz", "HERMES_INFERENCE_PROVIDER", &file, "/h").to_string();
        assert!(!err.contains("Did you mean"), "{err}");
    }
}
