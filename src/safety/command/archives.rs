//! Archives and compressors. Extraction (`tar x` in every spelling, `bsdtar -x`, `unzip`,
//! `7z x`, `cpio -i`, `ar x`) may overwrite files the analysis cannot name, so it is
//! destructive unless an option keeps existing files; creating an archive writes it.
//! Compressors without `-c`/`-k` replace their input files (destructive). Options that run a
//! program (`tar --to-command`, `-I`, `--checkpoint-action=exec`, `-F`, `--rsh-command`,
//! `zip -TT`) have their command analysed or are unknown.

use super::analysis::Analysis;
use super::flags::{has_long, has_short, option_arg, positional};
use super::options::{has_long_prefix, short_bundle};
use super::words::Arg;
use super::{Risk, paths};

pub(super) fn archive(a: &mut Analysis, prog: &str, args: &[Arg], depth: usize) {
    match prog {
        "tar" | "bsdtar" | "gtar" => tar(a, prog, args, depth),
        "zip" => zip(a, args, depth),
        "unzip" => unzip(a, args),
        "7z" | "7za" | "7zr" => seven_zip(a, prog, args),
        "cpio" => cpio(a, args),
        "ar" => ar(a, args),
        _ => compressor(a, prog, args),
    }
}

/// tar's short options that take a value, in old-style bundles too (`tar xzfC a.tgz dir`).
const TAR_VALUED: &str = "fCbTXIFgKLNVH";
/// tar long options (and their abbreviations) that run a program or a script.
const TAR_RUNS: &[&str] = &[
    "--to-command",
    "--use-compress-program",
    "--rsh-command",
    "--rmt-command",
];
const TAR_SCRIPTS: &[&str] = &["--info-script", "--new-volume-script"];

/// tar's mode and options, whatever the spelling: `tar xf a`, `tar -xf a`, `tar --extract -f a`.
fn tar(a: &mut Analysis, prog: &str, args: &[Arg], depth: usize) {
    let mut letters: Vec<(char, Option<Arg>)> = Vec::new();
    let mut i = 0;
    // Old style: the first word is a bundle of letters without a dash.
    if let Some(first) = args.first().filter(|w| !w.text.starts_with('-')) {
        i = 1;
        for c in first.text.chars() {
            let value = TAR_VALUED.contains(c).then(|| {
                i += 1;
                args.get(i - 1).cloned().unwrap_or_default()
            });
            letters.push((c, value));
        }
    }
    let mut long: Vec<(String, Option<Arg>)> = Vec::new();
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if let Some(name) = t.strip_prefix("--") {
            let (name, value) = match name.split_once('=') {
                Some((n, v)) => (n, Some(w.part(v))),
                None => (name, None),
            };
            long.push((format!("--{name}"), value));
        } else if t.starts_with('-') && t.len() > 1 {
            letters.extend(short_bundle(w, TAR_VALUED, args, &mut i));
        }
    }
    let has = |c: char| letters.iter().any(|(l, _)| *l == c);
    let value = |c: char| letters.iter().find(|(l, _)| *l == c).and_then(|(_, v)| v.clone());
    let long_has = |names: &[&str]| {
        long.iter()
            .any(|(n, _)| names.iter().any(|name| name.starts_with(n.as_str()) && n.len() > 3))
    };
    let long_value = |names: &[&str]| {
        long.iter()
            .find(|(n, _)| names.iter().any(|name| name.starts_with(n.as_str()) && n.len() > 3))
            .and_then(|(_, v)| v.clone())
    };
    for (name, v) in &long {
        let matches = |list: &[&str]| list.iter().any(|l| l.starts_with(name.as_str()) && name.len() > 3);
        if name.len() > 3 && "--checkpoint-action".starts_with(name.as_str()) {
            match v.as_ref().map(|v| (v.lit(), v.text.as_str())) {
                Some((Some(action), _)) if action.starts_with("exec=") => a.script(&action[5..], depth + 1),
                Some((None, _)) | None => a.flag(Risk::Unknown, format!("{prog} --checkpoint-action not literal")),
                Some(_) => {}
            }
        } else if matches(TAR_RUNS) {
            match v.as_ref().and_then(Arg::lit) {
                Some(cmd) => a.script(cmd, depth + 1),
                None => a.flag(Risk::Unknown, format!("{prog} runs a program named by {name}")),
            }
        }
        if matches(TAR_SCRIPTS) {
            a.flag(Risk::Unknown, format!("{prog} runs a script file ({name})"));
        }
    }
    if let Some(program) = value('I') {
        match program.lit() {
            Some(cmd) => a.script(cmd, depth + 1),
            None => a.flag(Risk::Unknown, format!("{prog} -I names a program that is not literal")),
        }
    }
    if has('F') {
        a.flag(Risk::Unknown, format!("{prog} runs a script file (-F)"));
    }
    if long_has(&["--remove-files"]) {
        a.flag(Risk::Destructive, "deletes files after archiving (tar --remove-files)");
    }
    if has('P') || long_has(&["--absolute-names"]) {
        a.flag(Risk::Unknown, format!("{prog} uses absolute paths (-P)"));
    }
    let archive = value('f').or_else(|| long_value(&["--file"]));
    if let Some(file) = archive.as_ref().and_then(Arg::lit)
        && file.contains(':')
        && !file.starts_with('/')
        && !long_has(&["--force-local"])
    {
        a.network(format!("{prog} -f host:file"));
        a.flag(
            Risk::Unknown,
            format!("{prog} reads or writes an archive on another host: {file}"),
        );
    }
    let extract = has('x') || long_has(&["--extract", "--get"]);
    let create = has('c')
        || has('r')
        || has('u')
        || has('A')
        || long_has(&[
            "--create",
            "--append",
            "--update",
            "--catenate",
            "--concatenate",
            "--delete",
        ]);
    if extract {
        let keeps = has('k') || has('O') || long_has(&["--keep-old-files", "--skip-old-files", "--to-stdout"]);
        let dir = value('C')
            .or_else(|| long_value(&["--directory"]))
            .unwrap_or_else(|| Arg::literal("."));
        if !(has('O') || long_has(&["--to-stdout"])) {
            a.write_dir(&dir, &format!("{prog} x"));
        }
        match keeps {
            true => a.unvetted(&format!("extracts files the analysis cannot name ({prog} x)"), false),
            false => a.flag(
                Risk::Destructive,
                format!("extracts an archive over existing files ({prog} x)"),
            ),
        }
        if long_has(&["--recursive-unlink", "--unlink-first"]) || has('U') {
            a.flag(
                Risk::Destructive,
                format!("removes files before extracting ({prog} --unlink-first)"),
            );
        }
    } else if create && let Some(file) = archive {
        a.write(&file, has('c') || long_has(&["--create"]), &format!("{prog} -f"));
    }
    for file in letters
        .iter()
        .filter(|(c, _)| *c == 'g')
        .filter_map(|(_, v)| v.as_ref())
    {
        a.write(file, false, &format!("{prog} -g"));
    }
}

