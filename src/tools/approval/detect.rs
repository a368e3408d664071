//! Runs the catalogue over a command. The command is normalised, then several variants are
//! matched: the text itself (quoted `grep -P` patterns blanked), every `bash -c`/`eval`
//! payload, the text with a newline before each real command start (so `a; rm -rf /` puts `rm`
//! at command position), and a canonical form whose command words are de-obfuscated and
//! stripped of `sudo`/`env`/`FOO=1`/… prefixes.

use super::dangerous;
use super::hardline;
use super::normalize::{Homes, light_normalize, normalize, parser_limit_exceeded};
use super::shell::{backtick_end, dollar_paren_end, mark_command_starts, top_level_segments};
use super::structural;
use super::words::{basename, command_positions, deobfuscate_word, tokenize};
use super::{Finding, MALFORMED_EXEC_DESCRIPTION, PARSER_LIMIT_DESCRIPTION, Severity};

/// Most nested `-c`/`eval` payloads followed per command.
const MAX_PAYLOADS: usize = 16;

/// Every hardline and dangerous finding for `command`, hardline first, without duplicates.
pub fn analyze(command: &str, homes: &Homes) -> Vec<Finding> {
    let mut findings = Vec::new();
    if parser_limit_exceeded(command) {
        push(&mut findings, Severity::Hardline, PARSER_LIMIT_DESCRIPTION);
        return findings;
    }
    // Quoting verdicts are made on the text as written: the full normalisation drops
    // backslash escapes, which made Hermes read `grep -P "[^\"]*"` as an unterminated quote.
    let light = light_normalize(command);
    let light_scan = structural::scan(&light);
    if grep_safe(&light).1 || light_scan.malformed {
        push(&mut findings, Severity::Hardline, MALFORMED_EXEC_DESCRIPTION);
    }
    let normalized = normalize(command, homes);
    let scan = structural::scan(&normalized);
    let payloads = scan.payloads.iter().chain(&light_scan.payloads);
    let variants = variants(&normalized, payloads.map(|p| normalize(p, homes)).collect(), homes);

    let carrier = has_shell_carrier(&normalized);
    for variant in &variants {
        let masked = if carrier { variant.clone() } else { mask_quoted(variant) };
        for rule in hardline::RULES.iter() {
            let text = if rule.quote_masked { &masked } else { variant };
            if rule.matches(text) {
                push(&mut findings, Severity::Hardline, rule.description);
            }
        }
    }
    if is_verification_cleanup(command) {
        return findings;
    }
    for variant in &variants {
        for rule in dangerous::RULES.iter() {
            if rule.matches(variant) {
                push(&mut findings, Severity::Dangerous, rule.description);
            }
        }
    }
    for finding in scan.findings.iter().chain(&light_scan.findings) {
        push(&mut findings, Severity::Dangerous, finding);
    }
    findings.sort_by_key(|f| f.severity != Severity::Hardline);
    findings
}

fn push(findings: &mut Vec<Finding>, severity: Severity, description: &str) {
    if !findings
        .iter()
        .any(|f| f.severity == severity && f.pattern_key == description)
    {
        findings.push(Finding {
            severity,
            pattern_key: description.to_string(),
            description: description.to_string(),
        });
    }
}

fn push_unique(variants: &mut Vec<String>, text: String) {
    if !variants.contains(&text) {
        variants.push(text);
    }
}

/// The texts the catalogue is matched against, in Hermes' order.
fn variants(normalized: &str, mut pending: Vec<String>, homes: &Homes) -> Vec<String> {
    let (grep_safe_text, _) = grep_safe(normalized);
    let mut out = vec![grep_safe_text.clone()];
    let mut budget = MAX_PAYLOADS;
    while let Some(payload) = pending.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let nested = structural::scan(&payload).payloads;
        pending.extend(nested.iter().map(|p| normalize(p, homes)));
        push_unique(&mut out, mark_command_starts(&payload));
        push_unique(&mut out, payload);
    }
    push_unique(&mut out, mark_command_starts(&grep_safe_text));
    let canonical = canonical_form(&grep_safe_text);
    push_unique(&mut out, mark_command_starts(&canonical));
    push_unique(&mut out, canonical);
    out
}

/// Command words de-obfuscated (`"r"m` → `rm`) and wrapper/assignment prefixes removed
/// (`FOO=1 sudo -u root nohup rm` → `rm`), so command-position rules see the real command.
fn canonical_form(text: &str) -> String {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for position in command_positions(text) {
        let Some(&(word_start, word_end)) = position.words.last() else {
            continue;
        };
        if !position.has_command {
            continue;
        }
        if position.start < word_start {
            edits.push((position.start, word_start, String::new()));
        }
        edits.push((word_start, word_end, deobfuscate_word(&text[word_start..word_end])));
    }
    edits.sort_by_key(|e| e.0);
    let (mut out, mut cursor) = (String::with_capacity(text.len()), 0);
    for (start, end, replacement) in edits {
        if start < cursor {
            continue; // nested inside an edited word (`$(echo rm)`)
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&replacement);
        cursor = end;
    }
    out.push_str(&text[cursor..]);
    out
}

/// Whether any command-position word hands quoted text to a shell (then quotes are code).
fn has_shell_carrier(text: &str) -> bool {
    const CARRIERS: &[&str] = &["eval", "sh", "bash", "zsh", "ksh", "dash", "source", "."];
    command_positions(text).iter().any(|p| {
        p.words.iter().any(|&(s, e)| {
            let word = deobfuscate_word(&text[s..e]).to_lowercase();
            CARRIERS.contains(&basename(&word))
        })
    })
}

