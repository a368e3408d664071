//! What happens to every tool result before anyone sees it: size limits (results over the cap
//! are cut with a note that says how much was dropped, on a character boundary, so the model's
//! context stays bounded) and redaction of the whole result, display included.

use crate::runtime::{ToolDisplay, ToolOutput};
use crate::safety::secrets::SecretSet;
use crate::safety::secrets::redact::{redact_content, redact_text};

/// Largest tool result handed to the model.
pub const MAX_RESULT_CHARS: usize = 100_000;

/// Cuts `text` to at most `max` characters, appending a note with the total size.
pub fn cap(text: &str, max: usize) -> String {
    crate::text::cap_with(text, max, max, |total| {
        format!("\n\n[output truncated: {total} characters total, first {max} shown]")
    })
}

/// Keeps the first 40 % and the last 60 % of `max` characters with a marker between them:
/// the end of a command's output (errors, summaries) usually matters most.
pub fn head_tail(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let head_len = max * 2 / 5;
    let tail_len = max - head_len;
    let head: String = text.chars().take(head_len).collect();
    let tail: String = text.chars().skip(total - tail_len).collect();
    let omitted = total - head_len - tail_len;
    format!("{head}\n\n... [{omitted} characters omitted; {total} total] ...\n\n{tail}")
}

/// Redacts what the model, the editor and the database will see of one result.
pub fn redact_output(secrets: &SecretSet, output: &mut ToolOutput) {
    output.content = redact_content(secrets, &output.content);
    match &mut output.display {
        ToolDisplay::Terminal { output: text, .. } => *text = redact_text(secrets, text),
        ToolDisplay::Changes(changes) => {
            for change in changes {
                for text in [&mut change.old_text, &mut change.new_text].into_iter().flatten() {
                    *text = secrets.redact(text).into_owned();
                }
            }
        }
        ToolDisplay::None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::safety::secrets::fixtures::{AWS_SECRET_KEY, GITHUB_TOKEN, aws_secret_set};

    #[test]
    fn cap_leaves_short_text_alone_and_marks_long_text() {
        assert_eq!(cap("abc", 10), "abc");
        let long = "é".repeat(20);
        let cut = cap(&long, 5);
        assert!(cut.starts_with("ééééé\n"));
        assert!(cut.contains("20 characters total"));
    }

    #[test]
    fn head_tail_keeps_both_ends() {
        let text: String = (0..100).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let cut = head_tail(&text, 10);
        assert!(cut.starts_with("abcd\n"));
        assert!(cut.ends_with(&text[94..]));
        assert!(cut.contains("90 characters omitted"));
    }

    #[test]
    fn the_display_is_redacted_too() {
        let mut out = ToolOutput::json(json!({"output": AWS_SECRET_KEY})).with_display(ToolDisplay::Terminal {
            command: "printenv".into(),
            output: format!("{AWS_SECRET_KEY}\n{GITHUB_TOKEN}"),
            exit_code: Some(0),
        });
        redact_output(&aws_secret_set(), &mut out);
        let ToolDisplay::Terminal { output, .. } = &out.display else {
            panic!()
        };
        assert_eq!(output, "[REDACTED:AWS_SECRET_ACCESS_KEY]\nghp_…[REDACTED]");
        assert!(!out.content.contains(AWS_SECRET_KEY));
    }
}
