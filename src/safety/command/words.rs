//! Decoding one shell word the way the shell would before running it: quotes removed,
//! ANSI-C `$'…'` escapes and backslashes decoded, `~` and `$HOME` resolved against the
//! injected home. Whatever only the running shell knows (other parameters, substitutions,
//! arithmetic) leaves the word non-literal and keeps its source text for reasons.
//! (`Analysis::word`, in `walk`, decodes a parsed word and walks the commands its
//! substitutions run.)

use std::path::Path;

use brush_parser::word::{Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};

/// One decoded word.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Arg {
    /// The decoded text; expansions appear as their source text (`$x`, `$(…)`).
    pub text: String,
    /// No expansion or substitution: `text` is exactly what the program receives.
    pub literal: bool,
    /// Unquoted glob characters (`*`, `?`, `[`): the shell may expand it to other words.
    pub glob: bool,
}

impl Arg {
    pub fn literal(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            literal: true,
            glob: false,
        }
    }

    /// A piece of this word, such as the value attached to its option (`--x=v`, `-ofile`): it
    /// is exactly as literal, and as open to globbing, as the word it was cut from.
    pub fn part(&self, text: &str) -> Self {
        Self {
            text: text.to_owned(),
            ..self.clone()
        }
    }

    /// Text for classification: literal words as they are, non-literal ones `None`.
    pub fn lit(&self) -> Option<&str> {
        self.literal.then_some(self.text.as_str())
    }
}

/// A decoded word plus the command texts it would run (`$(…)`, backticks) and whether it
/// holds something we cannot analyse at all (substitutions inside `${…}` or `$((…))`).
#[derive(Debug, Default)]
pub(super) struct Decoded {
    pub arg: Arg,
    pub substitutions: Vec<String>,
    pub opaque: Option<String>,
}

pub(super) fn decode(pieces: &[WordPieceWithSource], source: &str, home: &Path, cwd: &Path) -> Decoded {
    let mut out = Decoded {
        arg: Arg {
            literal: true,
            ..Arg::default()
        },
        ..Decoded::default()
    };
    push_pieces(pieces, source, home, cwd, false, &mut out);
    out
}

fn push_pieces(pieces: &[WordPieceWithSource], source: &str, home: &Path, cwd: &Path, quoted: bool, out: &mut Decoded) {
    for p in pieces {
        let raw = source.get(p.start_index..p.end_index).unwrap_or("");
        match &p.piece {
            WordPiece::Text(t) => {
                // Globs, and brace expansion (`{rm,-rf,x}` becomes three words).
                let brace = t.contains('{') && t.contains('}') && (t.contains(',') || t.contains(".."));
                // `[` is a glob only with a `]` after it (`[ -d x ]` is the test command).
                let bracket = t.find('[').is_some_and(|i| t[i + 1..].contains(']'));
                if !quoted && (t.contains(['*', '?']) || bracket || brace) {
                    out.arg.glob = true;
                }
                out.arg.text.push_str(t);
            }
            WordPiece::SingleQuotedText(t) => out.arg.text.push_str(t),
            WordPiece::AnsiCQuotedText(t) => out.arg.text.push_str(&ansi_c(t)),
            WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                push_pieces(inner, source, home, cwd, true, out)
            }
            WordPiece::EscapeSequence(s) => {
                // `\x` is `x`; a backslash-newline is a line continuation (nothing).
                let escaped = s.strip_prefix('\\').unwrap_or(s);
                if escaped != "\n" {
                    out.arg.text.push_str(escaped);
                }
            }
            WordPiece::TildeExpansion(t) => match t {
                TildeExpr::Home => out.arg.text.push_str(&home.to_string_lossy()),
                TildeExpr::WorkingDir => out.arg.text.push_str(&cwd.to_string_lossy()),
                // `~user` names another user's home: keep it as written (never a path of ours).
                TildeExpr::UserHome(user) => {
                    out.arg.text.push('~');
                    out.arg.text.push_str(user);
                }
                _ => non_literal(out, raw),
            },
            WordPiece::ParameterExpansion(expr) => {
                if is_home(expr) {
                    out.arg.text.push_str(&home.to_string_lossy());
                } else {
                    if raw.contains("$(") || raw.contains('`') {
                        out.opaque = Some(format!("substitution inside a parameter expansion: {raw}"));
                    }
                    non_literal(out, raw);
                }
            }
            WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                out.substitutions.push(s.clone());
                non_literal(out, raw);
            }
            WordPiece::ArithmeticExpression(e) => {
                if e.value.contains("$(") || e.value.contains('`') {
                    out.opaque = Some(format!("substitution inside arithmetic: {raw}"));
                }
                non_literal(out, raw);
            }
        }
    }
}

