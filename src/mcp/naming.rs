//! The names MCP tools get in front of the model: `mcp_<server>_<tool>`, each part sanitised
//! exactly as Hermes does (every character outside `[A-Za-z0-9_]` becomes `_`, case kept), so
//! `ai.exa/exa` + `web_search` → `mcp_ai_exa_exa_web_search`. Names longer than providers accept
//! are shortened with a hash suffix. `Tool::name` returns `&'static str`, so names are interned:
//! each distinct name is allocated once per process, however many sessions connect the server.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use crate::sync::lock;

/// The longest function name every provider we talk to accepts (OpenAI's limit).
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// Hermes' `sanitize_mcp_name_component`: `[^A-Za-z0-9_]` → `_`.
pub fn sanitize_component(raw: &str) -> String {
    raw.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect()
}

/// The model-facing name of `tool` on `server`.
pub fn tool_name(server: &str, tool: &str) -> String {
    let name = format!("mcp_{}_{}", sanitize_component(server), sanitize_component(tool));
    if name.len() <= MAX_TOOL_NAME_LEN {
        return name;
    }
    // Too long for the provider (it would reject the whole request): keep a readable prefix and
    // make it unique with a hash of the full name. Every character is ASCII, so slicing is safe.
    let hash = fnv1a(name.as_bytes());
    format!("{}_{hash:08x}", &name[..MAX_TOOL_NAME_LEN - 9])
}

/// A `&'static str` for `name`, allocated at most once per distinct name.
pub fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = lock(NAMES.get_or_init(Default::default));
    if let Some(existing) = names.get(name) {
        return existing;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

fn fnv1a(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(*b)).wrapping_mul(0x0100_0193))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitises_like_hermes() {
        assert_eq!(tool_name("ai.exa/exa", "web_search"), "mcp_ai_exa_exa_web_search");
        assert_eq!(tool_name("argent", "list-devices"), "mcp_argent_list_devices");
        // Case is kept and runs are not collapsed (Hermes' regex replaces one char at a time).
        assert_eq!(tool_name("My Server", "getUser..v2"), "mcp_My_Server_getUser__v2");
        assert_eq!(sanitize_component("日本"), "__");
        assert_eq!(sanitize_component(""), "");
    }

    #[test]
    fn long_names_are_shortened_uniquely() {
        let a = tool_name("server", &"x".repeat(80));
        let b = tool_name("server", &format!("{}y", "x".repeat(79)));
        assert_eq!(a.len(), MAX_TOOL_NAME_LEN);
        assert_eq!(b.len(), MAX_TOOL_NAME_LEN);
        assert_ne!(a, b);
        assert!(a.starts_with("mcp_server_xxx"));
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    }

    #[test]
    fn interning_reuses_one_allocation() {
        let a = intern("mcp_test_interned");
        let b = intern(&String::from("mcp_test_interned"));
        assert!(std::ptr::eq(a, b));
    }
}
