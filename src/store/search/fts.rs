//! Free text → FTS5 query. The model writes search queries the way people do (`"foo OR`,
//! `a*b`, `NEAR(`); this turns them into a query SQLite always accepts while keeping the FTS5
//! features the tool description advertises (phrases, AND/OR/NOT, prefix `*`).

/// Turns free text into an FTS5 query that cannot be a syntax error: balanced `"phrases"` stay
/// phrases, bare `AND`/`OR`/`NOT` between terms stay operators, a trailing `*` stays a prefix
/// search, and every other word is quoted (so `NEAR(`, `a*b`, `col:x`, `-x` are plain text).
/// `None` when nothing searchable is left.
pub fn fts5_query(raw: &str) -> Option<String> {
    enum Token {
        Term(String),
        Op(&'static str),
    }
    let quote = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
    let searchable = |text: &str| text.chars().any(char::is_alphanumeric);
    let mut tokens = Vec::new();
    let mut rest = raw;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        if let Some(after) = rest.strip_prefix('"')
            && let Some(end) = after.find('"')
        {
            let phrase = &after[..end];
            if searchable(phrase) {
                tokens.push(Token::Term(quote(phrase)));
            }
            rest = &after[end + 1..];
            continue;
        }
        let first = rest.chars().next().map_or(1, char::len_utf8);
        let end = rest[first..]
            .find(|c: char| c.is_whitespace() || c == '"')
            .map_or(rest.len(), |i| i + first);
        let word = rest[..end].trim_start_matches('"');
        rest = &rest[end..];
        match word {
            "AND" => tokens.push(Token::Op("AND")),
            "OR" => tokens.push(Token::Op("OR")),
            "NOT" => tokens.push(Token::Op("NOT")),
            _ => {
                let stem = word.trim_end_matches('*');
                if !searchable(stem) {
                    continue;
                }
                let prefix = stem.len() < word.len() && stem.ends_with(char::is_alphanumeric);
                tokens.push(Token::Term(if prefix {
                    format!("{}*", quote(stem))
                } else {
                    quote(word)
                }));
            }
        }
    }
    // Operators need a term on both sides: drop leading, trailing and repeated ones.
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<&str> = None;
    for token in tokens {
        match token {
            Token::Op(op) => {
                if !out.is_empty() {
                    pending = Some(op);
                }
            }
            Token::Term(term) => {
                if let Some(op) = pending.take() {
                    out.push(op.to_string());
                }
                out.push(term);
            }
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// The same words as plain quoted terms (no operators): the fallback if SQLite still rejects
/// the sanitised query.
pub(super) fn fts5_plain(raw: &str) -> Option<String> {
    let terms: Vec<String> = raw
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{w}\""))
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::search::{SearchOrder, run_search};

    #[test]
    fn sanitiser_quotes_words_and_keeps_valid_operators() {
        assert_eq!(fts5_query("foo bar").as_deref(), Some(r#""foo" "bar""#));
        assert_eq!(
            fts5_query(r#""docker networking" OR k8s"#).as_deref(),
            Some(r#""docker networking" OR "k8s""#)
        );
        assert_eq!(fts5_query("deploy*").as_deref(), Some(r#""deploy"*"#));
        assert_eq!(fts5_query("a*b").as_deref(), Some(r#""a*b""#));
        assert_eq!(fts5_query(r#""foo OR"#).as_deref(), Some(r#""foo""#));
        assert_eq!(fts5_query("NEAR(").as_deref(), Some(r#""NEAR(""#));
        assert_eq!(fts5_query("OR AND NOT x NOT NOT").as_deref(), Some(r#""x""#));
        assert_eq!(fts5_query("python NOT java").as_deref(), Some(r#""python" NOT "java""#));
        assert_eq!(fts5_query(" ( ) * \" ").as_deref(), None);
        assert_eq!(fts5_query("").as_deref(), None);
    }

    #[test]
    fn sanitised_queries_are_valid_fts5() {
        let store = Store::open_in_memory().unwrap();
        let nasty = [
            "\"foo OR",
            "a*b",
            "NEAR(",
            "NEAR(a b, 2)",
            "col:x -y +z ^w",
            "{a b}",
            "\"\"\"",
            "it's",
            "x AND",
            "*foo",
            "ünïcödé* naïve",
            "a\"b\"c",
        ];
        for q in nasty {
            let Some(fts) = fts5_query(q) else { continue };
            store
                .call_blocking(move |conn| Ok(run_search(conn, &fts, &[], SearchOrder::Relevance, 5)?))
                .unwrap_or_else(|e| panic!("{q:?} → invalid FTS: {e}"));
        }
    }
}
