//! Prompt content → the user message the model sees (reference §1.15, with its bugs fixed):
//! text; `resource_link` to a local file read and attached (capped); embedded `resource`
//! text or blob; `image` as a data URL. Relative file paths resolve against the session cwd.
//! The original blocks are kept in the message's meta as our own `UserContent`, so a replay
//! shows what the user sent (oversized payloads replaced by references, see `user_content`).

use std::path::{Path, PathBuf};

use agent_client_protocol::v1::schema::{ContentBlock, EmbeddedResourceResource};
use base64::Engine;

use super::attachments::{STORED_BLOCK_CAP, read_regular_capped};
use super::user_content;
use crate::runtime::workspace::resolve_against;
use crate::transcript::{Message, MessageMeta, Part, Role};

/// Largest attachment read into a prompt.
pub const ATTACHMENT_CAP: usize = 512 * 1024;

const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "bmp", "svg"];

/// [`prompt_to_message`] on the blocking pool: linked files are read from disk.
pub async fn prompt_to_message_blocking(blocks: Vec<ContentBlock>, cwd: PathBuf) -> Option<Message> {
    tokio::task::spawn_blocking(move || prompt_to_message(&blocks, &cwd))
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "converting the prompt failed");
            None
        })
}

/// Converts prompt blocks into a user message. Returns `None` when there is nothing to send.
pub fn prompt_to_message(blocks: &[ContentBlock], cwd: &Path) -> Option<Message> {
    let mut parts: Vec<Part> = Vec::new();
    for block in blocks {
        match block {
            ContentBlock::Text(t) if !t.text.is_empty() => parts.push(Part::Text { text: t.text.clone() }),
            ContentBlock::Text(_) => {}
            ContentBlock::Image(img) if img.data.len() > STORED_BLOCK_CAP => parts.push(Part::Text {
                text: format!(
                    "[An image of {} bytes was attached; too large to send (cap {STORED_BLOCK_CAP})]",
                    img.data.len()
                ),
            }),
            ContentBlock::Image(img) => {
                if img.data.starts_with("data:") {
                    parts.push(Part::Image { url: img.data.clone() });
                } else if !img.data.is_empty() {
                    let mime = if img.mime_type.is_empty() {
                        "image/png"
                    } else {
                        img.mime_type.as_str()
                    };
                    parts.push(Part::Image {
                        url: format!("data:{mime};base64,{}", img.data),
                    });
                } else if let Some(uri) = img.uri.as_deref().filter(|u| !u.is_empty()) {
                    parts.push(Part::Image { url: uri.to_string() });
                }
            }
            ContentBlock::ResourceLink(link) => {
                let display = display_name(link.title.as_deref(), &link.name, &link.uri);
                attach_link(&mut parts, &link.uri, &display, link.mime_type.as_deref(), cwd);
            }
            ContentBlock::Resource(res) => match &res.resource {
                EmbeddedResourceResource::TextResourceContents(t) => {
                    let display = uri_basename(&t.uri);
                    parts.push(Part::Text {
                        text: attached_text(&display, &t.uri, &t.text, t.text.len()),
                    });
                }
                EmbeddedResourceResource::BlobResourceContents(b) => {
                    let display = uri_basename(&b.uri);
                    let mime = b.mime_type.as_deref().unwrap_or("application/octet-stream");
                    if mime.starts_with("image/") && b.blob.len() > STORED_BLOCK_CAP {
                        parts.push(Part::Text {
                            text: format!("[Attached image: {display}]\nURI: {}\n\n[Image too large to send: {} bytes of base64, cap {STORED_BLOCK_CAP}]", b.uri, b.blob.len()),
                        });
                    } else if mime.starts_with("image/") {
                        parts.push(Part::Text {
                            text: format!("[Attached image: {display}]\nURI: {}", b.uri),
                        });
                        parts.push(Part::Image {
                            url: format!("data:{mime};base64,{}", b.blob),
                        });
                    } else {
                        match base64::engine::general_purpose::STANDARD.decode(b.blob.as_bytes()) {
                            Ok(bytes) => parts.push(Part::Text {
                                text: attach_bytes(&display, &b.uri, &bytes, Some(mime)),
                            }),
                            Err(_) => parts.push(Part::Text {
                                text: format!(
                                    "[Attached file: {display}]\nURI: {}\n\n[Could not decode the embedded data]",
                                    b.uri
                                ),
                            }),
                        }
                    }
                }
                _ => {}
            },
            ContentBlock::Audio(_) => {
                parts.push(Part::Text {
                    text: "[An audio clip was attached; this agent cannot listen to audio.]".into(),
                });
            }
            _ => {}
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(Message {
        role: Some(Role::User),
        parts,
        meta: MessageMeta {
            user_content: user_content::to_stored(blocks),
            ..MessageMeta::default()
        },
        ..Message::default()
    })
}

/// The text of the prompt when it is made only of text blocks (slash commands).
pub fn plain_text(blocks: &[ContentBlock]) -> Option<String> {
    let mut out = Vec::new();
    for block in blocks {
        match block {
            ContentBlock::Text(t) => out.push(t.text.as_str()),
            _ => return None,
        }
    }
    Some(out.join("\n").trim().to_string())
}

fn attach_link(parts: &mut Vec<Part>, uri: &str, display: &str, mime: Option<&str>, cwd: &Path) {
    let Some(path) = local_path(uri, cwd) else {
        parts.push(Part::Text {
            text: format!("[Attached file: {display}]\nURI: {uri}\n\n[Resource link only; this agent cannot read non-file URIs directly.]"),
        });
        return;
    };
    let is_image = mime.is_some_and(|m| m.starts_with("image/"))
        || path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    // Refuses FIFOs, devices and directories before opening; reads one byte past the cap so
    // "too large" is known without trusting the size from metadata.
    let read = read_regular_capped(&path, ATTACHMENT_CAP + 1);
    if is_image {
        match read {
            Ok((bytes, size)) if bytes.len() > ATTACHMENT_CAP => parts.push(Part::Text {
                text: format!("[Attached image: {display}]\nURI: {uri}\n\n[Image too large to attach: {size} bytes, cap {ATTACHMENT_CAP}]"),
            }),
            Ok((bytes, _)) => {
                let mime = mime.map(str::to_string).unwrap_or_else(|| image_mime(&path));
                parts.push(Part::Text {
                    text: format!("[Attached image: {display}]\nURI: {uri}"),
                });
                parts.push(Part::Image {
                    url: format!(
                        "data:{mime};base64,{}",
                        base64::engine::general_purpose::STANDARD.encode(bytes)
                    ),
                });
            }
            Err(e) => parts.push(Part::Text {
                text: format!("[Attached image: {display}]\nURI: {uri}\n\n[Could not read the image: {e}]"),
            }),
        }
        return;
    }
    match read {
        Ok((mut bytes, size)) => {
            bytes.truncate(ATTACHMENT_CAP);
            parts.push(Part::Text {
                text: attach_bytes_with_total(display, uri, &bytes, mime, size as usize),
            })
        }
        Err(e) => parts.push(Part::Text {
            text: format!("[Attached file: {display}]\nURI: {uri}\n\n[Could not read the file: {e}]"),
        }),
    }
}

fn attach_bytes(display: &str, uri: &str, bytes: &[u8], mime: Option<&str>) -> String {
    attach_bytes_with_total(
        display,
        uri,
        &bytes[..bytes.len().min(ATTACHMENT_CAP)],
        mime,
        bytes.len(),
    )
}

fn attach_bytes_with_total(display: &str, uri: &str, bytes: &[u8], mime: Option<&str>, total: usize) -> String {
    let textual_mime = mime.is_some_and(|m| m.starts_with("text/") || m.contains("json") || m.contains("xml"));
    if bytes.contains(&0) && !textual_mime {
        return format!(
            "[Attached file: {display}]\nURI: {uri}\n\n[Binary file omitted: {total} bytes, mime={}]",
            mime.unwrap_or("unknown")
        );
    }
    let text = String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).into_owned();
    attached_text(display, uri, &text, total)
}

fn attached_text(display: &str, uri: &str, text: &str, total: usize) -> String {
    let (body, note) = if text.len() > ATTACHMENT_CAP {
        let mut cut = ATTACHMENT_CAP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        (
            &text[..cut],
            format!(" (truncated to {ATTACHMENT_CAP} of {total} bytes)"),
        )
    } else if total > text.len() && total > ATTACHMENT_CAP {
        (text, format!(" (truncated to {ATTACHMENT_CAP} of {total} bytes)"))
    } else {
        (text, String::new())
    };
    format!("[Attached file: {display}]{note}\nURI: {uri}\n\n{body}")
}

/// A local path for `file://` URIs (empty host or localhost) and bare paths.
fn local_path(uri: &str, cwd: &Path) -> Option<PathBuf> {
    if let Some(rest) = uri.strip_prefix("file://") {
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') {
            return None;
        }
        return Some(PathBuf::from(percent_decode(path)));
    }
    if uri.contains("://") {
        return None;
    }
    Some(resolve_against(cwd, uri))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(v) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn display_name(title: Option<&str>, name: &str, uri: &str) -> String {
    match (title.filter(|t| !t.is_empty()), name.is_empty()) {
        (Some(t), false) if t != name => format!("{t} ({name})"),
        (Some(t), _) => t.to_string(),
        (None, false) => name.to_string(),
        (None, true) => uri_basename(uri),
    }
}

fn uri_basename(uri: &str) -> String {
    uri.trim_end_matches('/').rsplit('/').next().unwrap_or(uri).to_string()
}

fn image_mime(path: &Path) -> String {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("bmp") => "image/bmp",
        Some("svg") => "image/svg+xml",
        _ => "image/png",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{EmbeddedResource, ImageContent, ResourceLink, TextResourceContents};

    #[test]
    fn text_links_and_embedded_resources_become_one_text() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("hello.txt"), "hi there").unwrap();
        let uri = format!("file://{}", dir.path().join("hello.txt").display());
        let blocks = vec![
            ContentBlock::from("look at these"),
            ContentBlock::ResourceLink(ResourceLink::new("hello.txt", uri.clone())),
            ContentBlock::Resource(EmbeddedResource::new(EmbeddedResourceResource::TextResourceContents(
                TextResourceContents::new("# Notes\nabc", "file:///x/notes.md"),
            ))),
        ];
        let msg = prompt_to_message(&blocks, dir.path()).unwrap();
        assert_eq!(
            msg.text_content(),
            format!(
                "look at these\n[Attached file: hello.txt]\nURI: {uri}\n\nhi there\n[Attached file: notes.md]\nURI: file:///x/notes.md\n\n# Notes\nabc"
            )
        );
        assert_eq!(msg.meta.user_content, user_content::to_stored(&blocks));
    }

    #[test]
    fn relative_links_use_the_session_cwd_and_images_become_data_urls() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.png"), [137u8, 80, 78, 71]).unwrap();
        let blocks = vec![
            ContentBlock::ResourceLink(ResourceLink::new("a.png", "a.png")),
            ContentBlock::Image(ImageContent::new("AAAA", "image/jpeg")),
            ContentBlock::ResourceLink(ResourceLink::new("x", "zed://buffer/1")),
        ];
        let msg = prompt_to_message(&blocks, dir.path()).unwrap();
        let images: Vec<_> = msg
            .parts
            .iter()
            .filter_map(|p| {
                if let Part::Image { url } = p {
                    Some(url.clone())
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(
            images,
            ["data:image/png;base64,iVBORw==", "data:image/jpeg;base64,AAAA"]
        );
        assert!(msg.text_content().contains("cannot read non-file URIs"));
        assert_eq!(prompt_to_message(&[ContentBlock::from("")], dir.path()), None);
    }

    #[test]
    fn plain_text_only_for_text_prompts() {
        assert_eq!(plain_text(&[ContentBlock::from(" /help ")]).as_deref(), Some("/help"));
        assert_eq!(
            plain_text(&[ContentBlock::Image(ImageContent::new("A", "image/png"))]),
            None
        );
        assert_eq!(percent_decode("/a%20b/c"), "/a b/c");
    }
}
