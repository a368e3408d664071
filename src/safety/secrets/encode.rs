//! The spellings a command prints bytes in, each as the part that is fixed by the value alone.
//! A value printed inside a longer stream (a whole `.env` through `base64`, `od`, `xxd -e`)
//! shares its first and last characters with the bytes around it whenever the encoding groups
//! bytes (three per base64 quantum, two per 16-bit word); only the characters computed from the
//! value's own bytes are stable, so each encoder takes the value's position in the group
//! (`offset`) and returns just those characters. Pure functions over bytes, ASCII output.

/// `tr 'A-Za-z' 'N-ZA-Mn-za-m'`.
pub fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            _ => c,
        })
        .collect()
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Two hex digits per byte (`xxd -p`, `od -t x1`, `hexdump -C`, `xxd -u`).
pub fn hex(bytes: &[u8], upper: bool) -> String {
    let digits = if upper { HEX_UPPER } else { HEX_LOWER };
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(digits[usize::from(b >> 4)] as char);
        out.push(digits[usize::from(b & 15)] as char);
    }
    out
}

/// The value's bytes that fill whole `width`-byte words when the value starts `offset` bytes
/// into a word; a word holding a neighbour's byte prints differently and is left out.
fn whole_words(bytes: &[u8], width: usize, offset: usize) -> std::slice::ChunksExact<'_, u8> {
    let first = (width - offset % width) % width;
    bytes.get(first..).unwrap_or_default().chunks_exact(width)
}

/// Little-endian words printed as hex (`od -x`, plain `hexdump`, `xxd -e`, `od -t x4`).
pub fn hex_words(bytes: &[u8], width: usize, offset: usize) -> String {
    let mut out = String::new();
    for word in whole_words(bytes, width, offset) {
        let swapped: Vec<u8> = word.iter().rev().copied().collect();
        out.push_str(&hex(&swapped, false));
    }
    out
}

/// Three octal digits per byte (`od -b`).
pub fn octal_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:03o}")).collect()
}

/// Little-endian 16-bit words as six octal digits (`od` with no options).
pub fn octal_words(bytes: &[u8], offset: usize) -> String {
    whole_words(bytes, 2, offset)
        .map(|w| format!("{:06o}", u16::from_le_bytes([w[0], w[1]])))
        .collect()
}

/// Each byte as a decimal number, the numbers run together as they are once the columns'
/// spaces are gone (`od -t u1`, `od -t d1` for ASCII).
pub fn decimal_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(u8::to_string).collect()
}

/// Eight binary digits per byte (`xxd -b`, `basenc --base2msbf`).
pub fn binary(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:08b}")).collect()
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Base64 characters fixed by the value when it starts `offset` (0–2) bytes into a 3-byte
/// quantum (`base64`, `openssl base64`, `basenc --base64url` with `url`).
pub fn base64(bytes: &[u8], offset: usize, url: bool) -> String {
    stable_digits(bytes, offset % 3, 6, if url { BASE64_URL } else { BASE64 })
}

/// Base32 characters fixed by the value when it starts `offset` (0–4) bytes into a 5-byte
/// group (`base32`).
pub fn base32(bytes: &[u8], offset: usize) -> String {
    stable_digits(bytes, offset % 5, 5, BASE32)
}

/// The digits of a `bits`-per-digit big-endian encoding of a stream in which `bytes` start
/// `offset` bytes in, keeping only digits whose bits all come from `bytes`.
fn stable_digits(bytes: &[u8], offset: usize, bits: usize, alphabet: &[u8]) -> String {
    let start_bit = offset * 8;
    let end_bit = start_bit + bytes.len() * 8;
    let bit = |i: usize| -> usize {
        let i = i - start_bit;
        usize::from(bytes[i / 8] >> (7 - i % 8) & 1)
    };
    let first = start_bit.div_ceil(bits);
    let mut out = String::new();
    let mut digit = first;
    while (digit + 1) * bits <= end_bit {
        let value = (digit * bits..(digit + 1) * bits).fold(0, |acc, i| acc << 1 | bit(i));
        out.push(alphabet[value] as char);
        digit += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

    const VALUE: &[u8] = b"sk-proj-Ab3dEf6h/?>~";

    #[test]
    fn base64_alignments_are_substrings_of_any_stream_holding_the_value() {
        for offset in 0..3 {
            for (before, after) in [(&b"x"[..], &b"\n"[..]), (b"KEY=", b""), (b"ab", b"yz!")] {
                let pad = &b"0123"[..offset];
                let stream = [before, pad, VALUE, after].concat();
                let aligned = (before.len() + offset) % 3;
                let whole = STANDARD_NO_PAD.encode(&stream);
                let stable = base64(VALUE, aligned, false);
                assert!(stable.len() >= VALUE.len() * 4 / 3 - 2, "{stable}");
                assert!(whole.contains(&stable), "offset {aligned}: {stable} not in {whole}");
                let url = URL_SAFE_NO_PAD.encode(&stream);
                assert!(url.contains(&base64(VALUE, aligned, true)));
            }
        }
    }

    #[test]
    fn base32_alignments_are_substrings_of_the_stream() {
        // RFC 4648 test vector: "foobar" → MZXW6YTBOI======
        assert_eq!(base32(b"foobar", 0), "MZXW6YTBO");
        for offset in 0..5 {
            let stream = [&b"abcde"[..offset], VALUE, b"!"].concat();
            let whole = base32(&stream, 0);
            assert!(whole.contains(&base32(VALUE, offset)), "offset {offset}");
        }
    }

    #[test]
    fn dump_formats_match_what_the_tools_print() {
        assert_eq!(hex(b"sk-", false), "736b2d");
        assert_eq!(hex(b"sk-", true), "736B2D");
        // `printf sk-proj | od -x` → 6b73 702d 6f72 006a; `printf Xsk-proj | od -x` → 7358 2d6b 7270 6a6f
        assert_eq!(hex_words(b"sk-proj", 2, 0), "6b73702d6f72");
        assert_eq!(hex_words(b"sk-proj", 2, 1), "2d6b72706a6f");
        // `printf 'sk-proj-' | xxd -e` → 702d6b73 2d6a6f72
        assert_eq!(hex_words(b"sk-proj-", 4, 0), "702d6b732d6a6f72");
        assert_eq!(hex_words(b"sk-proj-", 4, 3), "72702d6b");
        // `printf 'sk-p' | od` → 065563 070055; `od -b` → 163 153 055 160
        assert_eq!(octal_words(b"sk-p", 0), "065563070055");
        assert_eq!(octal_bytes(b"sk-p"), "163153055160");
        assert_eq!(decimal_bytes(b"sk-p"), "11510745112");
        assert_eq!(binary(b"s"), "01110011");
        assert_eq!(rot13("sk-Proj-9z"), "fx-Cebw-9m");
    }
}
