//! "Did you mean" suggestions for a missing file: Hermes' name-shape scores (same stem, prefix,
//! substring, …) over the parent directory's entries, plus an edit-distance score (strsim) so
//! plain typos such as `mian.rs` → `main.rs` are found too.

use std::path::Path;

/// At most this many suggestions are returned (Hermes: 5).
const MAX_SUGGESTIONS: usize = 5;
/// Entries examined in a huge directory; scoring is cheap, listing is the cost.
const MAX_ENTRIES: usize = 5_000;
/// Normalised Damerau–Levenshtein similarity that counts as a likely typo.
const TYPO_SIMILARITY: f64 = 0.6;

/// Up to five paths similar to the missing `resolved`, each shown as `<dirname of raw>/<entry>`
/// (Hermes joins the directory part of the path the model typed with the entry name).
pub(crate) fn similar_files(raw: &str, resolved: &Path) -> Vec<String> {
    let (Some(dir), Some(wanted)) = (resolved.parent(), resolved.file_name()) else {
        return Vec::new();
    };
    let Ok(read_dir) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = read_dir
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .take(MAX_ENTRIES)
        .collect();
    names.sort();

    let wanted = wanted.to_string_lossy().to_lowercase();
    let mut scored: Vec<(u32, f64, String)> = names
        .into_iter()
        .filter_map(|name| {
            let (score, similarity) = score(&wanted, &name.to_lowercase());
            (score > 0).then_some((score, similarity, name))
        })
        .collect();
    // Best score first, then closest spelling; the sort is stable so ties keep name order.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));

    let shown_dir = shown_dirname(raw);
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, name)| join_shown(&shown_dir, &name))
        .collect()
}

/// Hermes' score for `candidate` against the wanted name (both lowercase), and the spelling
/// similarity used to add typo matches and to break ties.
fn score(wanted: &str, candidate: &str) -> (u32, f64) {
    let similarity = strsim::normalized_damerau_levenshtein(wanted, candidate);
    let (wanted_stem, wanted_ext) = split_ext(wanted);
    let (cand_stem, cand_ext) = split_ext(candidate);
    let hermes = if candidate == wanted {
        100
    } else if cand_stem == wanted_stem {
        90
    } else if candidate.starts_with(wanted) || wanted.starts_with(candidate) {
        70
    } else if candidate.contains(wanted) {
        60
    } else if wanted.contains(candidate) && candidate.chars().count() > 2 {
        40
    } else if !wanted_ext.is_empty() && cand_ext == wanted_ext && shares_enough(wanted, candidate) {
        30
    } else {
        0
    };
    // A close spelling outranks the weak "same extension" rule but not a shape match.
    let typo = if similarity >= TYPO_SIMILARITY { 50 } else { 0 };
    (hermes.max(typo), similarity)
}

/// Python's `os.path.splitext` on a bare name: a leading dot does not start an extension.
fn split_ext(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) if i > 0 && !name[..i].chars().all(|c| c == '.') => (&name[..i], &name[i..]),
        _ => (name, ""),
    }
}

/// At least 40 % of the longer name's length in distinct shared characters.
fn shares_enough(a: &str, b: &str) -> bool {
    let set_a: std::collections::HashSet<char> = a.chars().collect();
    let common = b
        .chars()
        .collect::<std::collections::HashSet<char>>()
        .intersection(&set_a)
        .count();
    let longest = a.chars().count().max(b.chars().count());
    common * 10 >= longest * 4
}

/// The directory part of the typed path (`~` expanded), or `.` when it had none.
fn shown_dirname(raw: &str) -> String {
    let expanded = crate::runtime::workspace::expand_home(raw.trim());
    let text = expanded.to_string_lossy().into_owned();
    match text.rfind('/') {
        Some(0) => "/".to_string(),
        Some(i) => text[..i].to_string(),
        None => ".".to_string(),
    }
}

fn join_shown(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}
