//! Reading a program's options from a table, the way `getopt_long` does: short flags in
//! bundles (`-oL`), short options with their value attached or as the next word, long options
//! `--name=value` or `--name value`, unambiguous prefixes of long names (`--sig` is
//! `--signal`), `--` ending the options. Parsing stops at the first operand (wrappers use
//! getopt's `+` mode). An option the table does not list, or a word that is not literal where
//! an option may stand, is an error: the caller treats the command as unknown.

use super::Risk;
use super::analysis::Analysis;
use super::words::Arg;

/// What a program accepts. Short options are letters (or digits) in strings.
#[derive(Debug, Clone, Copy)]
pub(super) struct Table {
    /// Short options without a value.
    pub flags: &'static str,
    /// Short options that take a value.
    pub valued: &'static str,
    /// Short options whose value, if any, is the rest of the bundle (`-n1024`).
    pub optional: &'static str,
    /// Long options without a value.
    pub long_flags: &'static [&'static str],
    /// Long options that take a value (`--x=v` or `--x v`).
    pub long_valued: &'static [&'static str],
    /// Long options whose value, if any, must be attached with `=`.
    pub long_optional: &'static [&'static str],
}

impl Table {
    pub const fn new(flags: &'static str, valued: &'static str) -> Self {
        Table {
            flags,
            valued,
            optional: "",
            long_flags: &[],
            long_valued: &[],
            long_optional: &[],
        }
    }

    pub const fn optional(mut self, optional: &'static str) -> Self {
        self.optional = optional;
        self
    }

    pub const fn long(
        mut self,
        flags: &'static [&'static str],
        valued: &'static [&'static str],
        optional: &'static [&'static str],
    ) -> Self {
        self.long_flags = flags;
        self.long_valued = valued;
        self.long_optional = optional;
        self
    }
}

/// One option found: its canonical name (`-o`, `--output`) and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Opt {
    pub name: String,
    pub value: Option<Arg>,
}

/// The options and where the operands start.
#[derive(Debug)]
pub(super) struct Parsed {
    pub options: Vec<Opt>,
    /// Index of the first operand in the arguments.
    pub rest: usize,
}

impl Parsed {
    pub fn has(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.name == name)
    }

    pub fn value(&self, name: &str) -> Option<&Arg> {
        self.options
            .iter()
            .find(|o| o.name == name)
            .and_then(|o| o.value.as_ref())
    }

    pub fn values<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Arg> + 's {
        self.options
            .iter()
            .filter(move |o| o.name == name)
            .filter_map(|o| o.value.as_ref())
    }
}

/// Resolves `--name` against the long names: exact, else the one name it is a prefix of.
pub(super) fn long_name<'t>(name: &str, names: impl Iterator<Item = &'t &'t str>) -> Result<&'t str, String> {
    let mut found: Option<&str> = None;
    for candidate in names {
        let bare = candidate.trim_start_matches('-');
        if bare == name {
            return Ok(candidate);
        }
        if !name.is_empty() && bare.starts_with(name) {
            if found.is_some() {
                return Err(format!("--{name} (ambiguous)"));
            }
            found = Some(candidate);
        }
    }
    found.ok_or_else(|| format!("--{name}"))
}

/// Reads one bundle of short options (`-sSLo file`, `-xzfarchive.tar`) the tolerant way tar's
/// and curl's readers do: every letter is kept, known or not, and the first letter in `valued`
/// ends the bundle, taking the rest of it as its value or else the word at `*next` (advancing
/// `*next` past it). Unlike [`parse`], nothing is an error: those readers look for the options
/// that matter in whatever they are given.
pub(super) fn short_bundle(bundle: &Arg, valued: &str, args: &[Arg], next: &mut usize) -> Vec<(char, Option<Arg>)> {
    let text = bundle.text.as_str();
    let mut letters = Vec::new();
    for (j, c) in text.char_indices().skip(1) {
        if !valued.contains(c) {
            letters.push((c, None));
            continue;
        }
        let attached = &text[j + c.len_utf8()..];
        let value = if attached.is_empty() {
            *next += 1;
            args.get(*next - 1).cloned()
        } else {
            Some(bundle.part(attached))
        };
        letters.push((c, value));
        break;
    }
    letters
}

fn value_arg(word: &Arg, text: &str) -> Arg {
    Arg {
        text: text.to_owned(),
        literal: word.literal,
        glob: false,
    }
}

