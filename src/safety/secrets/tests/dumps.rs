//! What the dump tools print, byte for byte as coreutils/xxd/util-linux print it (checked
//! against the real tools), so the tests need none of them installed; and the leak check the
//! tests share.

use std::fmt::Write as _;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE_NO_PAD};

/// `xxd` with `cols` bytes a line (default 16): offset, hex in pairs, the ASCII column.
pub fn xxd(bytes: &[u8], cols: usize) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(cols).enumerate() {
        let _ = write!(out, "{:08x}: ", row * cols);
        let mut hex = String::new();
        for (i, b) in chunk.iter().enumerate() {
            let _ = write!(hex, "{b:02x}");
            if i % 2 == 1 {
                hex.push(' ');
            }
        }
        let width = cols * 2 + cols / 2;
        let _ = writeln!(out, "{hex:<width$} {}", ascii(chunk));
    }
    out
}

/// `xxd -b`: six bytes a line in binary.
pub fn xxd_bits(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(6).enumerate() {
        let bits: Vec<String> = chunk.iter().map(|b| format!("{b:08b}")).collect();
        let _ = writeln!(out, "{:08x}: {:<54} {}", row * 6, bits.join(" "), ascii(chunk));
    }
    out
}

/// `hexdump -C`.
pub fn hexdump_c(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let mut hex = String::new();
        for (i, b) in chunk.iter().enumerate() {
            let _ = write!(hex, "{b:02x} ");
            if i == 7 {
                hex.push(' ');
            }
        }
        let _ = writeln!(out, "{:08x}  {hex:<49} |{}|", row * 16, ascii(chunk));
    }
    let _ = writeln!(out, "{:08x}", bytes.len());
    out
}

/// `od -c`: octal offsets, each byte in a four-wide column, escapes for control bytes.
pub fn od_c(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let _ = write!(out, "{:07o}", row * 16);
        for &b in chunk {
            let shown = match b {
                b'\n' => "\\n".to_string(),
                b'\t' => "\\t".to_string(),
                32..=126 => (b as char).to_string(),
                _ => format!("{b:03o}"),
            };
            let _ = write!(out, "{shown:>4}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{:07o}", bytes.len());
    out
}

/// `od -x` (16-bit little-endian words in hex, as plain `hexdump` prints them too) and `od`
/// (the same words in octal): `radix` 16 or 8.
pub fn od_words(bytes: &[u8], radix: u32) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let _ = write!(out, "{:07o}", row * 16);
        for word in chunk.chunks(2) {
            let value = le_value(word);
            match radix {
                8 => write!(out, " {value:06o}"),
                _ => write!(out, " {value:04x}"),
            }
            .unwrap();
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{:07o}", bytes.len());
    out
}

/// `xxd -e`: 32-bit little-endian words, the last one as short as the bytes left.
pub fn xxd_e(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let words: Vec<String> = chunk
            .chunks(4)
            .map(|w| format!("{:>8}", format!("{:0width$x}", le_value(w), width = w.len() * 2)))
            .collect();
        let _ = writeln!(out, "{:08x}: {:<35}  {}", row * 16, words.join(" "), ascii(chunk));
    }
    out
}

fn le_value(word: &[u8]) -> u64 {
    word.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b))
}

/// `od -b` (`radix` 8) and `od -t u1` (`radix` 10).
pub fn od_bytes(bytes: &[u8], radix: u32) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let _ = write!(out, "{:07o}", row * 16);
        for &b in chunk {
            match radix {
                8 => write!(out, " {b:03o}"),
                _ => write!(out, " {b:>3}"),
            }
            .unwrap();
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{:07o}", bytes.len());
    out
}

/// `fold -w width`.
pub fn fold(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(width)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `base64 -w width`.
pub fn base64_wrapped(bytes: &[u8], width: usize) -> String {
    fold(&STANDARD.encode(bytes), width) + "\n"
}

fn ascii(chunk: &[u8]) -> String {
    chunk
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            }
        })
        .collect()
}

/// The first run of 12 bytes' worth of `secret`, in any spelling the redactor promises to
/// catch but base32, that `redacted` (whitespace removed) still shows; `None` when nothing
/// that long is left. Computed with other code than the redactor's (the base64 crate,
/// `format!`), so a wrong encoder there cannot hide a leak here.
pub fn leak(secret: &str, redacted: &str) -> Option<String> {
    let seen: String = redacted.split_whitespace().collect();
    let seen = seen.replace("\\n", "");
    let bytes = secret.as_bytes();
    let each = |f: &dyn Fn(&u8) -> String| -> String { bytes.iter().map(f).collect() };
    let hex = each(&|b| format!("{b:02x}"));
    let mut spellings: Vec<(String, usize)> = vec![
        (secret.to_string(), 12),
        (secret.chars().rev().collect(), 12),
        (super::encode::rot13(secret), 12),
        (secret.to_uppercase(), 12),
        (secret.to_lowercase(), 12),
        (hex.to_uppercase(), 24),
        (hex, 24),
        (each(&|b| format!("{b:03o}")), 36),
        (each(&|b| format!("{b}")), 30),
        (each(&|b| format!("{b:08b}")), 96),
    ];
    for width in [2, 4] {
        for skip in 0..width {
            let words = bytes.get(skip..).unwrap_or_default().chunks_exact(width);
            let swapped: String = words
                .clone()
                .flat_map(|w| w.iter().rev().map(|b| format!("{b:02x}")))
                .collect();
            spellings.push((swapped, 24));
            if width == 2 {
                let octal: String = words
                    .map(|w| format!("{:06o}", u16::from(w[1]) << 8 | u16::from(w[0])))
                    .collect();
                spellings.push((octal, 36));
            }
        }
    }
    for pad in 0..3 {
        let stream = [&b"\0\0"[..pad], bytes].concat();
        for encoded in [STANDARD_NO_PAD.encode(&stream), URL_SAFE_NO_PAD.encode(&stream)] {
            // The first and last quantum may hold a neighbour's bits.
            let stable = &encoded[4..encoded.len() - 4];
            spellings.push((stable.to_string(), 16));
        }
    }
    for (spelling, window) in spellings {
        let window = window.min(spelling.len());
        let chars: Vec<char> = spelling.chars().collect();
        for run in chars.windows(window) {
            let run: String = run.iter().collect();
            if seen.contains(&run) {
                return Some(run);
            }
        }
    }
    None
}
