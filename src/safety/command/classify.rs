//! One program's effect: dispatch by (literal, decoded) program name to the per-area rules,
//! plus the small option helpers they share. It fails closed: a program no table knows is
//! `Risk::Unknown` ("unknown program: X") and not harmless; a known program is harmless only
//! when it only reads or its handler names every effect (a write it records, a finding it
//! flags), otherwise the handler says why it is not (`unvetted`).

use super::analysis::{Analysis, Stdin};
use super::read_only_programs::{always_reads, simple_command_reads};
use super::words::Arg;
use super::{Risk, archives, env, files, git, hardline, known, net, project, runners, secrets, system, tools};

pub(super) fn simple(a: &mut Analysis, prog: &str, words: &[Arg], stdin: Stdin, depth: usize) {
    let args = &words[1..];
    a.program_words(words, 1);
    if a.in_function_named(prog) {
        a.flag(Risk::Hardline, format!("fork bomb (function {prog} spawns itself)"));
    }
    hardline::check(a, prog, args);
    secrets::check_args(a, prog, args);
    let texts: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    if !simple_command_reads(&texts) {
        a.not_read_only();
    }
    if !dispatch(a, prog, words, stdin, depth) {
        a.unvetted(&format!("unknown program: {prog}"), true);
    }
}

/// Judges `prog` by its area; `false` when no table knows it.
fn dispatch(a: &mut Analysis, prog: &str, words: &[Arg], stdin: Stdin, depth: usize) -> bool {
    let args = &words[1..];
    match prog {
        "rm" | "unlink" | "shred" | "truncate" | "rmdir" => files::delete(a, prog, args),
        "cp" | "mv" | "install" => files::copy(a, prog, args),
        "ln" => {
            files::copy(a, prog, args);
            // A link can point anywhere: reading or writing through it later leaves the roots.
            a.unvetted("creates a link (ln)", false);
        }
        "dd" => files::dd(a, args),
        "sed" | "gsed" => {
            files::sed(a, args);
            runners::sed_script(a, args);
        }
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => runners::awk(a, args),
        "tee" => files::tee(a, args),
        "touch" | "mkdir" | "mkfifo" | "mknod" | "mktemp" => files::create(a, prog, args),
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" => files::permissions(a, prog, args),
        "find" => runners::find_own(a, args),
        "tar" | "bsdtar" | "gtar" | "zip" | "unzip" | "7z" | "7za" | "7zr" | "cpio" | "ar" | "gzip" | "gunzip"
        | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma" | "unlzma" | "zstd" | "unzstd" | "lz4" | "unlz4" | "pigz"
        | "pbzip2" | "lzop" | "compress" | "uncompress" | "brotli" => archives::archive(a, prog, args, depth),
        "git" => git::git(a, words, depth),
        "kill" | "pkill" | "killall" | "killall5" | "skill" | "slay" => system::kill(a, prog, args),
        "crontab" | "at" | "batch" | "atrm" | "systemctl" | "launchctl" | "service" | "update-rc.d" | "chkconfig" => {
            system::services(a, prog, args)
        }
        "curl" | "wget" | "nc" | "ncat" | "netcat" | "socat" | "scp" | "sftp" | "rsync" | "ftp" | "telnet" | "ssh"
        | "mosh" | "ping" | "ping6" | "dig" | "host" | "nslookup" | "traceroute" | "whois" | "http" | "https"
        | "aria2c" => net::network(a, prog, args, stdin, depth),
        "printenv" | "echo" | "printf" | "compgen" => secrets::printing(a, prog, args),
        "set" => {
            secrets::printing(a, prog, args);
            known::builtin(a, prog, args);
        }
        "export" | "declare" | "typeset" | "local" | "readonly" => {
            secrets::printing(a, prog, args);
            env::declaration(a, prog, args, depth);
        }
        p if project::is_tool(p) => project::tool(a, prog, words, 1, stdin, depth),
        p if tools::is_tool(p) => tools::tool(a, prog, words, stdin),
        p if always_reads(p) => {}
        p if known::BUILTINS.contains(&p) => known::builtin(a, prog, args),
        _ => return false,
    }
    true
}
