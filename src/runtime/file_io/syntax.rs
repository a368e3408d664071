//! The fail-closed syntax gate for structured files and the `lint` field of edit results.
//! JSON, YAML and TOML that do not parse are corrupt writes, so they are refused before any byte
//! touches the disk (Hermes' `_FAIL_CLOSED_INPROC_EXTS`). Other extensions are not linted here.

use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

/// Lower-cased extension with its dot (`.json`), or empty, like Python's `splitext`.
fn extension(path: &Path) -> String {
    match path.file_name().map(|n| n.to_string_lossy().into_owned()) {
        // A leading dot is part of the name (`.env` has no extension), as in `splitext`.
        Some(name) => match name.trim_start_matches('.').rfind('.') {
            Some(_) => name.rfind('.').map(|i| name[i..].to_lowercase()).unwrap_or_default(),
            None => String::new(),
        },
        None => String::new(),
    }
}

/// Parses `content` when `path` is JSON/YAML/TOML: `Some(error)` when it does not parse,
/// `None` when it does or when the extension has no in-process parser.
fn parse_error(path: &Path, content: &str) -> Option<(String, String)> {
    let ext = extension(path);
    // A BOM is a file marker, not content: parsers would trip over it.
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let error = match ext.as_str() {
        ".json" => serde_json::from_str::<IgnoredAny>(content)
            .err()
            .map(|e| format!("JSONDecodeError: {e}")),
        ".yaml" | ".yml" => yaml_error(content),
        ".toml" => toml::from_str::<toml::Table>(content)
            .err()
            .map(|e| format!("TOMLDecodeError: {}", e.message())),
        _ => return None,
    };
    error.map(|e| (ext, e))
}

/// Syntax-only YAML check: every document of a multi-document stream is parsed; tags such as
/// `!Ref` are fine (they are content conventions, not syntax).
fn yaml_error(content: &str) -> Option<String> {
    for document in serde_yaml_ng::Deserializer::from_str(content) {
        if let Err(e) = IgnoredAny::deserialize(document) {
            return Some(format!("YAMLError: {e}"));
        }
    }
    None
}

/// Refuses JSON/YAML/TOML content that does not parse, with Hermes' message.
pub fn syntax_gate(path: &Path, content: &str) -> Result<(), String> {
    match parse_error(path, content) {
        Some((ext, error)) => Err(format!(
            "Refusing to write '{}': candidate content fails {ext} syntax validation ({error}). The file was NOT \
             created or modified. Fix the content and retry.",
            path.display()
        )),
        None => Ok(()),
    }
}

/// The `lint` object of a write/patch result for the written content.
pub fn lint_report(path: &Path, content: &str) -> Value {
    let ext = extension(path);
    match ext.as_str() {
        ".json" | ".yaml" | ".yml" | ".toml" => match parse_error(path, content) {
            Some((_, error)) => json!({"status": "error", "output": error}),
            None => json!({"status": "ok", "output": ""}),
        },
        _ => json!({"status": "skipped", "message": format!("No linter for {ext} files")}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_follow_splitext() {
        assert_eq!(extension(Path::new("/a/b.JSON")), ".json");
        assert_eq!(extension(Path::new("/a/Makefile")), "");
        assert_eq!(extension(Path::new("/a/.env")), "");
        assert_eq!(extension(Path::new("/a/.config.yml")), ".yml");
        assert_eq!(extension(Path::new("/a/x.tar.gz")), ".gz");
    }

    #[test]
    fn gate_refuses_broken_structured_files_only() {
        assert!(syntax_gate(Path::new("/w/a.json"), "{\"a\": 1}").is_ok());
        let err = syntax_gate(Path::new("/w/a.json"), "{\"a\": ").unwrap_err();
        assert!(err.starts_with(
            "Refusing to write '/w/a.json': candidate content fails .json syntax validation (JSONDecodeError"
        ));
        assert!(err.ends_with("The file was NOT created or modified. Fix the content and retry."));
        assert!(syntax_gate(Path::new("/w/a.yaml"), "a: [1, 2\n").is_err());
        assert!(syntax_gate(Path::new("/w/a.yml"), "a: 1\n---\nb: !Ref x\n").is_ok());
        assert!(syntax_gate(Path::new("/w/a.toml"), "[x]\na = 1\n").is_ok());
        assert!(syntax_gate(Path::new("/w/a.toml"), "a = \n").is_err());
        assert!(syntax_gate(Path::new("/w/a.txt"), "{not json").is_ok());
        assert!(syntax_gate(Path::new("/w/a.json"), "\u{feff}{}").is_ok());
    }

    #[test]
    fn lint_reports_match_hermes_shapes() {
        assert_eq!(
            lint_report(Path::new("/w/a.txt"), "x"),
            json!({"status":"skipped","message":"No linter for .txt files"})
        );
        assert_eq!(
            lint_report(Path::new("/w/a.json"), "[]"),
            json!({"status":"ok","output":""})
        );
        assert_eq!(lint_report(Path::new("/w/a.json"), "[")["status"], "error");
        assert_eq!(
            lint_report(Path::new("/w/Makefile"), "")["message"],
            "No linter for  files"
        );
    }
}
