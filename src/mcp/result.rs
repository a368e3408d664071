//! What an MCP tool's result becomes: Hermes' result text (the text blocks, or the structured
//! content, an error as `{"error": …}`), non-text blocks summarised in words, and images kept
//! beside their placeholder for a model that can see them.

use serde_json::{Value, json};

use crate::runtime::ToolOutput;

/// Turns a `CallToolResult` (as JSON) into what the model sees.
pub fn format_result(result: &Value) -> ToolOutput {
    let text = content_text(result.get("content"));
    let is_error = result.get("isError").and_then(Value::as_bool).unwrap_or(false);
    if is_error {
        let message = if text.is_empty() {
            "MCP tool returned an error".to_string()
        } else {
            text
        };
        return ToolOutput::json_error(json!({ "error": message }));
    }
    let structured = result.get("structuredContent").filter(|v| !v.is_null());
    let value = match structured {
        Some(structured) if text.is_empty() => json!({ "result": structured }),
        Some(structured) => json!({ "result": text, "structuredContent": structured }),
        None => json!({ "result": text }),
    };
    let mut output = ToolOutput::json(value);
    output.images = content_images(result.get("content"));
    output
}

/// The largest image passed on to the model (Anthropic's limit per image; the placeholder text
/// still names a larger one).
const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// Image blocks as `data:` URLs, for models that accept images (the provider decides).
fn content_images(content: Option<&Value>) -> Vec<String> {
    let Some(Value::Array(blocks)) = content else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("image"))
        .filter_map(|block| {
            let mime = block.get("mimeType").and_then(Value::as_str)?;
            let data = block.get("data").and_then(Value::as_str)?;
            let well_formed = mime.starts_with("image/")
                && !mime.contains([';', ','])
                && !data.is_empty()
                && data.len() <= MAX_IMAGE_BYTES * 4 / 3
                && data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
            well_formed.then(|| format!("data:{mime};base64,{data}"))
        })
        .collect()
}

/// Text blocks joined by newlines; other blocks as one-line summaries.
fn content_text(content: Option<&Value>) -> String {
    let Some(Value::Array(blocks)) = content else {
        return String::new();
    };
    let parts: Vec<String> = blocks.iter().filter_map(describe_block).collect();
    parts.join("\n")
}

fn describe_block(block: &Value) -> Option<String> {
    let str_at = |key: &str| block.get(key).and_then(Value::as_str);
    let kind = str_at("type").unwrap_or_default();
    let data_len = |v: Option<&Value>| v.and_then(Value::as_str).map_or(0, |d| d.len() * 3 / 4);
    Some(match kind {
        "text" => str_at("text")?.to_string(),
        "image" | "audio" => format!(
            "[{kind}: {}, {} bytes]",
            str_at("mimeType").unwrap_or("unknown type"),
            data_len(block.get("data"))
        ),
        "resource_link" => format!("[resource link: {}]", str_at("uri").unwrap_or_default()),
        "resource" => {
            let resource = block.get("resource")?;
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or_default();
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource: {uri}]\n{text}"),
                None => format!(
                    "[resource: {uri}, {}, {} bytes]",
                    resource.get("mimeType").and_then(Value::as_str).unwrap_or("binary"),
                    data_len(resource.get("blob"))
                ),
            }
        }
        other => format!("[{other} content]"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_kept_for_the_model_beside_their_placeholder() {
        let result = json!({"content": [
            {"type": "text", "text": "shot"},
            {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
            {"type": "image", "mimeType": "text/html", "data": "AAAA"},
            {"type": "image", "mimeType": "image/png", "data": "not base64!"},
            {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}
        ]});
        let output = format_result(&result);
        assert_eq!(output.images, vec!["data:image/png;base64,iVBORw0KGgo=".to_string()]);
        assert!(
            output.content.contains("[image: image/png, 9 bytes]"),
            "{}",
            output.content
        );
        assert!(
            format_result(&json!({"content": [], "isError": true}))
                .images
                .is_empty()
        );
    }

    #[test]
    fn results_are_shaped_like_hermes() {
        let ok = format_result(&json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}));
        assert_eq!((ok.content.as_str(), ok.is_error), (r#"{"result":"a\nb"}"#, false));

        let err = format_result(&json!({"content": [{"type": "text", "text": "bad"}], "isError": true}));
        assert_eq!((err.content.as_str(), err.is_error), (r#"{"error":"bad"}"#, true));

        let bare_err = format_result(&json!({"content": [], "isError": true}));
        assert_eq!(bare_err.content, r#"{"error":"MCP tool returned an error"}"#);

        let structured = format_result(&json!({"content": [], "structuredContent": {"n": 1}}));
        assert_eq!(structured.content, r#"{"result":{"n":1}}"#);

        let both = format_result(&json!({"content": [{"type": "text", "text": "t"}], "structuredContent": {"n": 1}}));
        assert_eq!(both.content, r#"{"result":"t","structuredContent":{"n":1}}"#);
    }

    #[test]
    fn non_text_blocks_are_summarised() {
        let out = format_result(&json!({"content": [
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource_link", "uri": "file:///x", "name": "x"},
            {"type": "resource", "resource": {"uri": "file:///y", "text": "yy"}},
            {"type": "resource", "resource": {"uri": "file:///z", "blob": "AAAAAAAA", "mimeType": "application/zip"}},
            {"type": "something_new"}
        ]}));
        let value: Value = serde_json::from_str(&out.content).unwrap();
        assert_eq!(
            value["result"],
            "[image: image/png, 3 bytes]\n[resource link: file:///x]\n[resource: file:///y]\nyy\n[resource: file:///z, application/zip, 6 bytes]\n[something_new content]"
        );
    }
}
