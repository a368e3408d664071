//! The content scanner for memory: text that would be injected into every future system prompt
//! must not carry prompt-injection, exfiltration or persistence payloads, invisible unicode, or
//! credentials. Ports Hermes' `threat_patterns.py` at its broadest ("strict") scope, and adds
//! our secret detector (the one that redacts tool output) so a key is never written to disk.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use unicode_normalization::UnicodeNormalization;

/// Only the head of an entry is scanned (entries are tiny; this bounds the work).
pub const MAX_SCAN_CHARS: usize = 65_536;

/// Bounded filler between key words, as Hermes has it.
const FILLER: &str = r"(?:\w+\s+){0,8}";
const SECRET_VAR: &str = r"\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b";
const MODIFY: &str = r"(?:update|modify|edit|write|change|append|add\s+to)\s+[^\n]*";

/// Zero-width and bidirectional control characters used to hide instructions.
const INVISIBLE: &[char] = &[
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{2062}', '\u{2063}', '\u{2064}', '\u{feff}', '\u{202a}',
    '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

fn patterns() -> Vec<(String, &'static str)> {
    let f = FILLER;
    vec![
        (
            format!(r"ignore\s+{f}(?:previous|all|above|prior)\s+{f}instructions"),
            "prompt_injection",
        ),
        (r"system\s+prompt\s+override".into(), "sys_prompt_override"),
        (
            format!(r"disregard\s+{f}(?:your|all|any)\s+{f}(?:instructions|rules|guidelines)"),
            "disregard_rules",
        ),
        (
            format!(
                r"act\s+as\s+(?:if|though)\s+{f}you\s+{f}(?:have\s+no|don't\s+have)\s+{f}(?:restrictions|limits|rules)"
            ),
            "bypass_restrictions",
        ),
        // Hermes uses look-arounds for "not inside a longer word"; the regex crate has none, so
        // the keyword is bounded by a non-letter or the comment's edges instead.
        (
            r"<!--(?:[^>]*[^A-Za-z>])?(?:ignore|override|system|secret|hidden)(?:[^A-Za-z>][^>]*)?-->".into(),
            "html_comment_injection",
        ),
        (
            r#"<\s*div\s+style\s*=\s*["'][^>]*display\s*:\s*none"#.into(),
            "hidden_div",
        ),
        (
            r"translate\s+[^\n]*\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:execute|run|eval)\b".into(),
            "translate_execute",
        ),
        (format!(r"do\s+not\s+{f}tell\s+{f}the\s+user"), "deception_hide"),
        (format!(r"you\s+are\s+{f}now\s+(?:a|an|the)\s+"), "role_hijack"),
        (format!(r"pretend\s+{f}(?:you\s+are|to\s+be)\s+"), "role_pretend"),
        (
            format!(r"output\s+{f}(?:system|initial)\s+prompt"),
            "leak_system_prompt",
        ),
        (
            format!(r"(?:respond|answer|reply)\s+without\s+{f}(?:restrictions|limitations|filters|safety)"),
            "remove_filters",
        ),
        (
            format!(r"you\s+have\s+been\s+{f}(?:updated|upgraded|patched)\s+to"),
            "fake_update",
        ),
        (r"\bname\s+yourself\s+\w+".into(), "identity_override"),
        (r"register\s+(?:as\s+)?a?\s*node".into(), "c2_node_registration"),
        (
            r"(?:heartbeat|beacon|check[\s\-]?in)\s+(?:to|with)\s+".into(),
            "c2_heartbeat",
        ),
        (r"pull\s+(?:down\s+)?(?:new\s+)?task(?:ing|s)?\b".into(), "c2_task_pull"),
        (r"connect\s+to\s+the\s+network\b".into(), "c2_network_connect"),
        (
            r"you\s+must\s+(?:\w+\s+){0,3}(?:register|connect|report|beacon)\b".into(),
            "forced_action",
        ),
        (r"only\s+use\s+one[\s\-]?liners?\b".into(), "anti_forensic_oneliner"),
        (
            format!(r"never\s+{f}(?:create|write)\s+{f}(?:script|file)\s+{f}disk"),
            "anti_forensic_disk",
        ),
        (
            r"unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*".into(),
            "env_var_unset_agent",
        ),
        (
            r"\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b".into(),
            "known_c2_framework",
        ),
        (
            r"\bc2\s+(?:server|channel|infrastructure|beacon)\b".into(),
            "c2_explicit",
        ),
        (r"\bcommand\s+and\s+control\b".into(), "c2_explicit_long"),
        (format!(r"curl\s+[^\n]*{SECRET_VAR}"), "exfil_curl"),
        (format!(r"wget\s+[^\n]*{SECRET_VAR}"), "exfil_wget"),
        (
            r"cat\s+[^\n]*(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)".into(),
            "read_secrets",
        ),
        (
            r"(?:send|post|upload|transmit)\s+[^\n]*\s+(?:to|at)\s+https?://".into(),
            "send_to_url",
        ),
        (
            format!(
                r"(?:include|output|print|share)\s+{f}(?:conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)"
            ),
            "context_exfil",
        ),
        (r"authorized_keys".into(), "ssh_backdoor"),
        (r"\$HOME/\.ssh|~/\.ssh".into(), "ssh_access"),
        (r"\$HOME/\.hermes/\.env|~/\.hermes/\.env".into(), "hermes_env"),
        (
            format!(r"{MODIFY}(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules)"),
            "agent_config_mod",
        ),
        (
            format!(r"{MODIFY}\.hermes/(?:config\.yaml|SOUL\.md)"),
            "hermes_config_mod",
        ),
        (
            r#"(?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][A-Za-z0-9+/=_-]{20,}"#.into(),
            "hardcoded_secret",
        ),
    ]
}

static COMPILED: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    patterns()
        .into_iter()
        .map(|(pattern, id)| {
            let re = RegexBuilder::new(&pattern)
                .case_insensitive(true)
                .size_limit(1 << 24)
                .build()
                .unwrap_or_else(|e| panic!("invalid threat pattern {id}: {e}"));
            (re, id)
        })
        .collect()
});

