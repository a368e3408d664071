//! ANSI escape stripping for command output: colours, cursor movement, window titles and other
//! ECMA-48 control sequences are noise to the model and to the editor's plain-text card.

/// Removes ECMA-48 escape sequences (7-bit `ESC …` and 8-bit C1 forms). Newlines, tabs and
/// carriage returns are kept.
pub fn strip_ansi(text: &str) -> String {
    if !text.chars().any(is_escape_start) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']') => skip_string(&mut chars, true),
                Some('P' | 'X' | '^' | '_') => skip_string(&mut chars, false),
                // nF sequences: intermediates then one final byte (e.g. `ESC ( B`).
                Some(' '..='/') => {
                    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                    chars.next_if(|c| ('0'..='~').contains(c));
                }
                // Fp/Fe/Fs two-character sequences (`ESC 7`, `ESC M`, `ESC =`…).
                Some('0'..='~') | None => {}
                // A stray ESC before ordinary text: drop only the ESC.
                Some(other) => out.push(other),
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' => skip_string(&mut chars, true),
            '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars, false),
            '\u{80}'..='\u{9f}' => {}
            other => out.push(other),
        }
    }
    out
}

fn is_escape_start(c: char) -> bool {
    c == '\u{1b}' || ('\u{80}'..='\u{9f}').contains(&c)
}

/// Skips CSI parameter and intermediate bytes up to and including the final byte.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            return;
        }
        if !(' '..='?').contains(&c) {
            // Malformed sequence: stop here rather than swallowing real text.
            return;
        }
    }
}

/// Skips a control string up to its terminator: ST (`ESC \` or U+009C), or BEL for OSC.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, bel_ends: bool) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' if bel_ends => return,
            '\u{9c}' => return,
            '\u{1b}' => {
                chars.next_if_eq(&'\\');
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colours_cursor_moves_titles_and_charset_switches() {
        let text = "\u{1b}[1;31mred\u{1b}[0m \u{1b}[2K\u{1b}]0;title\u{7}ok\u{1b}(B!\u{1b}7";
        assert_eq!(strip_ansi(text), "red ok!");
    }

    #[test]
    fn strips_eight_bit_and_string_sequences_and_keeps_whitespace() {
        let text = "a\u{9b}32mb\u{1b}Pdcs data\u{1b}\\c\td\r\ne\u{1b}]8;;http://x\u{1b}\\link";
        assert_eq!(strip_ansi(text), "abc\td\r\nelink");
    }

    #[test]
    fn plain_text_is_untouched() {
        assert_eq!(strip_ansi("héllo\nworld"), "héllo\nworld");
    }
}
