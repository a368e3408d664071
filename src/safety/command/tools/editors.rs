//! vim and its relatives (commands on the command line run, `-e`/`-s`/`ex` edit in batch) and
//! sqlite3 (dot commands and functions that run programs or touch other files).

use super::super::Risk;
use super::super::analysis::{Analysis, Stdin};
use super::super::flags::{has_long, positional};
use super::super::words::Arg;

/// vim and friends: commands given on the command line run; `-e`/`-s`/`ex` edit in batch.
pub(super) fn vim(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let runs = args.iter().any(|w| {
        w.text.starts_with('+')
            || matches!(
                w.text.as_str(),
                "-c" | "--cmd" | "-S" | "-s" | "-u" | "-U" | "-w" | "-W" | "-i" | "-x"
            )
    });
    if runs {
        a.flag(
            Risk::Unknown,
            format!("{prog} runs editor commands from the command line"),
        );
    }
    let batch = matches!(prog, "ex" | "exim")
        || args.iter().any(|w| {
            w.text.starts_with('-') && !w.text.starts_with("--") && (w.text.contains('e') || w.text.contains('E'))
        })
        || has_long(args, &["--headless"]);
    match batch {
        true => a.flag(
            Risk::Destructive,
            format!("edits files with a batch editor ({prog} -e)"),
        ),
        false if !runs => a.flag(Risk::Unknown, format!("opens an interactive editor ({prog})")),
        false => {}
    }
}

/// sqlite3: dot commands and functions that run programs, load extensions or touch other
/// files are unknown; SQL from stdin is unknown; anything else may change the database.
pub(super) fn sqlite(a: &mut Analysis, args: &[Arg], stdin: Stdin) {
    const RUNS: &[&str] = &[
        ".shell",
        ".system",
        ".load",
        "load_extension",
        ".output",
        ".once",
        ".import",
        ".read",
        ".open",
        ".save",
        ".backup",
        ".restore",
        ".excel",
        ".log",
        ".trace",
        ".cd",
        "attach",
        "vacuum into",
        "writefile(",
        "edit(",
        "readfile(",
        "fts3_tokenizer",
    ];
    let lower: Vec<String> = args.iter().map(|w| w.text.to_ascii_lowercase()).collect();
    if lower.iter().any(|t| RUNS.iter().any(|r| t.contains(r)))
        || args
            .iter()
            .any(|w| matches!(w.text.as_str(), "-init" | "-cmd" | "--init" | "--cmd"))
    {
        return a.flag(
            Risk::Unknown,
            "sqlite3 runs programs, loads extensions or opens other files",
        );
    }
    if args.iter().any(|w| !w.literal) {
        return a.flag(Risk::Unknown, "sqlite3 runs SQL that is not literal");
    }
    let operands = positional(
        args,
        &[
            "-separator",
            "-nullvalue",
            "-newline",
            "-cmd",
            "-init",
            "-vfs",
            "-maxsize",
        ],
    );
    if operands.len() < 2 && stdin != Stdin::Inherited {
        return a.flag(Risk::Unknown, "sqlite3 reads SQL from stdin");
    }
    if let Some(db) = operands.first() {
        a.write(db, false, "sqlite3");
    }
    a.unvetted("runs SQL on a database (sqlite3)", false);
}
