//! What the user sent with a prompt, as the editor showed it: text, images, audio, links to
//! resources and embedded resources. Kept on the user message (our own type, not the protocol's)
//! so a replay shows the user's blocks rather than the text the model received; the ACP layer
//! converts to and from its content blocks. Attachments too large to keep are stored as a
//! [`UserContent::Link`] carrying their URI and size.

use serde::{Deserialize, Serialize};

/// One block of a user prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum UserContent {
    Text {
        text: String,
    },
    /// Base64 image data.
    Image {
        mime_type: String,
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uri: Option<String>,
    },
    /// Base64 audio data.
    Audio {
        mime_type: String,
        data: String,
    },
    /// A resource by reference (a file the user pointed at, or an attachment too large to keep).
    Link {
        name: String,
        uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Size in bytes, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
    },
    /// A resource the editor embedded in the prompt.
    Resource {
        uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        body: ResourceBody,
    },
}

/// The contents of an embedded resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceBody {
    Text(String),
    /// Base64 bytes.
    Blob(String),
}
