//! Decoding what a skill hides in base64 or hex literals, so that the rules read the endpoint
//! or the command behind them. Only text that decodes to readable text counts: binary test data
//! (an image, a key) decodes to bytes that are not.

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
    let printable = bytes
        .iter()
        .filter(|b| b.is_ascii_graphic() || matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
        .count();
    if printable * 100 < bytes.len() * 95 {
        return None;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
