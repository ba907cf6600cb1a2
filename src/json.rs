//! The parts the `--json` documents share, and their printing. Each document is a
//! `#[derive(Serialize)]` struct whose fields, in their order, are the public contract (the
//! field order of a struct is the order of its keys); `version` is a field of each.

use serde::Serialize;

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
    let mut text = serde_json::to_string_pretty(document)?;
    text.push('\n');
    Ok(text)
}

/// Prints `document` on stdout, pretty, with a final newline.
pub fn print(document: &impl Serialize, printer: &Printer) -> std::io::Result<()> {
    printer.data(&pretty(document)?)
}