/// The ids of every pattern `content` matches (`invisible_unicode_U+XXXX` for hidden
/// characters, `secret` for a credential).
pub fn scan(content: &str) -> Vec<String> {
    if content.is_empty() {
        return Vec::new();
    }
    let head: String = content.chars().take(MAX_SCAN_CHARS).collect();
    // Invisible characters are checked on the raw text: NFKC can strip them.
    let mut found: Vec<String> = INVISIBLE
        .iter()
        .filter(|c| head.contains(**c))
        .map(|c| format!("invisible_unicode_U+{:04X}", *c as u32))
        .collect();
    // NFKC folds full-width and compatibility look-alikes (ｃａｔ → cat).
    let normalised: String = head.nfkc().collect();
    found.extend(
        COMPILED
            .iter()
            .filter(|(re, _)| re.is_match(&normalised))
            .map(|(_, id)| id.to_string()),
    );
    if crate::safety::secrets::redact::redact(&head) != head {
        found.push("secret".to_string());
    }
    found
}

/// The error for the first problem found, or `None` when the content is clean.
pub fn first_threat_message(content: &str) -> Option<String> {
    let first = scan(content).into_iter().next()?;
    Some(if let Some(codepoint) = first.strip_prefix("invisible_unicode_") {
        format!("Blocked: content contains invisible unicode character {codepoint} (possible injection).")
    } else if first == "secret" {
        "Blocked: content looks like a credential (API key, token or password). Memory is injected into \
         every future system prompt and stored in plain text; never save secrets there."
            .to_string()
    } else {
        format!(
            "Blocked: content matches threat pattern '{first}'. Content is injected into the system prompt and \
             must not contain injection or exfiltration payloads."
        )
    })
}
