//! Splitting an argument string into words with the same parser the analyser uses, for
//! configuration that gives a program's arguments as one string (MCP `args: "-y 'a b'"`).
//! Quotes and escapes are decoded; nothing is expanded: `$X`, `~` and `$(…)` stay as written
//! (the program is started without a shell), as Python's `shlex.split` leaves them.

use brush_parser::ast::{Command, CommandPrefixOrSuffixItem, Word};
use brush_parser::word::{WordPiece, WordPieceWithSource};

use super::parse;
use super::words::ansi_c;

/// The words of `text`, or `None` when it is not one plain command line (operators such as
/// `;`, `|`, `&&`, redirections, or syntax the parser refuses).
pub fn words(text: &str) -> Option<Vec<String>> {
    let program = parse::program(text, 0).ok()?;
    let list = match program.complete_commands.as_slice() {
        [] => return Some(Vec::new()),
        [list] => list,
        _ => return None,
    };
    let [item] = list.0.as_slice() else { return None };
    let pipeline = &item.0.first;
    if !item.0.additional.is_empty() || pipeline.bang || pipeline.seq.len() != 1 {
        return None;
    }
    let Command::Simple(cmd) = &pipeline.seq[0] else {
        return None;
    };
    let mut out = Vec::new();
    let item_word = |item: &CommandPrefixOrSuffixItem| match item {
        CommandPrefixOrSuffixItem::Word(w) | CommandPrefixOrSuffixItem::AssignmentWord(_, w) => Some(w.clone()),
        _ => None,
    };
    for item in cmd.prefix.iter().flat_map(|p| p.0.iter()) {
        out.push(decode(&item_word(item)?)?);
    }
    if let Some(w) = &cmd.word_or_name {
        out.push(decode(w)?);
    }
    for item in cmd.suffix.iter().flat_map(|s| s.0.iter()) {
        out.push(decode(&item_word(item)?)?);
    }
    Some(out)
}

fn decode(word: &Word) -> Option<String> {
    let pieces = parse::word(&word.value).ok()?;
    let mut text = String::new();
    push(&pieces, &word.value, &mut text);
    Some(text)
}

fn push(pieces: &[WordPieceWithSource], source: &str, out: &mut String) {
    for p in pieces {
        match &p.piece {
            WordPiece::Text(t) | WordPiece::SingleQuotedText(t) => out.push_str(t),
            WordPiece::AnsiCQuotedText(t) => out.push_str(&ansi_c(t)),
            WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                push(inner, source, out)
            }
            WordPiece::EscapeSequence(s) => {
                let escaped = s.strip_prefix('\\').unwrap_or(s);
                if escaped != "\n" {
                    out.push_str(escaped);
                }
            }
            // Expansions stay as written: no shell will run them.
            _ => out.push_str(source.get(p.start_index..p.end_index).unwrap_or("")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    fn split(text: &str) -> Option<Vec<String>> {
        words(text)
    }

    #[test]
    fn quotes_and_escapes_are_decoded_and_expansions_kept() {
        assert_eq!(
            split(r#"-y 'pkg with spaces' "q\"x" a\ b"#).unwrap(),
            ["-y", "pkg with spaces", "q\"x", "a b"]
        );
        assert_eq!(
            split("--dir ~/x $HOME \"$X/y\"").unwrap(),
            ["--dir", "~/x", "$HOME", "$X/y"]
        );
        assert_eq!(split("A=1 b").unwrap(), ["A=1", "b"]);
        assert_eq!(split("  ").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn operators_are_not_plain_words() {
        assert_eq!(split("a; b"), None);
        assert_eq!(split("a | b"), None);
        assert_eq!(split("a > f"), None);
    }
}