fn non_literal(out: &mut Decoded, raw: &str) {
    out.arg.literal = false;
    out.arg.text.push_str(raw);
}

/// Brace expansion as the shell does it before a program runs (`src/{a,b}`, `x{1..3}`), for
/// plain words: one level of comma lists and numeric or letter ranges, at most 64 words. A
/// word it does not expand stays as it is (still marked `glob`, so never taken for a name).
pub(super) fn brace_expand(word: &Arg) -> Vec<Arg> {
    let Some(open) = word.text.find('{') else {
        return vec![word.clone()];
    };
    let Some(close) = word.text[open..].find('}').map(|c| open + c) else {
        return vec![word.clone()];
    };
    let (head, body, tail) = (&word.text[..open], &word.text[open + 1..close], &word.text[close + 1..]);
    let plain = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric() || "._-/+:@%~".contains(c));
    let items: Vec<String> = if let Some((from, to)) = body.split_once("..") {
        match (from.parse::<i64>(), to.parse::<i64>()) {
            (Ok(f), Ok(t)) if (t - f).abs() < 64 => {
                let step = if t >= f { 1 } else { -1 };
                (0..=(t - f).abs()).map(|i| (f + i * step).to_string()).collect()
            }
            _ => {
                let (f, t) = (from.chars().collect::<Vec<_>>(), to.chars().collect::<Vec<_>>());
                match (f.as_slice(), t.as_slice()) {
                    ([f], [t]) if f.is_ascii_alphabetic() && t.is_ascii_alphabetic() && f <= t => {
                        (*f..=*t).map(String::from).collect()
                    }
                    _ => return vec![word.clone()],
                }
            }
        }
    } else if body.contains(',') && body.split(',').all(plain) {
        body.split(',').map(str::to_owned).collect()
    } else {
        return vec![word.clone()];
    };
    if items.len() > 64 || !plain(head) || tail.contains('{') {
        return vec![word.clone()];
    }
    items
        .into_iter()
        .map(|item| {
            let text = format!("{head}{item}{tail}");
            Arg {
                glob: text.contains(['*', '?']) || text.find('[').is_some_and(|i| text[i + 1..].contains(']')),
                text,
                literal: word.literal,
            }
        })
        .collect()
}

/// `$HOME` / `${HOME}`: resolved like `~` so home-directory deletes are recognised.
fn is_home(expr: &ParameterExpr) -> bool {
    matches!(expr, ParameterExpr::Parameter { parameter: Parameter::Named(n), indirect: false } if n == "HOME")
}

/// Decodes the inside of `$'…'`: `\n`, `\t`, `\xHH`, octal `\NNN`, `\uHHHH`, `\UHHHHHHHH`,
/// `\cX` and the quote escapes.
pub(super) fn ansi_c(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            continue;
        }
        let (radix, max) = match e {
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            '0'..='7' => {
                i -= 1; // the first octal digit is part of the number
                (8, 3)
            }
            'c' if i < chars.len() => {
                out.push(char::from((chars[i] as u32 & 0x1f) as u8));
                i += 1;
                continue;
            }
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        let start = i;
        while i < chars.len() && i - start < max && chars[i].is_digit(radix) {
            i += 1;
        }
        let digits: String = chars[start..i].iter().collect();
        match u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32) {
            Some(ch) if !digits.is_empty() => out.push(ch),
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ansi_c;

    #[test]
    fn ansi_c_escapes_decode() {
        assert_eq!(ansi_c(r"\x72\x6d"), "rm");
        assert_eq!(ansi_c(r"\162\155"), "rm");
        assert_eq!(ansi_c(r"\u0072m"), "rm");
        assert_eq!(ansi_c(r"a\'b\n"), "a'b\n");
        assert_eq!(ansi_c(r"\q"), r"\q");
    }
}