/// Parses the options at the start of `args` with `table`. `Err(option)` names the first
/// option the table does not know (or that is not literal).
pub(super) fn parse(args: &[Arg], table: &Table) -> Result<Parsed, String> {
    let mut options = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text.as_str();
        if text == "--" {
            return Ok(Parsed { options, rest: i + 1 });
        }
        if !text.starts_with('-') || text == "-" {
            break;
        }
        if !word.literal {
            return Err(text.to_owned());
        }
        i += 1;
        if let Some(long) = text.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let all = table
                .long_flags
                .iter()
                .chain(table.long_valued.iter())
                .chain(table.long_optional.iter());
            let canonical = long_name(name, all)?;
            let value = if table.long_valued.contains(&canonical) {
                match attached {
                    Some(v) => Some(value_arg(word, v)),
                    None => {
                        i += 1;
                        Some(
                            args.get(i - 1)
                                .cloned()
                                .ok_or_else(|| format!("--{name} without a value"))?,
                        )
                    }
                }
            } else if table.long_optional.contains(&canonical) {
                attached.map(|v| value_arg(word, v))
            } else if attached.is_some() {
                return Err(text.to_owned());
            } else {
                None
            };
            options.push(Opt {
                name: format!("--{}", canonical.trim_start_matches('-')),
                value,
            });
            continue;
        }
        let letters: Vec<char> = text[1..].chars().collect();
        let mut j = 0;
        while j < letters.len() {
            let c = letters[j];
            j += 1;
            if table.flags.contains(c) {
                options.push(Opt {
                    name: format!("-{c}"),
                    value: None,
                });
            } else if table.optional.contains(c) {
                let attached: String = letters[j..].iter().collect();
                options.push(Opt {
                    name: format!("-{c}"),
                    value: (!attached.is_empty()).then(|| value_arg(word, &attached)),
                });
                break;
            } else if table.valued.contains(c) {
                let attached: String = letters[j..].iter().collect();
                let value = if attached.is_empty() {
                    i += 1;
                    args.get(i - 1)
                        .cloned()
                        .ok_or_else(|| format!("-{c} without a value"))?
                } else {
                    value_arg(word, &attached)
                };
                options.push(Opt {
                    name: format!("-{c}"),
                    value: Some(value),
                });
                break;
            } else {
                return Err(format!("-{c}"));
            }
        }
    }
    Ok(Parsed { options, rest: i })
}

/// A long option spelled in full or as an unambiguous-looking prefix (`--har` for `--hard`),
/// bare or with `=value`, before `--`. Prefixes are matched generously: over-matching only
/// makes a finding more cautious.
pub(super) fn has_long_prefix(args: &[Arg], names: &[&str]) -> bool {
    args.iter().take_while(|w| w.text != "--").any(|w| {
        let Some(given) = w.text.strip_prefix("--") else {
            return false;
        };
        let given = given.split_once('=').map_or(given, |(n, _)| n);
        !given.is_empty() && names.iter().any(|n| n.trim_start_matches('-').starts_with(given))
    })
}

/// Reads `prog`'s options with `table`, or flags the command unknown.
pub(super) fn understood(a: &mut Analysis, prog: &str, args: &[Arg], table: &Table) -> Option<Parsed> {
    match parse(args, table) {
        Ok(parsed) => Some(parsed),
        Err(option) => {
            a.flag(Risk::Unknown, format!("{prog}: option not understood: {option}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Arg> {
        words.iter().map(|w| Arg::literal(w)).collect()
    }

    const T: Table = Table::new("ab", "ko").long(&["--all"], &["--output", "--signal"], &["--color"]);

    #[test]
    fn options_are_read_like_getopt() {
        let p = parse(&args(&["-ab", "-oL", "--sig", "KILL", "cmd", "-x"]), &T).unwrap();
        assert_eq!(p.rest, 4);
        assert_eq!(p.value("-o").unwrap().text, "L");
        assert_eq!(p.value("--signal").unwrap().text, "KILL");
        let p = parse(&args(&["-k", "5", "--output=f", "--color", "--", "-a"]), &T).unwrap();
        assert_eq!(p.rest, 5);
        assert!(p.has("--color"));
        assert_eq!(parse(&args(&["-z", "cmd"]), &T).unwrap_err(), "-z");
        assert_eq!(parse(&args(&["--nope", "cmd"]), &T).unwrap_err(), "--nope");
        assert!(parse(&args(&["--all=x"]), &T).is_err());
        assert!(parse(&args(&["-o"]), &T).is_err());
    }

    #[test]
    fn long_prefixes() {
        assert!(has_long_prefix(&args(&["--har"]), &["--hard"]));
        assert!(has_long_prefix(&args(&["--hard=x"]), &["--hard"]));
        assert!(!has_long_prefix(&args(&["--", "--hard"]), &["--hard"]));
        assert!(!has_long_prefix(&args(&["--soft"]), &["--hard"]));
    }
}
