//! File effects: deletes (`rm`, `unlink`, `shred`, `truncate`), copies and moves onto
//! existing targets, `dd of=`, in-place `sed`, `tee`, creations, and permission changes.
//! Every target it can name is recorded as a write.

use super::Risk;
use super::analysis::Analysis;
use super::flags::{has_long, has_short, names, option_arg, option_value, positional};
use super::words::Arg;

pub(super) fn delete(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let with_value: &[&str] = match prog {
        "truncate" => &["-s", "-r", "--size", "--reference"],
        "shred" => &["-n", "-s", "--iterations", "--size", "--random-source"],
        _ => &[],
    };
    let targets = positional(args, with_value);
    for t in &targets {
        a.write(t, false, prog);
    }
    let list = names(&targets);
    match prog {
        "rmdir" => {} // only empty directories: nothing is lost
        "rm" => {
            let recursive = has_short(args, 'r') || has_short(args, 'R') || has_long(args, &["--recursive"]);
            let how = if recursive { "rm -r" } else { "rm" };
            a.flag(Risk::Destructive, format!("deletes files: {list} ({how})"));
        }
        "truncate" => a.flag(Risk::Destructive, format!("truncates files: {list} (truncate)")),
        _ => a.flag(Risk::Destructive, format!("deletes files: {list} ({prog})")),
    }
}

/// `cp`/`mv`/`install`/`ln`: the destination is the last operand or `-t DIR`.
pub(super) fn copy(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let with_value: &[&str] = match prog {
        "install" => &["-m", "-o", "-g", "-t", "-S", "--target-directory", "--suffix", "--mode"],
        _ => &["-t", "-S", "--target-directory", "--suffix"],
    };
    let operands = positional(args, with_value);
    let target_dir = option_value(args, "--target-directory", Some("-t"));
    let no_clobber = has_short(args, 'n') || has_long(args, &["--no-clobber", "--update"]) && prog != "ln";
    let overwrites = match prog {
        "ln" => has_short(args, 'f') || has_long(args, &["--force"]),
        _ => !no_clobber,
    };
    if target_dir.is_none() && operands.last().is_some_and(|last| last.glob) {
        // `cp *.txt`: the last file the pattern matches is the destination.
        a.flag(
            Risk::Unknown,
            format!("{prog} onto a destination a pattern names: {}", names(&operands)),
        );
        return;
    }
    if prog == "cp" && (has_short(args, 's') || has_short(args, 'l') || has_long(args, &["--symbolic-link", "--link"]))
    {
        // A link can point anywhere: reading or writing through it later leaves the roots.
        a.unvetted("creates links (cp -s/-l)", false);
    }
    let (dest, sources): (Arg, Vec<&Arg>) = match (&target_dir, operands.split_last()) {
        (Some(dir), _) => (dir_arg(args, dir), operands.clone()),
        (None, Some((last, rest))) if !rest.is_empty() || prog == "ln" => ((*last).clone(), rest.to_vec()),
        _ => return,
    };
    if prog == "mv" && dest.lit() == Some("/dev/null") {
        a.flag(
            Risk::Destructive,
            format!("moves files into /dev/null: {}", names(&sources)),
        );
        return;
    }
    if prog == "mv" {
        for s in &sources {
            a.write(s, false, "mv source");
        }
    }
    let dest_is_dir = target_dir.is_some() || dest.text.ends_with('/');
    if dest_is_dir && dest.literal {
        for s in &sources {
            let base = s.text.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let inner = Arg {
                text: format!("{}/{base}", dest.text.trim_end_matches('/')),
                literal: s.literal,
                glob: s.glob,
            };
            write_dest(a, &inner, overwrites, prog);
        }
    } else {
        write_dest(a, &dest, overwrites, prog);
    }
}

fn dir_arg(args: &[Arg], text: &str) -> Arg {
    args.iter()
        .find(|w| w.text == text)
        .cloned()
        .unwrap_or_else(|| Arg::literal(text))
}

