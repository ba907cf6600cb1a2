//! The parts the `--json` documents share, and their printing. Each document is a
//! `#[derive(Serialize)]` struct whose fields, in their order, are the public contract (the
//! field order of a struct is the order of its keys); `version` is a field of each.
//!
//! The text is JSON as `serde_json` writes it, except that the controls serde leaves raw (DEL,
//! the C1 controls, bidi overrides: see [`crate::output::escape`]) are written as `\uXXXX`
//! escapes too. A parser reads back exactly the same strings; a terminal that shows the
//! document shows no control from a source.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

use crate::output::Printer;

/// The version of every document's schema.
pub const VERSION: u32 = 1;

/// `{"version": 1, "skills": [...]}`: the document of `list`, `check` and `prompt --format json`.
#[derive(Serialize)]
pub struct Skills<'a, T: Serialize> {
    pub version: u32,
    pub skills: &'a [T],
}

impl<'a, T: Serialize> Skills<'a, T> {
    pub fn new(skills: &'a [T]) -> Skills<'a, T> {
        Skills {
            version: VERSION,
            skills,
        }
    }
}

/// A skill that could not be restored or updated, and why (`install`, `update`).
#[derive(Serialize)]
pub struct Failed<'a> {
    pub name: &'a str,
    /// The error on one line, its causes included.
    pub reason: String,
}

impl<'a> Failed<'a> {
    pub fn all<E: std::error::Error>(failures: &'a [(String, E)]) -> Vec<Failed<'a>> {
        failures
            .iter()
            .map(|(name, reason)| Failed {
                name,
                reason: crate::hint::one_line(reason),
            })
            .collect()
    }
}

/// `document`, pretty, with a final newline.
pub fn pretty(document: &impl Serialize) -> Result<String, serde_json::Error> {
    let mut bytes = Vec::with_capacity(128);
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut bytes, Escaping(PrettyFormatter::new()));
    document.serialize(&mut serializer)?;
    bytes.push(b'\n');
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8(bytes).unwrap_or_default())
}

/// `serde_json`'s pretty formatter, with the terminal controls it leaves raw escaped.
struct Escaping<'a>(PrettyFormatter<'a>);

impl Formatter for Escaping<'_> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(crate::output::escape::is_control) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Prints `document` on stdout, pretty, with a final newline.
pub fn print(document: &impl Serialize, printer: &Printer) -> std::io::Result<()> {
    printer.data(&pretty(document)?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn terminal_controls_are_escaped_and_read_back_exactly() {
        let value = "a\x1b[2J\x07\u{9b}\u{202e}\x7f z";
        let text = super::pretty(&serde_json::json!({ "name": value })).unwrap();
        assert_eq!(
            text,
            "{\n  \"name\": \"a\\u001b[2J\\u0007\\u009b\\u202e\\u007f z\"\n}\n"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["name"], value);
    }
}
