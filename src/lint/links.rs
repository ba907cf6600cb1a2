//! Relative links in Markdown: found cheaply, resolved inside the skill folder.
//!
//! A lint heuristic, not a Markdown renderer: inline links and images `[text](target)` and
//! reference definitions `[id]: target`, outside fenced code blocks and inline code spans. Targets
//! with a scheme, anchors, absolute paths and templated paths are not files of the skill.

use crate::skill::frontmatter::lines;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The target as written (without title).
    pub target: String,
    pub line: usize,
    pub col: usize,
}

/// Links in `text`, whose first line is file line `first_line`.
///
/// Jumps from one `](` or `]:` to the next with `memmem` and looks at the surrounding line only
/// there: most lines hold no link, and skill bodies are read in bulk.
pub fn find(text: &str, first_line: usize) -> Vec<Link> {
    let bytes = text.as_bytes();
    let fences = fenced_blocks(text);
    let mut links = Vec::new();
    let mut last_line_start = usize::MAX;
    let mut line_no = first_line;
    let mut counted_to = 0;
    let finder = memchr::memmem::Finder::new("]");
    for hit in finder.find_iter(bytes) {
        if !matches!(bytes.get(hit + 1), Some(b'(' | b':')) {
            continue;
        }
        let start = bytes[..hit]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        if start == last_line_start || fences.iter().any(|&(from, to)| (from..to).contains(&start))
        {
            continue;
        }
        last_line_start = start;
        let end = memchr::memchr2(b'\n', b'\r', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        line_no += count_lines(&bytes[counted_to..start]);
        counted_to = start;
        scan_line(&text[start..end], line_no, &mut links);
    }
    links
}

/// Line ends in `bytes` (LF, CRLF and lone CR each count once).
fn count_lines(bytes: &[u8]) -> usize {
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count();
    lf + lone_cr
}

/// Byte ranges of fenced code blocks (```` ``` ```` or `~~~`), from the opening line's start to
/// the closing line's end (or the end of the text).
fn fenced_blocks(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"```").is_none()
        && memchr::memmem::find(bytes, b"~~~").is_none()
    {
        return Vec::new();
    }
    let mut blocks = Vec::new();
    let mut open: Option<(usize, &str)> = None;
    for line in lines(text) {
        let trimmed = text[line.start..line.end].trim_start();
        let marker = if trimmed.starts_with("```") {
            "```"
        } else if trimmed.starts_with("~~~") {
            "~~~"
        } else {
            continue;
        };
        match open {
            None => open = Some((line.start, marker)),
            Some((from, opened)) if opened == marker => {
                blocks.push((from, line.next));
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some((from, _)) = open {
        blocks.push((from, text.len()));
    }
    blocks
}

fn scan_line(line: &str, line_no: usize, links: &mut Vec<Link>) {
    // Reference definition: up to 3 spaces, `[label]:`, then the target.
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent <= 3
        && line[indent..].starts_with('[')
        && let Some(close) = line[indent..].find("]:")
    {
        {
            let start = indent + close + 2;
            let rest = &line[start..];
            let trimmed = rest.trim_start();
            let target = match trimmed.strip_prefix('<') {
                Some(inner) => inner.split('>').next().unwrap_or_default(),
                None => trimmed.split_whitespace().next().unwrap_or_default(),
            };
            if !target.is_empty() {
                let col = line[..start + (rest.len() - trimmed.len())].chars().count() + 1;
                links.push(Link {
                    target: target.to_owned(),
                    line: line_no,
                    col,
                });
            }
            return;
        }
    }
    let bytes = line.as_bytes();
    let mut in_code = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => in_code = !in_code,
            b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                let start = i + 2;
                if let Some(len) = target_len(&bytes[start..]) {
                    let raw = line[start..start + len].trim();
                    let target = match raw.strip_prefix('<') {
                        Some(inner) => inner.split('>').next().unwrap_or_default(),
                        None => raw.split_whitespace().next().unwrap_or_default(),
                    };
                    if !target.is_empty() {
                        let col = line[..start].chars().count() + 1;
                        links.push(Link {
                            target: target.to_owned(),
                            line: line_no,
                            col,
                        });
                    }
                    i = start + len;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Length of a link destination up to its closing `)`, allowing balanced parentheses.
fn target_len(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' if depth == 0 => return Some(i),
            b')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// What a link target means for the skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// Not a file of the skill: a URL, an anchor, an absolute or templated path.
    External,
    /// A path relative to the skill folder (`/`-separated, normalized).
    Inside(String),
    /// Climbs out of the skill folder.
    Escapes,
}

/// Resolves `target`, written in the file at skill-relative `from`, against the skill folder.
pub fn resolve(from: &str, target: &str) -> Resolved {
    let target = target.split(['#', '?']).next().unwrap_or_default();
    let has_scheme = target.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() > 1
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if target.is_empty()
        || has_scheme
        || target.starts_with(['/', '~', '\\'])
        || target.contains(['{', '$', '*', '<', '|'])
    {
        return Resolved::External;
    }
    let decoded = percent_encoding::percent_decode_str(target).decode_utf8_lossy();
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop(); // the file itself
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Resolved::Escapes;
                }
            }
            part => parts.push(part),
        }
    }
    Resolved::Inside(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_outside_code() {
        let text = "See [ref](references/a.md) and ![img](assets/x.png \"t\").\n\
                    `[not](code.md)` and [url](https://x.y)\n```\n[no](fenced.md)\n```\n\
                    [id]: <docs/b c.md>\n[p](a(b).md)\n";
        let targets: Vec<_> = find(text, 10)
            .into_iter()
            .map(|l| (l.target, l.line, l.col))
            .collect();
        assert_eq!(
            targets,
            [
                ("references/a.md".to_owned(), 10, 11),
                ("assets/x.png".into(), 10, 39),
                ("https://x.y".into(), 11, 28),
                ("docs/b c.md".into(), 15, 7),
                ("a(b).md".into(), 16, 5),
            ]
        );
    }

    #[test]
    fn resolves() {
        assert_eq!(
            resolve("SKILL.md", "references/a.md#x"),
            Resolved::Inside("references/a.md".into())
        );
        assert_eq!(
            resolve("references/a.md", "../scripts/r.sh"),
            Resolved::Inside("scripts/r.sh".into())
        );
        assert_eq!(resolve("SKILL.md", "../other/SKILL.md"), Resolved::Escapes);
        assert_eq!(
            resolve("SKILL.md", "https://example.com"),
            Resolved::External
        );
        assert_eq!(resolve("SKILL.md", "mailto:a@b"), Resolved::External);
        assert_eq!(resolve("SKILL.md", "#anchor"), Resolved::External);
        assert_eq!(resolve("SKILL.md", "/etc/passwd"), Resolved::External);
        assert_eq!(
            resolve("SKILL.md", "my%20file.md"),
            Resolved::Inside("my file.md".into())
        );
        assert_eq!(resolve("SKILL.md", "C:/x"), Resolved::Inside("C:/x".into()));
    }
}