fn write_dest(a: &mut Analysis, dest: &Arg, overwrites: bool, prog: &str) {
    if !dest.literal && overwrites {
        a.flag(
            Risk::Unknown,
            format!("{prog} onto a target that is not literal: {}", dest.text),
        );
        a.not_read_only();
        return;
    }
    let existed = a.write(dest, false, prog);
    if existed && overwrites {
        a.flag(
            Risk::Destructive,
            format!("overwrites an existing file: {} ({prog})", dest.text),
        );
    }
}

pub(super) fn dd(a: &mut Analysis, args: &[Arg]) {
    for w in args {
        if let Some(target) = w.text.strip_prefix("of=") {
            let arg = Arg {
                text: target.to_owned(),
                literal: w.literal,
                glob: false,
            };
            a.write(&arg, true, "dd of=");
        }
    }
}

pub(super) fn sed(a: &mut Analysis, args: &[Arg]) {
    let in_place = has_long(args, &["--in-place"])
        || args.iter().take_while(|w| w.text != "--").any(|w| {
            w.text.starts_with('-')
                && !w.text.starts_with("--")
                && w.text[1..].chars().take_while(|c| *c != 'e').any(|c| c == 'i')
        });
    if !in_place {
        return;
    }
    let has_script_option = args
        .iter()
        .any(|w| matches!(w.text.as_str(), "-e" | "-f" | "--expression" | "--file"));
    let operands = positional(args, &["-e", "-f", "--expression", "--file", "-l"]);
    let files = if has_script_option {
        &operands[..]
    } else {
        operands.get(1..).unwrap_or(&[])
    };
    for f in files {
        a.write(f, false, "sed -i");
    }
    a.flag(
        Risk::Destructive,
        format!("edits files in place: {} (sed -i)", names(files)),
    );
}

pub(super) fn tee(a: &mut Analysis, args: &[Arg]) {
    let append = has_short(args, 'a') || has_long(args, &["--append"]);
    for f in positional(args, &[]) {
        a.write(f, !append, "tee");
    }
}

pub(super) fn create(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let with_value: &[&str] = match prog {
        "touch" => &["-d", "-r", "-t", "--date", "--reference"],
        "mktemp" => &["-p", "--tmpdir", "--suffix"],
        _ => &["-m", "--mode", "-Z"],
    };
    if prog == "mktemp" {
        // A fresh name that never overwrites; only where it lands matters.
        if let Some(dir) = option_arg(args, "--tmpdir", Some("-p")) {
            a.write_dir(&dir, "mktemp -p");
        }
        return;
    }
    for f in positional(args, with_value) {
        match prog {
            "mkdir" => a.write_dir(f, prog),
            _ => a.write(f, false, prog),
        };
    }
}

/// Recursive changes anywhere, and any change outside the project, are destructive.
pub(super) fn permissions(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let operands = positional(args, &["--reference"]);
    let targets: Vec<&Arg> = if has_long(args, &["--reference"]) || prog == "chattr" && operands.is_empty() {
        operands
    } else {
        operands.into_iter().skip(1).collect()
    };
    // `chmod -x f` spells a mode like an option: it is still a mode, not a recursive flag.
    let recursive = has_long(args, &["--recursive"])
        || args.iter().any(|w| {
            w.text == "-R" || w.text.starts_with("-R") && w.text.len() > 2 && !w.text[1..].contains(['x', 'w'])
        });
    let list = names(&targets);
    if recursive {
        a.flag(
            Risk::Destructive,
            format!("changes permissions recursively: {list} ({prog} -R)"),
        );
    }
    for t in &targets {
        a.write(t, false, prog);
        let outside = t.lit().map(|text| !a.inside(&a.resolve(text)));
        if outside != Some(false) {
            a.flag(
                Risk::Destructive,
                format!("changes permissions outside the project: {} ({prog})", t.text),
            );
        }
    }
}
