//! Prompt blocks ↔ [`UserContent`], the only place that maps the user's prompt between the
//! protocol and what we store. Going in, payloads over [`STORED_BLOCK_CAP`] become links that
//! carry their URI and size (no replayed frame may approach the SDK frame limit); coming out,
//! the stored blocks — or, for rows written by earlier versions, the protocol JSON they kept —
//! become the blocks a replay sends.

use agent_client_protocol::v1::schema::{
    AudioContent, BlobResourceContents, ContentBlock, EmbeddedResource, EmbeddedResourceResource, ImageContent,
    ResourceLink, TextResourceContents,
};

use super::attachments::STORED_BLOCK_CAP;
use crate::transcript::{Message, ResourceBody, UserContent};

/// The prompt blocks as stored for replay. Blocks this agent does not know are left out.
pub fn to_stored(blocks: &[ContentBlock]) -> Vec<UserContent> {
    blocks.iter().filter_map(stored).collect()
}

fn stored(block: &ContentBlock) -> Option<UserContent> {
    Some(match block {
        ContentBlock::Text(t) => UserContent::Text { text: t.text.clone() },
        ContentBlock::Image(img) if img.data.len() > STORED_BLOCK_CAP => {
            let uri = img.uri.clone().unwrap_or_else(|| "image".into());
            reference(&uri, Some(img.mime_type.clone()), img.data.len())
        }
        ContentBlock::Image(img) => UserContent::Image {
            mime_type: img.mime_type.clone(),
            data: img.data.clone(),
            uri: img.uri.clone(),
        },
        // Audio has no URI to point at; an oversized clip is named as such.
        ContentBlock::Audio(a) if a.data.len() > STORED_BLOCK_CAP => {
            reference("audio", Some(a.mime_type.clone()), a.data.len())
        }
        ContentBlock::Audio(a) => UserContent::Audio {
            mime_type: a.mime_type.clone(),
            data: a.data.clone(),
        },
        ContentBlock::ResourceLink(link) => UserContent::Link {
            name: link.name.clone(),
            uri: link.uri.clone(),
            title: link.title.clone(),
            description: link.description.clone(),
            mime_type: link.mime_type.clone(),
            size: link.size.and_then(|s| u64::try_from(s).ok()),
        },
        ContentBlock::Resource(res) => {
            let (uri, mime_type, body) = match &res.resource {
                EmbeddedResourceResource::TextResourceContents(t) => {
                    (&t.uri, &t.mime_type, ResourceBody::Text(t.text.clone()))
                }
                EmbeddedResourceResource::BlobResourceContents(b) => {
                    (&b.uri, &b.mime_type, ResourceBody::Blob(b.blob.clone()))
                }
                _ => return None,
            };
            let len = match &body {
                ResourceBody::Text(s) | ResourceBody::Blob(s) => s.len(),
            };
            if len > STORED_BLOCK_CAP {
                return Some(reference(uri, mime_type.clone(), len));
            }
            UserContent::Resource {
                uri: uri.clone(),
                mime_type: mime_type.clone(),
                body,
            }
        }
        _ => return None,
    })
}

fn reference(uri: &str, mime_type: Option<String>, len: usize) -> UserContent {
    UserContent::Link {
        name: uri.trim_end_matches('/').rsplit('/').next().unwrap_or(uri).to_string(),
        uri: uri.to_string(),
        title: None,
        description: Some(format!(
            "{len} bytes attached; too large to keep in the session history"
        )),
        mime_type,
        size: u64::try_from(len).ok(),
    }
}

/// The blocks the user sent, for a replay: the stored content, else the protocol JSON an
/// earlier version kept, else the message's text.
pub fn user_blocks(message: &Message) -> Vec<ContentBlock> {
    if !message.meta.user_content.is_empty() {
        return message.meta.user_content.iter().map(to_block).collect();
    }
    if let Some(original) = &message.meta.legacy_prompt
        && let Ok(blocks) = serde_json::from_value::<Vec<ContentBlock>>(original.clone())
        && !blocks.is_empty()
    {
        return blocks;
    }
    let text = message.text_content();
    if text.is_empty() {
        Vec::new()
    } else {
        vec![ContentBlock::from(text)]
    }
}

