//! Splitting a SKILL.md into its YAML frontmatter and its Markdown body.
//!
//! Invariants: the file may start with a UTF-8 BOM; the first line is `---` (trailing spaces or tabs
//! allowed); the frontmatter ends at the next line that is `---` (again with optional trailing
//! blanks). Lines end in LF, CRLF or a lone CR. Delimiters are whole lines: a `---` inside a value
//! does not end the frontmatter (the reference validator splits on the substring, which is a bug).

/// A SKILL.md cut into its parts. Line numbers are 1-based lines of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The file started with a byte order mark.
    pub bom: bool,
    /// The frontmatter text with every line ending turned into `\n`.
    pub yaml: String,
    /// File line of the first frontmatter line (the one after the opening `---`).
    pub yaml_line: usize,
    /// File line of the closing `---`.
    pub closing_line: usize,
    /// The Markdown after the closing line, as written.
    pub body: &'a str,
    /// File line where the body starts.
    pub body_line: usize,
    /// Byte offset of the body in the text given to [`split`].
    pub body_offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    #[error("SKILL.md must start with YAML frontmatter (`---` on the first line)")]
    Missing,
    #[error("the frontmatter opened on line {opened} is never closed with a `---` line")]
    Unclosed { opened: usize },
}

/// One line of a text: byte range of its content and the offset where the next line starts.
#[derive(Debug, Clone, Copy)]
pub struct Line {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

/// Lines of `text`, ending at LF, CRLF or CR. A final line without terminator is included when
/// it is not empty.
pub fn lines(text: &str) -> impl Iterator<Item = Line> + '_ {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let found = memchr::memchr2(b'\n', b'\r', &bytes[start..]).map(|i| start + i);
        let line = match found {
            Some(end) => {
                let next = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
                    end + 2
                } else {
                    end + 1
                };
                Line { start, end, next }
            }
            None => Line {
                start,
                end: bytes.len(),
                next: bytes.len(),
            },
        };
        pos = line.next;
        Some(line)
    })
}

fn is_delimiter(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.bytes().all(|b| b == b' ' || b == b'\t'))
}

/// Splits a SKILL.md. `text` is the whole file decoded as UTF-8.
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let (bom, content) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let offset = text.len() - content.len();
    let mut lines = lines(content);
    let first = lines.next().ok_or(SplitError::Missing)?;
    if !is_delimiter(&content[first.start..first.end]) {
        return Err(SplitError::Missing);
    }
    let mut yaml = String::new();
    for (index, line) in lines.enumerate() {
        let line_text = &content[line.start..line.end];
        if is_delimiter(line_text) {
            let closing_line = index + 2;
            return Ok(Split {
                bom,
                yaml,
                yaml_line: 2,
                closing_line,
                body: &content[line.next..],
                body_line: closing_line + 1,
                body_offset: offset + line.next,
            });
        }
        yaml.push_str(line_text);
        yaml.push('\n');
    }
    Err(SplitError::Unclosed { opened: 1 })
}

/// What [`HeadScan::feed`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// Not known yet: more bytes are needed.
    More,
    /// The frontmatter ends at this offset (after the closing line and its line ending).
    End(usize),
    /// The file does not start with a `---` line: there is no frontmatter to wait for.
    None,
}

/// Finds where the frontmatter of a SKILL.md ends while its bytes arrive, looking at each line
/// once, with the rules of [`split`]: so that reading a file's head costs what reading it costs,
/// also when the frontmatter is never closed.
#[derive(Debug, Default)]
pub struct HeadScan {
    /// Where the first line not yet looked at starts.
    next: usize,
    /// How far the line that starts at `next` was searched for its end: a line longer than what
    /// one read brings is searched on from there, not from its start again.
    searched: usize,
    opened: bool,
}

fn is_delimiter_bytes(line: &[u8]) -> bool {
    line.strip_prefix(b"---")
        .is_some_and(|rest| rest.iter().all(|&b| b == b' ' || b == b'\t'))
}