fn zip(a: &mut Analysis, args: &[Arg], depth: usize) {
    if let Some(cmd) = option_arg(args, "--unzip-command", Some("-TT")) {
        match cmd.lit() {
            Some(text) => a.script(text, depth + 1),
            None => a.flag(Risk::Unknown, "zip -TT names a command that is not literal"),
        }
    }
    if has_short(args, 'm') || has_long_prefix(args, &["--move"]) {
        a.flag(Risk::Destructive, "deletes files after archiving (zip -m)");
    }
    let operands = positional(
        args,
        &[
            "-TT",
            "-O",
            "--output-file",
            "-b",
            "-n",
            "-t",
            "-tt",
            "-x",
            "-i",
            "-P",
            "-Z",
        ],
    );
    let output = option_arg(args, "--output-file", Some("-O"));
    if let Some(archive) = output.as_ref().or(operands.first().copied()) {
        a.write(archive, false, "zip");
    }
}

fn unzip(a: &mut Analysis, args: &[Arg]) {
    let reads = ["-l", "-v", "-t", "-z", "-p", "-Z", "-c"]
        .iter()
        .any(|o| args.iter().any(|w| w.text == *o));
    if reads {
        return;
    }
    if let Some(dir) = option_arg(args, "-d", Some("-d")) {
        a.write_dir(&dir, "unzip -d");
    } else {
        a.write_dir(&Arg::literal("."), "unzip");
    }
    match has_short(args, 'n') {
        true => a.unvetted("extracts files the analysis cannot name (unzip -n)", false),
        false => a.flag(Risk::Destructive, "extracts an archive over existing files (unzip)"),
    }
}

fn seven_zip(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let command = args.iter().find(|w| !w.text.starts_with('-')).map(|w| w.text.as_str());
    let operands = positional(args, &[]);
    match command {
        Some("x" | "e") => {
            let dir = args.iter().find_map(|w| w.text.strip_prefix("-o")).unwrap_or(".");
            a.write_dir(&Arg::literal(dir), prog);
            match args.iter().any(|w| w.text == "-aos") {
                true => a.unvetted(&format!("extracts files the analysis cannot name ({prog} x)"), false),
                false => a.flag(
                    Risk::Destructive,
                    format!("extracts an archive over existing files ({prog} x)"),
                ),
            }
        }
        Some("a" | "d" | "u" | "rn") => {
            if let Some(archive) = operands.get(1) {
                a.write(archive, false, prog);
            }
        }
        Some("l" | "t" | "h" | "i" | "b") => {}
        _ => a.flag(Risk::Unknown, format!("{prog}: command not understood")),
    }
}

