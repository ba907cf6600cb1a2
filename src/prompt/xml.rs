//! XML output: escaping that never lets text leave its element, and the default catalog block
//! of the agentskills.io client guide.

use super::Entry;

/// Escapes `& < > " '` and drops characters XML 1.0 cannot carry (C0 controls other than tab,
/// line feed and carriage return; U+FFFE, U+FFFF). Invisible characters that XML allows, such as
/// bidi controls, are kept: lint warns about them, the prompt shows what the skill says.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// Python's `html.escape(text, quote=True)`, for `--format skills-ref`.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The `<available_skills>` block; nothing at all when there are no skills.
pub fn catalog(entries: &[Entry]) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let mut out = String::from("<available_skills>\n");
    for e in entries {
        out.push_str("  <skill>\n    <name>");
        out.push_str(&escape(&e.name));
        out.push_str("</name>\n    <description>");
        out.push_str(&escape(&e.description));
        out.push_str("</description>\n    <location>");
        out.push_str(&escape(&e.location));
        out.push_str("</location>\n  </skill>\n");
    }
    out.push_str("</available_skills>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_that_could_break_out() {
        assert_eq!(
            escape("a & <b> \"c\" 'd' ]]>"),
            "a &amp; &lt;b&gt; &quot;c&quot; &apos;d&apos; ]]&gt;"
        );
        assert_eq!(escape("x\u{0}y\u{1b}z\u{FFFF}\n"), "xyz\n");
        assert_eq!(escape("\u{202e}\u{200b}"), "\u{202e}\u{200b}");
        assert_eq!(
            html_escape("<a href='x'>&</a>"),
            "&lt;a href=&#x27;x&#x27;&gt;&amp;&lt;/a&gt;"
        );
    }
}