impl HeadScan {
    /// Looks at the lines of `bytes` (all that was read so far) it has not looked at yet.
    pub fn feed(&mut self, bytes: &[u8]) -> Head {
        loop {
            let start = self.next;
            let rest = bytes.get(start..).unwrap_or_default();
            let from = self.searched.max(start);
            let found = memchr::memchr2(b'\n', b'\r', bytes.get(from..).unwrap_or_default())
                .map(|at| from - start + at);
            let Some(at) = found else {
                self.searched = bytes.len();
                // A first line that cannot become `---` ends the wait early.
                if !self.opened {
                    if BOM.starts_with(rest) {
                        return Head::More;
                    }
                    let head = rest.strip_prefix(BOM).unwrap_or(rest);
                    let known = head.len().min(3);
                    if !b"---".starts_with(&head[..known]) {
                        return Head::None;
                    }
                }
                return Head::More;
            };
            let end = start + at;
            let next = if bytes[end] == b'\r' {
                match bytes.get(end + 1) {
                    // A CR at the end of what was read may be the first half of a CRLF.
                    None => {
                        self.searched = end;
                        return Head::More;
                    }
                    Some(b'\n') => end + 2,
                    Some(_) => end + 1,
                }
            } else {
                end + 1
            };
            let line = &bytes[start..end];
            if !self.opened {
                let line = if start == 0 {
                    line.strip_prefix(BOM).unwrap_or(line)
                } else {
                    line
                };
                if !is_delimiter_bytes(line) {
                    return Head::None;
                }
                self.opened = true;
            } else if is_delimiter_bytes(line) {
                return Head::End(next);
            }
            self.next = next;
        }
    }
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// Line and column (1-based, column in characters) of byte `offset` in `text`, counting LF, CRLF
/// and CR as line ends.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut line_no = 1;
    for line in lines(text) {
        if offset < line.next || line.next == text.len() {
            // An offset inside a character counts from that character's start.
            let mut end = offset.min(line.end).max(line.start);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let col = text[line.start..end].chars().count() + 1;
            return (line_no, col);
        }
        line_no += 1;
    }
    (line_no, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lf() {
        let s = split("---\nname: a\n---\n# Body\n").unwrap();
        assert_eq!(s.yaml, "name: a\n");
        assert_eq!(s.body, "# Body\n");
        assert_eq!((s.yaml_line, s.closing_line, s.body_line), (2, 3, 4));
        assert!(!s.bom);
    }

    #[test]
    fn crlf_cr_and_bom() {
        let s = split("\u{feff}---\r\nname: a\r\ndescription: d\r\n---\r\nbody").unwrap();
        assert!(s.bom);
        assert_eq!(s.yaml, "name: a\ndescription: d\n");
        assert_eq!(s.body, "body");
        assert_eq!(s.body_offset, 3 + 5 + 9 + 16 + 5);
        let s = split("---\rname: a\r---\r# Body\r").unwrap();
        assert_eq!(s.yaml, "name: a\n");
        assert_eq!(s.body, "# Body\r");
    }

    #[test]
    fn delimiters_are_lines() {
        let s = split("---\ndescription: before---after\n--- \nrest").unwrap();
        assert_eq!(s.yaml, "description: before---after\n");
        assert_eq!(s.body, "rest");
        assert_eq!(split("----\nname: a\n---\n"), Err(SplitError::Missing));
        assert_eq!(split("\n---\nname: a\n---\n"), Err(SplitError::Missing));
        assert_eq!(
            split("---\nname: a\n...\n"),
            Err(SplitError::Unclosed { opened: 1 })
        );
        assert_eq!(split(""), Err(SplitError::Missing));
        assert_eq!(split("---"), Err(SplitError::Unclosed { opened: 1 }));
        let s = split("---\n---").unwrap();
        assert_eq!((s.yaml.as_str(), s.body), ("", ""));
    }

    #[test]
    fn positions() {
        let text = "ab\r\ncd\ref\nég";
        assert_eq!(position(text, 0), (1, 1));
        assert_eq!(position(text, 4), (2, 1));
        assert_eq!(position(text, 7), (3, 1));
        assert_eq!(position(text, 10), (4, 1));
        assert_eq!(position(text, 12), (4, 2));
    }

    #[test]
    fn head_scan_agrees_with_split_in_any_chunks() {
        for text in [
            "---\nname: a\n---\n# Body\n",
            "\u{feff}---\r\nname: a\r\ndescription: d\r\n---\r\nbody",
            "---\rname: a\r---\r# Body\r",
            "---\ndescription: before---after\n--- \nrest",
            "----\nname: a\n---\n",
            "\n---\nname: a\n---\n",
            "---\nname: a\n...\n",
            "---\n---\nbody",
            "# no frontmatter\n",
            "-",
            "--- \t\nname: a\n---\t\n",
        ] {
            let expected = match split(text) {
                Ok(split) if split.body_offset < text.len() => Head::End(split.body_offset),
                Err(SplitError::Missing) => Head::None,
                Ok(_) | Err(SplitError::Unclosed { .. }) => Head::More,
            };
            for chunk in 1..=text.len().max(1) {
                let mut scan = HeadScan::default();
                let mut found = Head::More;
                for end in (chunk..text.len() + chunk).step_by(chunk) {
                    found = scan.feed(&text.as_bytes()[..end.min(text.len())]);
                    if found != Head::More {
                        break;
                    }
                }
                // A CR at the very end waits for a LF that never comes: at the end of the file
                // the whole file is the head anyway.
                if expected == Head::More || found == Head::More {
                    assert!(
                        matches!(found, Head::More | Head::End(_)),
                        "{text:?} by {chunk}: {found:?}"
                    );
                    continue;
                }
                assert_eq!(found, expected, "{text:?} in chunks of {chunk}");
            }
        }
    }
}