/// Blanks quoted text, which the shell passes as data. Kept raw: `$(…)`/backticks inside
/// double quotes (they run) and a quoted word right after `>` (it is the redirect target).
fn mask_quoted(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut last) = (0usize, b' ');
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            i += 2;
            last = b'\\';
            continue;
        }
        if c != b'\'' && c != b'"' {
            if !c.is_ascii_whitespace() {
                last = c;
            }
            i += 1;
            continue;
        }
        let keep = last == b'>';
        let mut j = i + 1;
        while j < b.len() && b[j] != c {
            let raw_end = match (c, b[j]) {
                (b'"', b'$') if b.get(j + 1) == Some(&b'(') => dollar_paren_end(text, j),
                (b'"', b'`') => backtick_end(text, j),
                (b'"', b'\\') => Some((j + 2).min(b.len())),
                _ => None,
            };
            let end = raw_end.unwrap_or(j + 1);
            if raw_end.is_none() || (c == b'"' && b[j] == b'\\') {
                for byte in &mut out[j..end] {
                    if !keep && *byte != b'\n' {
                        *byte = b' ';
                    }
                }
            }
            j = end;
        }
        last = c;
        i = j + 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

const GREP_LONG_WITH_ARG: &[&str] = &[
    "--after-context",
    "--before-context",
    "--binary-files",
    "--context",
    "--directories",
    "--devices",
    "--exclude",
    "--exclude-dir",
    "--exclude-from",
    "--include",
    "--label",
    "--max-count",
    "--regexp",
    "--file",
];

/// The text with single-quoted `grep -P` patterns blanked (a PCRE such as `(a|rm -rf /)` is
/// data), and whether a grep command is malformed (unbalanced quotes, a missing option value,
/// `-P` without a pattern): Hermes fails closed on those.
fn grep_safe(text: &str) -> (String, bool) {
    let mut spans = Vec::new();
    for (offset, segment) in top_level_segments(text) {
        for position in command_positions(segment) {
            for &(ws, we) in &position.words {
                let word = deobfuscate_word(&segment[ws..we]).to_lowercase();
                if !matches!(basename(&word), "grep" | "egrep") {
                    continue;
                }
                let Some(tokens) = tokenize(&segment[ws..]) else {
                    return (text.to_string(), true);
                };
                match grep_pattern_tokens(&tokens[1..]) {
                    Err(()) => return (text.to_string(), true),
                    Ok(indexes) => spans.extend(indexes.into_iter().filter_map(|i| {
                        let t = &tokens[1 + i];
                        t.single_quoted.then_some((offset + ws + t.start, offset + ws + t.end))
                    })),
                }
            }
        }
    }
    let mut out = text.as_bytes().to_vec();
    for (start, end) in spans {
        out[start..end].iter_mut().for_each(|b| *b = b' ');
    }
    (String::from_utf8_lossy(&out).into_owned(), false)
}

/// Indexes of the PCRE pattern arguments of one grep invocation (empty unless `-P`).
fn grep_pattern_tokens(args: &[super::words::Token]) -> Result<Vec<usize>, ()> {
    let (mut pcre, mut explicit, mut options) = (false, false, true);
    let (mut patterns, mut operand, mut i) = (Vec::new(), None, 0usize);
    while i < args.len() {
        let token = args[i].value.as_str();
        if options && token == "--" {
            options = false;
        } else if options && token.starts_with("--") {
            let (option, has_value) = token.split_once('=').map_or((token, false), |(o, _)| (o, true));
            pcre |= option == "--perl-regexp";
            explicit |= matches!(option, "--regexp" | "--file");
            if GREP_LONG_WITH_ARG.contains(&option) && !has_value {
                if i + 1 >= args.len() {
                    return Err(());
                }
                if option == "--regexp" {
                    patterns.push(i + 1);
                }
                i += 1;
            } else if option == "--regexp" {
                patterns.push(i);
            }
        } else if options && token.starts_with('-') && token != "-" {
            let letters: Vec<char> = token[1..].chars().collect();
            for (j, &ch) in letters.iter().enumerate() {
                pcre |= ch == 'P';
                explicit |= matches!(ch, 'e' | 'f');
                if "ABCDdefm".contains(ch) {
                    if j + 1 < letters.len() {
                        if ch == 'e' {
                            patterns.push(i);
                        }
                    } else {
                        if i + 1 >= args.len() {
                            return Err(());
                        }
                        if ch == 'e' {
                            patterns.push(i + 1);
                        }
                        i += 1;
                    }
                    break;
                }
            }
        } else if operand.is_none() {
            operand = Some(i);
        }
        i += 1;
    }
    if !explicit {
        match operand {
            Some(index) => patterns.push(index),
            None if pcre => return Err(()),
            None => return Ok(Vec::new()),
        }
    }
    Ok(if pcre { patterns } else { Vec::new() })
}

/// `rm -f <tmp>/hermes-verify-…` / `hermes-ad-hoc-…`: cleanup of one of Hermes' own temp
/// scripts, exempt from the approval tier.
fn is_verification_cleanup(command: &str) -> bool {
    let Some(tokens) = tokenize(command) else {
        return false;
    };
    let [rm, force, operand] = tokens.as_slice() else {
        return false;
    };
    if rm.value != "rm" || force.value != "-f" || operand.operator {
        return false;
    }
    let path = std::path::Path::new(&operand.value);
    let (Some(parent), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return false;
    };
    let temp = std::env::temp_dir();
    let temp_real = std::fs::canonicalize(&temp).unwrap_or_else(|_| temp.clone());
    let rest = name
        .strip_prefix("hermes-verify-")
        .or_else(|| name.strip_prefix("hermes-ad-hoc-"));
    (parent == temp || parent == temp_real)
        && rest.is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)))
}