fn cpio(a: &mut Analysis, args: &[Arg]) {
    if has_long(args, &["--rsh-command"]) {
        a.flag(Risk::Unknown, "cpio runs a program named by --rsh-command");
    }
    if has_short(args, 'i') || has_long_prefix(args, &["--extract"]) {
        a.write_dir(&Arg::literal("."), "cpio -i");
        a.flag(Risk::Destructive, "extracts an archive over existing files (cpio -i)");
    } else if has_short(args, 'p') || has_long_prefix(args, &["--pass-through"]) {
        if let Some(dir) = positional(args, &["-F", "-O", "-I", "-H", "-R", "-M"]).first() {
            a.write_dir(dir, "cpio -p");
        }
        a.flag(Risk::Destructive, "copies files over existing ones (cpio -p)");
    }
    for file in [
        option_arg(args, "--file", Some("-F")),
        option_arg(args, "-O", Some("-O")),
    ]
    .into_iter()
    .flatten()
    {
        if has_short(args, 'o') || has_long_prefix(args, &["--create"]) {
            a.write(&file, true, "cpio -o");
        }
    }
}

fn ar(a: &mut Analysis, args: &[Arg]) {
    let Some(key) = args.first() else { return };
    let key = key.text.trim_start_matches('-');
    let archive = args.iter().skip(1).find(|w| !w.text.starts_with('-'));
    if key.contains('x') {
        a.write_dir(&Arg::literal("."), "ar x");
        a.flag(Risk::Destructive, "extracts an archive over existing files (ar x)");
    } else if key.contains(['r', 'q', 'd', 'm', 's']) {
        if let Some(archive) = archive {
            a.write(archive, false, "ar");
        }
    } else if !key.contains(['t', 'p']) {
        a.flag(Risk::Unknown, "ar: key not understood");
    }
}

/// Compressors: the default replaces each input file with its (de)compressed form.
fn compressor(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let stdout = has_short(args, 'c')
        || has_short(args, 't')
        || has_short(args, 'l')
        || has_long_prefix(args, &["--stdout", "--to-stdout", "--test", "--list"]);
    let files = positional(args, &["-o", "-S", "--suffix", "-b", "-T", "--threads", "-p", "-D"]);
    if stdout || files.is_empty() {
        return; // a filter, or it only reads
    }
    let keeps_by_default = matches!(prog, "zstd" | "unzstd" | "lz4" | "unlz4" | "lzop" | "brotli");
    let deletes = if keeps_by_default {
        has_long(args, &["--rm"])
            || (prog == "lzop" && (has_short(args, 'U') || has_long(args, &["--delete"])))
            || (prog == "brotli" && has_short(args, 'j'))
    } else {
        !(has_short(args, 'k') || has_long_prefix(args, &["--keep"]))
    };
    if deletes {
        return a.flag(
            Risk::Destructive,
            format!("replaces files with their (de)compressed form ({prog})"),
        );
    }
    if let Some(out) = option_arg(args, "--output", Some("-o"))
        .filter(|_| matches!(prog, "zstd" | "unzstd" | "lz4" | "brotli" | "lzop"))
    {
        a.write(&out, true, prog);
        return;
    }
    let decompress =
        prog.starts_with("un") || has_short(args, 'd') || has_long_prefix(args, &["--decompress", "--uncompress"]);
    let ext = match prog.trim_start_matches("un") {
        "gzip" | "pigz" => ".gz",
        "bzip2" | "pbzip2" => ".bz2",
        "xz" => ".xz",
        "lzma" => ".lzma",
        "zstd" => ".zst",
        "lz4" => ".lz4",
        "lzop" => ".lzo",
        "brotli" => ".br",
        _ => ".Z",
    };
    for f in files {
        let target = match decompress {
            true => f.text.strip_suffix(ext).map(str::to_owned),
            false => Some(format!("{}{ext}", f.text)),
        };
        match target {
            Some(t) if f.literal && !paths::is_stream(&f.text) => {
                a.write(
                    &Arg::literal(&t),
                    has_short(args, 'f') || has_long(args, &["--force"]),
                    prog,
                );
            }
            _ => a.unvetted(&format!("writes files the analysis cannot name ({prog})"), false),
        }
    }
}
