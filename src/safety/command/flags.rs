//! Reading a program's own options from its words, the way getopt does: whether a flag is set
//! (in a bundle, before `--`), an option's value (attached, `=`, or the next word), the
//! positional words, and short names of words for reasons. Every program module asks these.

use super::words::Arg;

/// Non-option arguments (everything after `--`), skipping the values of `with_value` options.
pub(super) fn positional<'w>(args: &'w [Arg], with_value: &[&str]) -> Vec<&'w Arg> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options = true;
    while let Some(w) = args.get(i) {
        i += 1;
        if options && w.text == "--" {
            options = false;
        } else if options && w.text.starts_with('-') && w.text.len() > 1 {
            if with_value.contains(&w.text.as_str()) {
                i += 1;
            }
        } else {
            out.push(w);
        }
    }
    out
}

/// A short option letter in any bundle (`-rf` has `r`), before `--`.
pub(super) fn has_short(args: &[Arg], letter: char) -> bool {
    args.iter()
        .take_while(|w| w.text != "--")
        .any(|w| w.text.starts_with('-') && !w.text.starts_with("--") && w.text[1..].contains(letter))
}

/// A long option, bare or with `=value`, before `--`.
pub(super) fn has_long(args: &[Arg], names: &[&str]) -> bool {
    args.iter().take_while(|w| w.text != "--").any(|w| {
        names
            .iter()
            .any(|n| w.text == *n || w.text.strip_prefix(n).is_some_and(|r| r.starts_with('=')))
    })
}

/// The value of a long option (`--x=v` or `--x v`) or short one (`-o v`, `-ov`).
pub(super) fn option_value(args: &[Arg], long: &str, short: Option<&str>) -> Option<String> {
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w.text == long || short.is_some_and(|s| w.text == s) {
            return it.next().map(|v| v.text.clone());
        }
        if let Some(v) = w.text.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
            return Some(v.to_owned());
        }
        if let Some(v) = short.and_then(|s| w.text.strip_prefix(s)).filter(|v| !v.is_empty()) {
            return Some(v.to_owned());
        }
    }
    None
}

/// The value of an option as an argument (keeping whether it is literal).
pub(super) fn option_arg(args: &[Arg], long: &str, short: Option<&str>) -> Option<Arg> {
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w.text == long || short.is_some_and(|s| w.text == s) {
            return it.next().cloned();
        }
        let attached = w
            .text
            .strip_prefix(long)
            .and_then(|r| r.strip_prefix('='))
            .or_else(|| short.and_then(|s| w.text.strip_prefix(s)).filter(|v| !v.is_empty()));
        if let Some(v) = attached {
            return Some(Arg {
                text: v.to_owned(),
                literal: w.literal,
                glob: w.glob,
            });
        }
    }
    None
}

/// As [`option_arg`], accepting unambiguous-looking prefixes of the long name (`--out=f` for
/// `--output`), as `getopt_long` does; at least `--` and three letters.
pub(super) fn option_arg_prefix(args: &[Arg], long: &str, short: Option<&str>) -> Option<Arg> {
    let mut it = args.iter().take_while(|w| w.text != "--");
    while let Some(w) = it.next() {
        let given = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
        let long_match = given.len() >= 5 && given.starts_with("--") && long.starts_with(given);
        if long_match {
            return match w.text.split_once('=') {
                Some((_, v)) => Some(Arg {
                    text: v.to_owned(),
                    literal: w.literal,
                    glob: w.glob,
                }),
                None => it.next().cloned(),
            };
        }
        if let Some(s) = short {
            if w.text == s {
                return it.next().cloned();
            }
            if let Some(v) = w.text.strip_prefix(s).filter(|v| !v.is_empty()) {
                return Some(Arg {
                    text: v.to_owned(),
                    literal: w.literal,
                    glob: w.glob,
                });
            }
        }
    }
    None
}

/// The value of short option `letter` anywhere in the arguments (GNU tools permute them),
/// read through bundles: letters in `valued` take the rest of the word or the next word
/// (`sort -uo f`, `sort -t, -o f`, `-of`).
pub(super) fn short_value(args: &[Arg], letter: char, valued: &str) -> Option<Arg> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if w.text == "--" {
            break;
        }
        if !w.text.starts_with('-') || w.text.starts_with("--") {
            continue;
        }
        for (j, c) in w.text.char_indices().skip(1) {
            if !valued.contains(c) {
                continue;
            }
            let rest = &w.text[j + c.len_utf8()..];
            let value = match rest.is_empty() {
                true => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                false => Some(Arg {
                    text: rest.to_owned(),
                    literal: w.literal,
                    glob: w.glob,
                }),
            };
            if c == letter {
                return value;
            }
            break;
        }
    }
    None
}

/// Names for reasons: the literal texts, shortened.
pub(super) fn names(args: &[&Arg]) -> String {
    let mut s: String = args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
    if s.len() > 80 {
        let cut = (0..=77).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0);
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// The first positional word (a subcommand: `git stash drop`'s `drop`).
pub(super) fn first_positional(args: &[Arg]) -> Option<&str> {
    positional(args, &[]).first().map(|w| w.text.as_str())
}