fn to_block(content: &UserContent) -> ContentBlock {
    match content {
        UserContent::Text { text } => ContentBlock::from(text.clone()),
        UserContent::Image { mime_type, data, uri } => {
            ContentBlock::Image(ImageContent::new(data.clone(), mime_type.clone()).uri(uri.clone()))
        }
        UserContent::Audio { mime_type, data } => {
            ContentBlock::Audio(AudioContent::new(data.clone(), mime_type.clone()))
        }
        UserContent::Link {
            name,
            uri,
            title,
            description,
            mime_type,
            size,
        } => ContentBlock::ResourceLink(
            ResourceLink::new(name.clone(), uri.clone())
                .title(title.clone())
                .description(description.clone())
                .mime_type(mime_type.clone())
                .size(size.and_then(|s| i64::try_from(s).ok())),
        ),
        UserContent::Resource { uri, mime_type, body } => {
            let resource = match body {
                ResourceBody::Text(text) => EmbeddedResourceResource::TextResourceContents(
                    TextResourceContents::new(text.clone(), uri.clone()).mime_type(mime_type.clone()),
                ),
                ResourceBody::Blob(blob) => EmbeddedResourceResource::BlobResourceContents(
                    BlobResourceContents::new(blob.clone(), uri.clone()).mime_type(mime_type.clone()),
                ),
            };
            ContentBlock::Resource(EmbeddedResource::new(resource))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn text_resource(text: &str, uri: &str) -> ContentBlock {
        ContentBlock::Resource(EmbeddedResource::new(EmbeddedResourceResource::TextResourceContents(
            TextResourceContents::new(text, uri),
        )))
    }

    #[test]
    fn prompt_blocks_round_trip_through_what_we_store() {
        let blocks = vec![
            ContentBlock::from("look"),
            ContentBlock::Image(ImageContent::new("AAAA", "image/png").uri("file:///a.png".to_string())),
            ContentBlock::Audio(AudioContent::new("UklG", "audio/wav")),
            ContentBlock::ResourceLink(
                ResourceLink::new("a.rs", "file:///w/a.rs")
                    .title("A".to_string())
                    .mime_type("text/x-rust".to_string())
                    .size(12),
            ),
            text_resource("fn main() {}", "file:///w/main.rs"),
            ContentBlock::Resource(EmbeddedResource::new(EmbeddedResourceResource::BlobResourceContents(
                BlobResourceContents::new("AAEC", "file:///w/x.bin").mime_type("application/octet-stream".to_string()),
            ))),
        ];
        let mut message = Message::user("look");
        message.meta.user_content = to_stored(&blocks);
        // Through the database's JSON and back.
        let message: Message = serde_json::from_str(&serde_json::to_string(&message).unwrap()).unwrap();
        assert_eq!(user_blocks(&message), blocks);
    }

    #[test]
    fn oversized_embedded_resources_are_stored_as_references() {
        let small = text_resource("abc", "file:///p/small.txt");
        let big = text_resource(&"x".repeat(STORED_BLOCK_CAP + 1), "file:///p/big.log");
        let stored = to_stored(&[small, big]);
        assert!(matches!(&stored[0], UserContent::Resource { uri, .. } if uri == "file:///p/small.txt"));
        let UserContent::Link { name, uri, size, .. } = &stored[1] else {
            panic!("{:?}", stored[1])
        };
        assert_eq!((name.as_str(), uri.as_str()), ("big.log", "file:///p/big.log"));
        assert_eq!(*size, Some(STORED_BLOCK_CAP as u64 + 1));
    }

    #[test]
    fn prompts_stored_as_protocol_json_by_earlier_versions_still_replay() {
        let row = json!({"role": "user", "parts": [{"type": "text", "text": "hi\n[Attached file: a]"}],
            "meta": {"prompt": [{"type": "text", "text": "hi"},
                {"type": "resource_link", "name": "a", "uri": "file:///w/a", "size": 3}]}});
        let message: Message = serde_json::from_value(row).unwrap();
        assert_eq!(
            user_blocks(&message),
            [
                ContentBlock::from("hi"),
                ContentBlock::ResourceLink(ResourceLink::new("a", "file:///w/a").size(3))
            ]
        );
        // Unreadable old JSON falls back to the text the model saw.
        let row = json!({"role": "user", "parts": [{"type": "text", "text": "typed"}], "meta": {"prompt": 5}});
        let message: Message = serde_json::from_value(row).unwrap();
        assert_eq!(user_blocks(&message), [ContentBlock::from("typed")]);
    }
}
