//! Text from a source, made harmless for a terminal.
//!
//! Names, descriptions, paths, lint messages and errors that quote a file all come from
//! strangers. A terminal obeys the control characters inside them: `ESC [` (CSI) clears the
//! screen or moves the cursor, OSC 52 writes the clipboard, OSC 8 makes a link that shows other
//! text than it opens, BEL, backspace and CR overwrite what was printed, C1 controls
//! (U+0080–U+009F) are CSI/OSC on some terminals, and bidi overrides (U+202A–U+202E,
//! U+2066–U+2069) show text in another order than it is. Every one of them is shown escaped
//! (`\x1b`, `\u{202e}`), so that what is printed is what is there. Tabs and line breaks are
//! kept where text may span lines (messages, reports) and become spaces in one-line fields
//! (table cells, tab-separated lines). A backslash is left as it is: a forged `\x1b` is four
//! visible characters, never a control.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is shown escaped (tab and line feed are not: see [`field`] for one-line text).
pub fn is_control(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{8}'
            | '\u{b}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            // Arabic letter mark, left-to-right and right-to-left marks, line and paragraph
            // separators, embeddings, overrides and isolates.
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `text` with every control character escaped; borrowed when there is none (the usual case).
pub fn escape(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_control) {
        let mut out = String::with_capacity(text.len() + 8);
        push_escaped(&mut out, text);
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Appends `text` to `out` with every control character escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find(is_control) {
        out.push_str(&rest[..at]);
        let c = rest[at..].chars().next().unwrap_or_default();
        push_escape(out, c);
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(rest);
}

fn push_escape(out: &mut String, c: char) {
    let code = u32::from(c);
    if code < 0x80 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// `text` as one field of one line: tabs and line breaks become spaces, controls are escaped.
pub fn field(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c == '\t' || c == '\n' || is_control(c)) {
        out.push_str(&rest[..at]);
        let c = rest[at..].chars().next().unwrap_or_default();
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            _ => push_escape(&mut out, c),
        }
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_rest_is_kept() {
        assert!(matches!(escape("plain é 字 🙂"), Cow::Borrowed(_)));
        assert_eq!(
            escape("a\x1b[2Jb\x07c\x08d\re\u{9b}f\u{202e}g\u{2066}h\x7f"),
            "a\\x1b[2Jb\\x07c\\x08d\\x0de\\u{9b}f\\u{202e}g\\u{2066}h\\x7f"
        );
        assert_eq!(escape("two\nlines\tand a tab"), "two\nlines\tand a tab");
        assert_eq!(
            escape("\x1b]52;c;aGk=\x07 \x1b]8;;http://x\x1b\\y"),
            "\\x1b]52;c;aGk=\\x07 \\x1b]8;;http://x\\x1b\\y"
        );
    }

    #[test]
    fn a_field_is_one_line() {
        assert_eq!(field("a\tb\nc\r\nd\x1be"), "a b c  d\\x1be");
    }
}
